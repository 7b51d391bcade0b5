/**
 * Refunds by line, quantity or amount (issue 25): one `refunds` row per refund request, keyed by the request's
 * idempotency key (unique per site: the same key again is the same refund), written BEFORE the payment provider is
 * called. What an order has given back is kept on it as deltas applied in the database, each change guarded by its
 * limit in the same statement: `orders.refunded_total` (never more than the grand total) and
 * `order_lines.refunded_quantity` (never more units than were bought), so refunds made at once never exceed them.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function refunds(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('orders')
        .addColumn('refunded_total', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('order_lines')
        .addColumn('refunded_quantity', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // An order refunded before this migration gave everything back.
      await db
        .updateTable('orders')
        .set((eb: any) => ({ refunded_total: eb.ref('grand_total') }))
        .where('status', '=', 'refunded')
        .execute();
      await db
        .updateTable('order_lines')
        .set((eb: any) => ({ refunded_quantity: eb.ref('quantity') }))
        .where('order_id', 'in', (eb: any) => eb.selectFrom('orders').select('id').where('status', '=', 'refunded'))
        .execute();
      await db.schema
        .createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('provider_amount', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('restock', 'integer', (c) => c.notNull())
        .addColumn('lines', 'text')
        .addColumn('cancel', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('provider_reference', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('failure', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addUniqueConstraint('refunds_site_key', ['site_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('refunds_by_order').on('refunds').columns(['order_id', 'created_at']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('refunds').ifExists().execute();
      await db.schema.alterTable('order_lines').dropColumn('refunded_quantity').execute();
      await db.schema.alterTable('orders').dropColumn('refunded_total').execute();
    },
  };
}
