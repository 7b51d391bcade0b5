/**
 * When a variant comes back in stock (0 → above 0: an import, a refund putting units back), the restock service
 * records it on the variant's row — if shoppers ever signed up for it — inside the transaction that changed the
 * stock: the time (a send counts the shoppers e-mailed since then against the units), where it came from, and that
 * the automatic send (./autoSend.ts) has yet to look at it. Nothing is e-mailed here.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

type Db = Kysely<Database>;

export type RestockSource = 'import' | 'refund';

export interface Restocked {
  sku: string;
  productId: string;
  /** Units in stock now; null for unlimited stock. */
  qtyInStock: number | null;
}

/** Records the variants that came back in stock; returns how many of them have sign-ups (rows updated). */
export async function recordRestocks(
  trx: Db,
  siteId: string,
  restocked: readonly Restocked[],
  source: RestockSource,
  now: Date,
): Promise<number> {
  let recorded = 0;
  for (const r of restocked) {
    const updated = await trx
      .updateTable('restock_variants')
      .set({
        product_id: r.productId,
        restocked_at: now.toISOString(),
        restock_source: source,
        restocked_qty: r.qtyInStock,
        auto_send_pending: 1,
      })
      .where('site_id', '=', siteId)
      .where('sku', '=', r.sku)
      .executeTakeFirst();
    recorded += Number(updated.numUpdatedRows);
  }
  return recorded;
}
