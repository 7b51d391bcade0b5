/**
 * Two indexes every sale wrote and no query needs any more (place order's time, issue 25):
 * - orders_by_site (site_id, created_at), of migration 002: orders_by_site_created (018) has the same columns first
 *   and serves every query it served;
 * - variants_by_stock (site_id, unlimited, qty_in_stock), of 022: the counts of sold-out and low-stock variants read
 *   the partial index variants_counted (026) instead, which holds the same rows (the counted variants) by stock.
 *   Every sale changes a variant's stock, so each of these indexes cost a B-tree entry moved per line sold.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function fewerWriteIndexes(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('orders_by_site').execute();
      await db.schema.dropIndex('variants_by_stock').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.createIndex('orders_by_site').on('orders').columns(['site_id', 'created_at']).execute();
      await sql`CREATE INDEX variants_by_stock ON variants (site_id, unlimited, qty_in_stock)`.execute(db);
    },
  };
}
