/**
 * The inventory's pages read in SQL (issue 25, /admin/inventory), each in an index's order with no sort:
 * - variants.product_position: the product's position, copied onto its variants (written by the import with the
 *   product's, src/modules/catalog/store.ts; filled here from products), so that every variant in the catalog's order
 *   (the product's position, then the variant's) is one index: variants_in_catalog_order;
 * - the sold-out and low-stock lists: variants_counted (the counted variants only, unlimited = 0), by stock then in
 *   the catalog's order — sold out (stock 0) in the catalog's order, low (1 to the threshold) fewest in stock first.
 *   Partial, so that no other query takes it (022's variants_by_stock stays for the rest).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function inventoryPages(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('variants')
        .addColumn('product_position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE variants SET product_position = (SELECT p.position FROM products p
        WHERE p.site_id = variants.site_id AND p.id = variants.product_id)`.execute(db);
      await sql`CREATE INDEX variants_in_catalog_order ON variants (site_id, product_position, product_id, position)`.execute(
        db,
      );
      await sql`CREATE INDEX variants_counted ON variants (site_id, qty_in_stock, product_position, product_id, position)
        WHERE unlimited = 0`.execute(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('variants_counted').execute();
      await db.schema.dropIndex('variants_in_catalog_order').execute();
      await db.schema.alterTable('variants').dropColumn('product_position').execute();
    },
  };
}
