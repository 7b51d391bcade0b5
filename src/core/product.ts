import { ProductType } from './enums';
import { PRODUCT_MARK_LABELS, DEFAULT_LABELS, filledText as filled } from './labels';
import { formatMoney, type Money } from './money';
import { hasUnlimitedStockByType, totalStock } from './variant';

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

/** §4 at variant level: the chosen variant of a product that can sell out has no stock (nor unlimited stock). */
export const isVariantSoldOut = (
  product: Pick<CoreProduct, 'productType'>,
  variant: Pick<CoreVariant, 'unlimited' | 'qtyInStock'>,
): boolean => !hasUnlimitedStockByType(product.productType) && !hasStock(variant);

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

/** The site's own mark labels (§9 defaults 'sold out' and 'sale'); blank values fall back to the defaults. */
export interface ProductMarkLabels {
  soldOut?: string | null;
  sale?: string | null;
}

export type ProductMarkKind = 'sold-out' | 'sale';

/** Which mark a product card shows. Sold out wins: a sale on something that cannot be bought helps no one. */
export function productMarkKind(product: CoreProduct): ProductMarkKind | null {
  if (isSoldOut(product)) return 'sold-out';
  if (isOnSale(product)) return 'sale';
  return null;
}

/**
 * The text of the single mark a product shows, or null. Sold-out text: the product's own (§3 customSoldOutText),
 * else the site's label, else 'sold out'. Sale text: the site's label, else 'sale'.
 */
export function productMark(
  product: CoreProduct,
  context: MerchandisingContext = {},
  labels: ProductMarkLabels = {},
): string | null {
  switch (productMarkKind(product)) {
    case 'sold-out':
      return filled(context.customSoldOutText) ?? soldOutMark({ customSoldOutText: labels.soldOut });
    case 'sale':
      return saleMark(labels.sale);
    default:
      return null;
  }
}

/** §4: only when enabled for the product; also hidden once sold out, where the sold-out mark already says it all. */
export const isScarcityShown = (product: CoreProduct, context: MerchandisingContext): boolean =>
  context.scarcityEnabled === true && !isSoldOut(product);

/**
 * §4 scarcity text: the template with {qty} filled in, shown only when stock is at or below the threshold (the spec
 * says a threshold exists without its value; the site file carries it). Null otherwise, and for no or unlimited stock.
 */
export function scarcityText(template: string, stock: number, threshold: number): string | null {
  if (!Number.isFinite(stock) || stock < 1 || !(stock <= threshold)) return null;
  return template.split('{qty}').join(String(Math.floor(stock)));
}

/** A product's scarcity settings (§3 merchandising context: scarcityText, scarcityShownByDefault, the threshold). */
export interface ScarcitySettings {
  enabled: boolean;
  shownByDefault: boolean;
  template: string;
  threshold: number;
}

/** The §4 scarcity notice of a product, or null: enabled, shown by default, not sold out, stock within threshold. */
export function scarcityNotice(product: CoreProduct, scarcity: ScarcitySettings): string | null {
  if (!scarcity.shownByDefault || !isScarcityShown(product, { scarcityEnabled: scarcity.enabled })) return null;
  return scarcityText(scarcity.template, totalStock(product), scarcity.threshold);
}

/**
 * The §4 scarcity notice as the shopper chooses: for a chosen variant, its own stock (a variant with few units left
 * says so even when the product as a whole has plenty; a sold-out or unlimited one says nothing); before a choice (or
 * for an incomplete one), the product's notice. Same switches as `scarcityNotice` (enabled, shown by default).
 */
export function variantScarcityNotice(
  product: CoreProduct,
  chosen: CoreVariant | null,
  scarcity: ScarcitySettings,
): string | null {
  if (chosen === null) return scarcityNotice(product, scarcity);
  if (!scarcity.shownByDefault || !isScarcityShown(product, { scarcityEnabled: scarcity.enabled })) return null;
  if (hasUnlimitedStockByType(product.productType) || chosen.unlimited) return null;
  return scarcityText(scarcity.template, chosen.qtyInStock, scarcity.threshold);
}

/** What the shopper pays for a variant: its sale price while on sale, else its price. */
export const effectivePrice = (v: Pick<CoreVariant, 'onSale' | 'salePrice' | 'price'>): Money =>
  v.onSale && v.salePrice ? v.salePrice : v.price;

/** A variant's shown price: the current amount, and the struck-through original while on sale. */
export interface VariantPriceText {
  current: string;
  original: string | null;
}

export function variantPriceText(v: Pick<CoreVariant, 'onSale' | 'salePrice' | 'price'>): VariantPriceText {
  const onSale = v.onSale && v.salePrice !== null;
  return { current: formatMoney(effectivePrice(v)), original: onSale ? formatMoney(v.price) : null };
}

/** Lowest and highest price the shopper would pay across the variants; null without variants. */
export function priceRange(product: Pick<CoreProduct, 'variants'>): { low: Money; high: Money } | null {
  const prices = product.variants.map(effectivePrice).sort((a, b) => a.minorUnits - b.minorUnits);
  const low = prices[0];
  const high = prices[prices.length - 1];
  return low && high ? { low, high } : null;
}

/** §4 'has several prices': the range '$24.00 – $34.00' (one amount when low and high agree); null without variants. */
export function priceRangeText(product: Pick<CoreProduct, 'variants'>): string | null {
  const range = priceRange(product);
  if (!range) return null;
  const low = formatMoney(range.low);
  return range.low.minorUnits === range.high.minorUnits ? low : `${low} – ${formatMoney(range.high)}`;
}
