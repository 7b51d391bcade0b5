/**
 * Which variants' stock changed, in the order the database numbered the changes (`variants.stock_seq`, set by the
 * trigger of migration 016 on every change, whoever made it): what src/modules/catalog/stockWatch.ts asks for.
 */
import type { Kysely } from 'kysely';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';
import type { Database } from '../../platform/db/tables';

export interface StockChange {
  siteId: string;
  productId: string;
  sku: string;
  /** The number of the variant's latest stock change. */
  seq: number;
}

const selectChangesAfter = compiledQuery((db, v: { after: number }) =>
  db
    .selectFrom('variants')
    .select(['site_id', 'product_id', 'sku', 'stock_seq'])
    .where('stock_seq', '>', v.after)
    .orderBy('stock_seq'),
);

/** The variants whose latest stock change is numbered above `after`, lowest first. */
export async function stockChangesAfter(db: Kysely<Database>, after: number): Promise<StockChange[]> {
  const { rows } = await selectChangesAfter.execute(db, { after });
  return rows.map((r) => ({ siteId: r.site_id, productId: r.product_id, sku: r.sku, seq: Number(r.stock_seq) }));
}

/** The highest change number so far (0: no stock has changed since the migration). */
export async function lastStockChange(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('variants')
    .select((eb) => eb.fn.max('stock_seq').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}
