/**
 * Which variant a product page's restock sign-up form is for (spec §2, §4): kept apart from the rest of ./restock.ts
 * because the browser's main bundle needs only this (src/client/islands/lazy.ts decides when the form's code loads).
 */
import { isVariantSoldOut, type CoreVariant } from './product';

/** What the restock rules read of a variant. */
export type RestockVariant = Pick<CoreVariant, 'sku' | 'attributes' | 'unlimited' | 'qtyInStock'>;

/** What the restock rules read of a product. */
export interface RestockProduct<V extends RestockVariant = RestockVariant> {
  productType: number;
  /** Option names in display order; empty for a product with one variant. */
  variantOptions: readonly string[];
  variants: readonly V[];
}

/** Variants that can be signed up for: sold out ones of a product that can sell out (§4). */
export const restockableVariants = <V extends RestockVariant>(
  product: Pick<RestockProduct<V>, 'productType' | 'variants'>,
): V[] => product.variants.filter((v) => isVariantSoldOut(product, v));

/**
 * What the sign-up form shows for a selection: `variant` when the chosen variant is sold out; `choose` when no variant
 * is chosen yet and some are sold out (only a form without JavaScript offers those to choose from); `none` otherwise.
 * A product without options has its one variant chosen.
 */
export type RestockFormTarget<V extends RestockVariant = RestockVariant> =
  { kind: 'variant'; variant: V } | { kind: 'choose'; variants: V[] } | { kind: 'none' };

export function restockFormTarget<V extends RestockVariant>(
  product: RestockProduct<V>,
  selected: Readonly<Record<string, string | undefined>>,
): RestockFormTarget<V> {
  const complete = product.variantOptions.length === 0 || product.variantOptions.every((name) => selected[name]);
  // As the add button finds it (./variant.ts findVariantByAttributes): every option's value matches.
  const chosen = !complete
    ? null
    : product.variantOptions.length === 0
      ? (product.variants[0] ?? null)
      : (product.variants.find((v) => product.variantOptions.every((name) => v.attributes[name] === selected[name])) ??
        null);
  if (chosen) return isVariantSoldOut(product, chosen) ? { kind: 'variant', variant: chosen } : { kind: 'none' };
  const variants = restockableVariants(product);
  return variants.length > 0 ? { kind: 'choose', variants } : { kind: 'none' };
}

/** Whether a product page carries the sign-up form at all: restock on, and some variant sold out. */
export const hasRestockForm = (
  product: Pick<RestockProduct, 'productType' | 'variants'>,
  settings: { enabled: boolean },
): boolean => settings.enabled && restockableVariants(product).length > 0;
