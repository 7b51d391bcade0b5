/**
 * Inventory (spec §7 `GET commerce/inventory/stock/`): the stock of every variant of the asked products, read now
 * (never from a cache: a sale changes it). The rows are the catalog's (`variants` holds the stock); the rule of what
 * counts as unlimited is the core's.
 */
import type { Kysely } from 'kysely';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { inventoryStockResults, type InventoryStockResult } from '../../core/inventory';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { getProducts } from './catalog';
import { toCoreProduct } from './coreProduct';

/** The ids that name no product of the site, in the order asked. */
export interface UnknownItems {
  type: 'UNKNOWN_ITEMS';
  itemIds: string[];
}

/** One result per variant of each product, in the order the ids were asked (each product once). */
export async function getInventoryStock(
  db: Kysely<Database>,
  site: { id: string; currency: string },
  itemIds: readonly string[],
): Promise<Result<InventoryStockResult[], UnknownItems>> {
  const asked = [...new Set(itemIds)];
  const products = new Map((await getProducts(db, site.id, asked)).map((p) => [p.id, p]));
  const unknown = asked.filter((id) => !products.has(id));
  if (unknown.length > 0) return err({ type: 'UNKNOWN_ITEMS', itemIds: unknown });
  const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
  return ok(asked.flatMap((id) => inventoryStockResults(toCoreProduct(products.get(id)!, currency))));
}
