/**
 * The history of each variant's stock (issue 25, the owner's inventory): one row per change — a sale, a renewal, a
 * refund's restock, an import that changed it, the owner's edit — written by the catalog in the change's own
 * transaction (src/modules/catalog/stock.ts, store.ts), so the history never tells of a change that did not happen.
 * Rows are only ever added; they outlive an import that removes their variant.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function stockMovements(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('stock_movements')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('delta', 'integer', (c) => c.notNull())
        .addColumn('qty_after', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('order_id', 'text')
        .addColumn('actor', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('stock_movements_by_sku')
        .on('stock_movements')
        .columns(['site_id', 'sku', 'created_at'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('stock_movements').ifExists().execute();
    },
  };
}
