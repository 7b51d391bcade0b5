/**
 * Indexes for the owner's area (issue 25), found by the query-plans test's day at /admin: each list reads one page in
 * an index's order instead of every row of the site.
 * - orders by payment state (status), newest first; the sales by day (status, then the day it was paid); the refunds
 *   made in a range of days (the report's refunds);
 * - a customer's orders by e-mail, newest first (replaces 021's index, which gave no order);
 * - the sold-out and low-stock variants (unlimited, then the stock);
 * - an order's or a variant's audit entries and a variant's stock history, newest first, in the order of the pages
 *   (the id breaks ties: 017's and 020's indexes ended at the time, and PostgreSQL sorted every row to page them).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function adminIndexes(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`CREATE INDEX orders_by_site_status ON orders (site_id, status, created_at DESC, number DESC)`.execute(
        db,
      );
      await sql`CREATE INDEX orders_by_site_paid_day ON orders (site_id, status, updated_at)`.execute(db);
      await db.schema.dropIndex('orders_by_site_email').execute();
      await sql`CREATE INDEX orders_by_site_email ON orders (site_id, lower(email), created_at DESC, number DESC)`.execute(
        db,
      );
      await sql`CREATE INDEX variants_by_stock ON variants (site_id, unlimited, qty_in_stock)`.execute(db);
      await db.schema.dropIndex('audit_log_by_subject').execute();
      await sql`CREATE INDEX audit_log_by_subject ON audit_log (site_id, subject_type, subject_id, at DESC, id DESC)`.execute(
        db,
      );
      await sql`CREATE INDEX refunds_by_site_day ON refunds (site_id, status, created_at)`.execute(db);
      await db.schema.dropIndex('stock_movements_by_sku').execute();
      await sql`CREATE INDEX stock_movements_by_sku ON stock_movements (site_id, sku, created_at DESC, id DESC)`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('refunds_by_site_day').execute();
      await db.schema.dropIndex('stock_movements_by_sku').execute();
      await sql`CREATE INDEX stock_movements_by_sku ON stock_movements (site_id, sku, created_at)`.execute(db);
      await db.schema.dropIndex('audit_log_by_subject').execute();
      await sql`CREATE INDEX audit_log_by_subject ON audit_log (site_id, subject_type, subject_id, at)`.execute(db);
      await db.schema.dropIndex('variants_by_stock').execute();
      await db.schema.dropIndex('orders_by_site_email').execute();
      await sql`CREATE INDEX orders_by_site_email ON orders (site_id, lower(email))`.execute(db);
      await db.schema.dropIndex('orders_by_site_paid_day').execute();
      await db.schema.dropIndex('orders_by_site_status').execute();
    },
  };
}
