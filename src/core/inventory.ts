/**
 * The inventory call of spec §7 (`GET commerce/inventory/stock/?itemId=…` → `results`, each with `unlimited` and
 * `qtyInStock`), both sides: what the server answers per variant, and how the add button reads the answer for the
 * stock check before a custom product form opens (§4 "Items with a custom form": stock is checked first).
 */
import type { InventoryStock } from './addToCart';
import type { CoreProduct } from './product';
import { hasUnlimitedStockByType } from './variant';

export const INVENTORY_STOCK_PATH = '/api/commerce/inventory/stock/';

/** At most this many itemId values in one call (a product grid of 50 cards asks once). */
export const INVENTORY_MAX_ITEMS = 50;

/** One result of the call: one variant of one product. `variantId` is the variant's SKU (its id in the site file). */
export interface InventoryStockResult extends InventoryStock {
  itemId: string;
  variantId: string;
}

/**
 * §3/§5: each variant's stock as the call reports it. Digital products, gift cards (and paywall access) count as
 * unlimited whatever their rows say; a negative or fractional count reads as the whole units it holds, at least 0.
 */
export function inventoryStockResults(
  product: Pick<CoreProduct, 'id' | 'productType' | 'variants'>,
): InventoryStockResult[] {
  const unlimitedByType = hasUnlimitedStockByType(product.productType);
  return product.variants.map((v) => {
    const unlimited = unlimitedByType || v.unlimited === true;
    return {
      itemId: product.id,
      variantId: v.sku,
      unlimited,
      qtyInStock: unlimited || !Number.isFinite(v.qtyInStock) ? 0 : Math.max(0, Math.floor(v.qtyInStock)),
    };
  });
}

/**
 * The stock of one variant in an answer of the call, or null when the answer does not hold it (an unreadable
 * answer, another product, a variant removed since the page was made).
 */
export function stockOfVariant(answer: unknown, itemId: string, variantId: string): InventoryStock | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const results = (answer as { results?: unknown }).results;
  if (!Array.isArray(results)) return null;
  for (const result of results as unknown[]) {
    if (typeof result !== 'object' || result === null) continue;
    const r = result as Record<string, unknown>;
    if (r.itemId !== itemId || r.variantId !== variantId) continue;
    if (typeof r.unlimited !== 'boolean' || typeof r.qtyInStock !== 'number' || !Number.isFinite(r.qtyInStock))
      return null;
    return { unlimited: r.unlimited, qtyInStock: r.qtyInStock };
  }
  return null;
}
