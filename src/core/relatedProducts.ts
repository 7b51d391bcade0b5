/**
 * Add-on and related products of a product page (spec §2 "add-on products", §7 RelatedProduct events): which
 * products a page shows, in which order, and whether an add-on's compact button can add it at once. Pure: the page
 * loader (src/render/pages/productDetail.tsx) reads the candidates, this decides.
 */
import { ProductType } from './enums';
import { isSoldOut, type CoreProduct } from './product';

/** Most add-ons a product may name (the site file refuses more). */
export const ADD_ONS_MAX = 6;
/** Most related products a product may name (the site file refuses more). */
export const RELATED_PRODUCTS_MAX = 8;
/** Related products shown when the product names none: the next ones of its collection. */
export const RELATED_PRODUCTS_DEFAULT_COUNT = 4;
/**
 * How far the default choice looks for products in stock: this many after the product, and this many from the
 * collection's start (the order wraps around). A collection of 10,000 mostly sold-out products costs no more.
 */
export const RELATED_PRODUCTS_SCAN = 12;

export const ADD_ONS_TITLE = 'Add-ons';
export const RELATED_PRODUCTS_TITLE = 'You may also like';

/** The accessible name of an add-on's compact add button. */
export const addOnButtonName = (productName: string): string => `Add ${productName}`;
/** The visible text and accessible name of an add-on that must be chosen on its own page. */
export const ADD_ON_CHOOSE_LABEL = 'Choose';
export const addOnChooseName = (productName: string): string => `${ADD_ON_CHOOSE_LABEL} ${productName}`;

type Choosable = Pick<CoreProduct, 'id' | 'productType' | 'variants'>;

/**
 * The add-ons a page shows: the named products in the order named, leaving out unknown ones, the product itself,
 * repeats and sold-out ones (nothing to add). `products` may come in any order.
 */
export function chooseAddOns<T extends Choosable>(
  productId: string,
  named: readonly string[],
  products: readonly T[],
): T[] {
  const byId = new Map(products.map((p) => [p.id, p]));
  const seen = new Set<string>([productId]);
  const chosen: T[] = [];
  for (const id of named) {
    const product = byId.get(id);
    if (!product || seen.has(id) || isSoldOut(product)) continue;
    seen.add(id);
    chosen.push(product);
    if (chosen.length === ADD_ONS_MAX) break;
  }
  return chosen;
}

/**
 * The related products a page shows.
 *
 * - Named (`relatedProductIds`): those products in the order named (`candidates` in any order).
 * - Otherwise: other products of the product's collection in the site file's order, starting after the product and
 *   wrapping around to the collection's first ones, at most RELATED_PRODUCTS_DEFAULT_COUNT. `candidates` is a run of
 *   the collection in the site file's order that holds the product itself (where the order starts again); it may hold
 *   a product twice (the loader's two windows overlap in a small collection).
 *
 * Either way the product itself, repeats and sold-out products are left out.
 */
export function chooseRelatedProducts<T extends Choosable>(input: {
  productId: string;
  named?: readonly string[];
  candidates: readonly T[];
}): T[] {
  const { productId, named, candidates } = input;
  if (named !== undefined) {
    const byId = new Map(candidates.map((p) => [p.id, p]));
    return pick(
      productId,
      named.flatMap((id) => byId.get(id) ?? []),
      RELATED_PRODUCTS_MAX,
    );
  }
  const at = candidates.findIndex((p) => p.id === productId);
  const ordered = at < 0 ? candidates : [...candidates.slice(at + 1), ...candidates.slice(0, at)];
  return pick(productId, ordered, RELATED_PRODUCTS_DEFAULT_COUNT);
}

function pick<T extends Choosable>(productId: string, ordered: readonly T[], limit: number): T[] {
  const seen = new Set<string>([productId]);
  const chosen: T[] = [];
  for (const product of ordered) {
    if (seen.has(product.id) || isSoldOut(product)) continue;
    seen.add(product.id);
    chosen.push(product);
    if (chosen.length === limit) break;
  }
  return chosen;
}

/**
 * Whether an add-on's compact button adds it at once: only a product with one variant and nothing to choose or fill
 * in. Products with options, a product form, a subscription or a gift card (a denomination and its own checkout)
 * link to their page instead.
 */
export function isAddOnAddable(
  product: Pick<CoreProduct, 'productType' | 'isSubscribable' | 'variantOptions' | 'variants'>,
  hasForm: boolean,
): boolean {
  return (
    !hasForm &&
    !product.isSubscribable &&
    product.productType !== ProductType.GIFT_CARD &&
    product.variantOptions.length === 0 &&
    product.variants.length === 1
  );
}
