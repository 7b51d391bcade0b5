import { ProductType } from './enums';
import { PRODUCT_MARK_LABELS, DEFAULT_LABELS } from './labels';
import type { Money } from './money';

/** A variant as the core needs it; the site file and the database map onto this plain shape. */
export interface CoreVariant {
  sku: string;
  /** Option name to chosen value, e.g. { Size: 'M', Colour: 'Blue' }. */
  attributes: Readonly<Record<string, string>>;
  price: Money;
  salePrice: Money | null;
  onSale: boolean;
  qtyInStock: number;
  unlimited: boolean;
}

export interface CoreProduct {
  id: string;
  name: string;
  /** A ProductType, or any other number read from data (unknown types are handled, not rejected). */
  productType: number;
  isSubscribable: boolean;
  /** Option names in display order (variantOptionOrdering); empty when the product has a single variant. */
  variantOptions: readonly string[];
  variants: readonly CoreVariant[];
  /** Digital products carry their own sale flag (§4). */
  onSale?: boolean;
}

/** The merchandising context of §3 that display rules read. */
export interface MerchandisingContext {
  scarcityEnabled?: boolean;
  customSoldOutText?: string | null;
}

/** Negative, fractional or missing stock counts are read as "none in stock" rather than trusted. */
export const hasStock = (v: Pick<CoreVariant, 'unlimited' | 'qtyInStock'>): boolean =>
  v.unlimited === true || (Number.isFinite(v.qtyInStock) && v.qtyInStock >= 1);

/**
 * §4: physical and service products are sold out when no variant is unlimited or in stock; digital and gift cards
 * never are; unknown types are. Paywall products sell access, not stock, so like digital products they never sell out.
 */
export function isSoldOut(product: Pick<CoreProduct, 'productType' | 'variants'>): boolean {
  switch (product.productType) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE:
      return !product.variants.some(hasStock);
    case ProductType.DIGITAL:
    case ProductType.GIFT_CARD:
    case ProductType.PAYWALL:
      return false;
    default:
      return true;
  }
}

/** §4: any variant on sale; digital products use their own flag; gift cards never. */
export function isOnSale(product: Pick<CoreProduct, 'productType' | 'variants' | 'onSale'>): boolean {
  if (product.productType === ProductType.GIFT_CARD) return false;
  if (product.productType === ProductType.DIGITAL) return product.onSale === true;
  return product.variants.some((v) => v.onSale);
}

const sameMoney = (a: Money | null, b: Money | null): boolean =>
  a === b || (a !== null && b !== null && a.minorUnits === b.minorUnits && a.currency === b.currency);

/**
 * §4: variants differ in price, sale flag or sale price. A sale price is compared only while its variant is on sale:
 * a dormant sale price is never shown, so it must not turn the price into a range.
 */
export function hasSeveralPrices(product: Pick<CoreProduct, 'variants'>): boolean {
  const [first, ...rest] = product.variants;
  if (!first) return false;
  return rest.some(
    (v) =>
      !sameMoney(v.price, first.price) ||
      v.onSale !== first.onSale ||
      (v.onSale && !sameMoney(v.salePrice, first.salePrice)),
  );
}

/** Labels a site owner may configure; blank values fall back to the defaults. */
export interface ButtonLabelSettings {
  addToCart?: string | null;
  subscribe?: string | null;
}

/** A subscription option may carry its own button text (§3). */
export interface SubscriptionButtonText {
  useCustomAddButtonText?: boolean;
  customAddButtonText?: string | null;
}

const filled = (text: string | null | undefined): string | null => (text && text.trim() !== '' ? text : null);

/** 'Subscribe' for subscription products, 'Add To Cart' otherwise, unless the site or the option says otherwise. */
export function addToCartLabel(
  product: Pick<CoreProduct, 'isSubscribable'>,
  settings: ButtonLabelSettings = {},
  option?: SubscriptionButtonText,
): string {
  if (product.isSubscribable) {
    const custom = option?.useCustomAddButtonText ? filled(option.customAddButtonText) : null;
    return custom ?? filled(settings.subscribe) ?? DEFAULT_LABELS.subscribe;
  }
  return filled(settings.addToCart) ?? DEFAULT_LABELS.addToCart;
}

export const soldOutMark = (context: MerchandisingContext = {}): string =>
  filled(context.customSoldOutText) ?? PRODUCT_MARK_LABELS.soldOut;

export const saleMark = (label?: string | null): string => filled(label) ?? PRODUCT_MARK_LABELS.sale;

/** The single mark a product card shows. Sold out wins: a sale on something that cannot be bought helps no one. */
export function productMark(product: CoreProduct, context: MerchandisingContext = {}): string | null {
  if (isSoldOut(product)) return soldOutMark(context);
  if (isOnSale(product)) return saleMark();
  return null;
}

/** §4: only when enabled for the product; also hidden once sold out, where the sold-out mark already says it all. */
export const isScarcityShown = (product: CoreProduct, context: MerchandisingContext): boolean =>
  context.scarcityEnabled === true && !isSoldOut(product);
