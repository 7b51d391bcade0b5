/**
 * Fulfilment (issue 25): an order's `fulfilment` ('pending' | 'fulfilled' | 'canceled'), the shipments that fulfilled
 * it (`fulfilments`: carrier, tracking number, whether the customer was told) and the owner's notes on it
 * (`order_notes`). Orders already placed are pending, except those that held only things nobody ships (digital
 * products, gift cards, paywall access): those fulfilled themselves. Indexes for the admin's orders list: newest first
 * per site (and by number, the cursor's tie-break), by e-mail (search).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

/** ProductType of src/core/enums.ts as of this migration: DIGITAL, GIFT_CARD, PAYWALL. */
const SELF_FULFILLING = [2, 4, 5];

export function fulfilment(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('orders')
        .addColumn('fulfilment', 'text', (c) => c.notNull().defaultTo('pending'))
        .execute();
      await sql`update orders set fulfilment = 'fulfilled'
        where exists (select 1 from order_lines l where l.order_id = orders.id)
          and not exists (select 1 from order_lines l where l.order_id = orders.id
            and l.product_type not in (${sql.join(SELF_FULFILLING)}))`.execute(db);
      await db.schema
        .createIndex('orders_by_site_created')
        .on('orders')
        .columns(['site_id', 'created_at desc', 'number desc'])
        .execute();
      await db.schema
        .createIndex('orders_by_site_fulfilment')
        .on('orders')
        .columns(['site_id', 'fulfilment', 'created_at desc', 'number desc'])
        .execute();

      await db.schema
        .createTable('fulfilments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('carrier', 'text')
        .addColumn('tracking_number', 'text')
        .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('fulfilments_by_order')
        .on('fulfilments')
        .columns(['order_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('order_notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('order_notes_by_order')
        .on('order_notes')
        .columns(['order_id', 'created_at'])
        .execute();
      await db.schema.createIndex('outbox_by_order').on('outbox').columns(['order_id', 'created_at']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('outbox_by_order').ifExists().execute();
      await db.schema.dropTable('order_notes').ifExists().execute();
      await db.schema.dropTable('fulfilments').ifExists().execute();
      await db.schema.dropIndex('orders_by_site_fulfilment').ifExists().execute();
      await db.schema.dropIndex('orders_by_site_created').ifExists().execute();
      await db.schema.alterTable('orders').dropColumn('fulfilment').execute();
    },
  };
}
