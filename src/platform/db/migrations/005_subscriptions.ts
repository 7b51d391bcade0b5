/**
 * Subscriptions (spec §2, §4, §7): the subscription cart (a cart of its own, one line, named by the token in the
 * subscription checkout's URL), the subscriptions bought from it, one bill per subscription and period (UNIQUE: the
 * claim that makes a renewal happen once, whatever runs at once), and the cancel links' tokens (stored hashed).
 * See docs/architecture.md.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function subscriptions(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('subscription_carts')
        .addColumn('cart_id', 'text', (c) => c.primaryKey().references('carts.id').onDelete('cascade'))
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('subscription_option_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('line', 'text', (c) => c.notNull())
        .addColumn('subscription_option_id', 'text')
        .addColumn('billing_unit', 'text', (c) => c.notNull())
        .addColumn('billing_value', 'integer', (c) => c.notNull())
        .addColumn('num_billing_cycles', 'integer', (c) => c.notNull())
        .addColumn('shipping_address', 'text')
        .addColumn('shipping_option_id', 'text')
        .addColumn('payment_provider', 'text', (c) => c.notNull())
        .addColumn('payment_method', 'text', (c) => c.notNull())
        .addColumn('cart_id', 'text', (c) => c.notNull())
        .addColumn('first_order_id', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text', (c) => c.notNull())
        .addColumn('periods_billed', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('next_billing_at', 'text')
        .addColumn('cancelled_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('subscriptions_cart_unique', ['cart_id'])
        .execute();
      await db.schema
        .createIndex('subscriptions_due')
        .on('subscriptions')
        .columns(['status', 'next_billing_at'])
        .execute();
      await db.schema
        .createIndex('subscriptions_by_site')
        .on('subscriptions')
        .columns(['site_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('subscription_bills')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
        .addColumn('period_number', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('order_id', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('subscription_bills_period_unique', ['subscription_id', 'period_number'])
        .execute();

      await db.schema
        .createTable('subscription_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>) {
      for (const table of ['subscription_links', 'subscription_bills', 'subscriptions', 'subscription_carts']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
