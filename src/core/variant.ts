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
  return (
    product.variants.find((v) => product.variantOptions.every((name) => v.attributes[name] === selected[name])) ?? null
  );
}

/**
 * Which of a product's images shows the shopper's choice: the first image whose `attributes` (the option values it
 * pictures, e.g. { Color: 'Slate' }) are all chosen; -1 when none is (the product's first image stays). An image
 * naming only some options (the colour of a mug sold in several sizes) shows as soon as those are chosen.
 */
export function variantImageIndex(
  images: readonly { attributes?: Readonly<Record<string, string>> | undefined }[],
  selected: Readonly<Record<string, string | undefined>>,
): number {
  return images.findIndex((image) => {
    const wanted = Object.entries(image.attributes ?? {});
    return wanted.length > 0 && wanted.every(([name, value]) => selected[name] === value);
  });
}

/** The choice a product page starts with: each option with a single value has it chosen (nothing else to choose). */
export const preselectedOptions = (
  options: readonly { name: string; values: readonly string[] }[],
): Record<string, string> =>
  Object.fromEntries(options.filter((o) => o.values.length === 1).map((o) => [o.name, o.values[0] ?? '']));

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
