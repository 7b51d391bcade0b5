/**
 * The writes of a variant's stock between imports, all here: an order or a renewal takes units, a refund puts them
 * back. Each is one conditional statement inside the caller's transaction, so the stock never goes below 0 and of two
 * orders racing for the last unit exactly one takes it. Callers take several SKUs in code-point order (as imports
 * lock them, ./store.ts), so two PostgreSQL transactions never wait for each other's rows. Every change moves
 * the variant's stock_seq (migration 016), which keeps cached pages true (./stockWatch.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';

const decrement = compiledQuery((db, v: { siteId: string; sku: string; quantity: number }) =>
  db
    .updateTable('variants')
    .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '-', v.quantity) }))
    .where('site_id', '=', v.siteId)
    .where('sku', '=', v.sku)
    .where('unlimited', '=', 0)
    .where('qty_in_stock', '>=', v.quantity),
);

/** Takes `quantity` units: true when taken (or the variant is unlimited), false when fewer are left (nothing moves). */
export async function takeStock(
  trx: Kysely<Database>,
  siteId: string,
  sku: string,
  quantity: number,
): Promise<boolean> {
  const taken = await decrement.execute(trx, { siteId, sku, quantity });
  if (Number(taken.numAffectedRows ?? 0) > 0) return true;
  const row = await trx
    .selectFrom('variants')
    .select('unlimited')
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .executeTakeFirst();
  return row?.unlimited === 1;
}

/** Puts `quantity` units back (a refund); the variant's stock after, or undefined when it is unlimited or gone. */
export async function putBack(
  trx: Kysely<Database>,
  siteId: string,
  sku: string,
  quantity: number,
): Promise<{ productId: string; qtyInStock: number } | undefined> {
  const after = await trx
    .updateTable('variants')
    .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '+', quantity) }))
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .where('unlimited', '=', 0)
    .returning(['qty_in_stock', 'product_id'])
    .executeTakeFirst();
  return after && { productId: after.product_id, qtyInStock: Number(after.qty_in_stock) };
}
