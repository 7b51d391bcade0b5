/**
 * Indexes for the order page's subscription lookup (src/modules/subscriptions/store.ts `subscriptionOfOrder`): by
 * the subscription's first order, and by a renewal bill's order. Without them every order page read all of the
 * site's subscriptions (found by test/integration/query-plans.test.ts).
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function orderLookups(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('subscriptions_by_first_order')
        .on('subscriptions')
        .columns(['site_id', 'first_order_id'])
        .execute();
      await db.schema.createIndex('subscription_bills_by_order').on('subscription_bills').column('order_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('subscription_bills_by_order').ifExists().execute();
      await db.schema.dropIndex('subscriptions_by_first_order').ifExists().execute();
    },
  };
}
