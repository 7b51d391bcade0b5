/**
 * Stock changes made visible to every process (issue 23): each variant row carries `stock_seq`, set by a trigger
 * from one ever-growing counter whenever its stock (`qty_in_stock`, `unlimited`) changes — whoever writes it: an
 * order, a refund, a renewal, the owner's edit, a `vitrine` command in another process. A server asks for the rows
 * past the last number it saw (src/modules/catalog/stockWatch.ts) and drops the cached pages that show those products.
 *
 * A trigger rather than a call in each writer: stock is written in several places and by other processes, and a
 * writer that forgets the call would leave a page wrong until the next import. PostgreSQL takes the number from a
 * sequence (no row that every order would lock); SQLite from a one-row counter (its writers are serialized anyway).
 * Both only grow, whatever an import deletes and inserts.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function stockChanges(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('variants')
        .addColumn('stock_seq', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('variants_by_stock_seq').on('variants').column('stock_seq').execute();
      if (engine === 'postgres') {
        await sql`CREATE SEQUENCE variants_stock_seq`.execute(db);
        await sql`CREATE FUNCTION variants_stock_changed() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            NEW.stock_seq := nextval('variants_stock_seq');
            RETURN NEW;
          END
        $$`.execute(db);
        await sql`CREATE TRIGGER variants_stock_changed BEFORE UPDATE OF qty_in_stock, unlimited ON variants FOR EACH ROW
          WHEN (OLD.qty_in_stock IS DISTINCT FROM NEW.qty_in_stock OR OLD.unlimited IS DISTINCT FROM NEW.unlimited)
          EXECUTE FUNCTION variants_stock_changed()`.execute(db);
      } else {
        // SQLite has no sequences: a one-row counter (writers are serialized, so it is no point of contention).
        await sql`CREATE TABLE stock_clock (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL)`.execute(db);
        await sql`INSERT INTO stock_clock (id, seq) VALUES (1, 0)`.execute(db);
        await sql`CREATE TRIGGER variants_stock_changed AFTER UPDATE OF qty_in_stock, unlimited ON variants FOR EACH ROW
          WHEN OLD.qty_in_stock IS NOT NEW.qty_in_stock OR OLD.unlimited IS NOT NEW.unlimited
          BEGIN
            UPDATE stock_clock SET seq = seq + 1 WHERE id = 1;
            UPDATE variants SET stock_seq = (SELECT seq FROM stock_clock WHERE id = 1) WHERE site_id = NEW.site_id AND sku = NEW.sku;
          END`.execute(db);
      }
    },
    async down(db: Kysely<any>) {
      if (engine === 'postgres') {
        await sql`DROP TRIGGER IF EXISTS variants_stock_changed ON variants`.execute(db);
        await sql`DROP FUNCTION IF EXISTS variants_stock_changed()`.execute(db);
        await sql`DROP SEQUENCE IF EXISTS variants_stock_seq`.execute(db);
      } else {
        await sql`DROP TRIGGER IF EXISTS variants_stock_changed`.execute(db);
        await sql`DROP TABLE IF EXISTS stock_clock`.execute(db);
      }
      await db.schema.dropIndex('variants_by_stock_seq').ifExists().execute();
      await db.schema.alterTable('variants').dropColumn('stock_seq').execute();
    },
  };
}
