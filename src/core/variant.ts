import { ProductType } from './enums';
import type { CoreProduct, CoreVariant } from './product';

const isChosen = (value: string | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** Option names (in the product's order) that the shopper has not chosen yet. */
export const unselectedOptions = (
  product: Pick<CoreProduct, 'variantOptions'>,
  selected: Readonly<Record<string, string | undefined>>,
): string[] => product.variantOptions.filter((name) => !isChosen(selected[name]));

/** The variant whose attributes match every option; extra keys in the selection are ignored. */
export function findVariantByAttributes(
  product: Pick<CoreProduct, 'variantOptions' | 'variants'>,
  selected: Readonly<Record<string, string | undefined>>,
): CoreVariant | null {
  // A product without options has one variant: there is nothing to choose.
  if (product.variantOptions.length === 0) return product.variants[0] ?? null;
  return product.variants.find((v) => product.variantOptions.every((name) => v.attributes[name] === selected[name])) ?? null;
}

export const findVariantBySku = (product: Pick<CoreProduct, 'variants'>, sku: string): CoreVariant | null =>
  product.variants.find((v) => v.sku === sku) ?? null;

/** Stock types that never run out (§5: digital and gift-card stock counts as unlimited). */
export const hasUnlimitedStockByType = (productType: number): boolean =>
  productType === ProductType.DIGITAL || productType === ProductType.GIFT_CARD || productType === ProductType.PAYWALL;

/** Units available across all variants; Infinity when any is unlimited. */
export function totalStock(product: Pick<CoreProduct, 'productType' | 'variants'>): number {
  if (hasUnlimitedStockByType(product.productType)) return Infinity;
  let total = 0;
  for (const v of product.variants) {
    if (v.unlimited) return Infinity;
    if (Number.isFinite(v.qtyInStock) && v.qtyInStock > 0) total += Math.floor(v.qtyInStock);
  }
  return total;
}
