/**
 * Checkout: orders and their lines, payments (one row per payment attempt, keyed by the page's idempotency key),
 * per-site order numbers, coupon usage counters, the e-mail outbox, and the cart's link to its order.
 * See docs/architecture.md.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function checkout(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('carts').addColumn('order_id', 'text').execute();

      await db.schema
        .createTable('order_counters')
        .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
        .addColumn('last_number', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('cart_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('subtotal', 'bigint', (c) => c.notNull())
        .addColumn('shipping', 'bigint', (c) => c.notNull())
        .addColumn('tax', 'bigint', (c) => c.notNull())
        .addColumn('discount', 'bigint', (c) => c.notNull())
        .addColumn('grand_total', 'bigint', (c) => c.notNull())
        .addColumn('prices_include_tax', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tax_name', 'text', (c) => c.notNull().defaultTo('Tax'))
        .addColumn('shipping_address', 'text')
        .addColumn('shipping_option', 'text')
        .addColumn('coupon_code', 'text')
        .addColumn('payment_provider', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('orders_number_unique', ['site_id', 'number'])
        .addUniqueConstraint('orders_cart_unique', ['cart_id'])
        .execute();
      await db.schema.createIndex('orders_by_site').on('orders').columns(['site_id', 'created_at']).execute();

      await db.schema
        .createTable('order_lines')
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('product_type', 'integer', (c) => c.notNull())
        .addColumn('attributes', 'text', (c) => c.notNull())
        .addColumn('additional_fields', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('additional_fields_summary', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('image', 'text')
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('line_total', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_lines_pk', ['order_id', 'position'])
        .addCheckConstraint('order_lines_quantity_positive', sql`quantity > 0`)
        .execute();

      await db.schema
        .createTable('payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('cart_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('provider_reference', 'text')
        .addColumn('failure', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('payments_idempotency_unique', ['site_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('payments_by_order').on('payments').columns(['order_id']).execute();
      await db.schema.createIndex('payments_by_status').on('payments').columns(['status', 'updated_at']).execute();

      await db.schema
        .createTable('coupon_usage')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('coupon_usage_pk', ['site_id', 'code'])
        .execute();

      await db.schema
        .createTable('coupon_email_uses')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('coupon_email_uses_pk', ['site_id', 'code', 'email'])
        .execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
    },

    async down(db: Kysely<any>) {
      for (const table of [
        'outbox',
        'coupon_email_uses',
        'coupon_usage',
        'payments',
        'order_lines',
        'orders',
        'order_counters',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
      await db.schema.alterTable('carts').dropColumn('order_id').execute();
    },
  };
}
