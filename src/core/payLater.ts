import { ProductType } from './enums';
import { formatMoney, type Money } from './money';
import { isSoldOut, type CoreProduct } from './product';

/** Pay-later (instalment) rules of spec §5 and §9. */

export const PAY_LATER_INSTALMENTS = 4;

/** §9 supported country → languages. */
export const PAY_LATER_SUPPORTED: Readonly<Record<string, readonly string[]>> = {
  US: ['en'],
  CA: ['en', 'fr'],
  AU: ['en'],
  NZ: ['en'],
  GB: ['en'],
};

/**
 * §9: one brand name generally and another for British English. The provider trades as Clearpay in the United
 * Kingdom and as Afterpay elsewhere.
 */
export const PAY_LATER_BRANDS = { general: 'Afterpay', britishEnglish: 'Clearpay' } as const;

/** 'en-GB', 'en_gb' → { language: 'en', region: 'GB' }. */
function splitLocale(locale: string): { language: string; region: string } {
  const [language = '', region = ''] = locale.trim().split(/[-_]/);
  return { language: language.toLowerCase(), region: region.toUpperCase() };
}

/** British English is en-GB, or plain 'en' spoken by a shopper whose country is GB. */
export function payLaterBrand(shopperLanguage: string, country?: string | null): string {
  const { language, region } = splitLocale(shopperLanguage);
  const british = language === 'en' && (region === 'GB' || (region === '' && country?.trim().toUpperCase() === 'GB'));
  return british ? PAY_LATER_BRANDS.britishEnglish : PAY_LATER_BRANDS.general;
}

export function isPayLaterSupported(country: string, shopperLanguage: string): boolean {
  const languages = PAY_LATER_SUPPORTED[country.trim().toUpperCase()];
  return languages !== undefined && languages.includes(splitLocale(shopperLanguage).language);
}

/** §5: only physical products that are not subscriptions. */
export const isProductPayLaterEligible = (product: { productType: number; isSubscribable: boolean }): boolean =>
  product.productType === ProductType.PHYSICAL && !product.isSubscribable;

/**
 * Whether a product page offers instalments: §5's eligibility, and something to buy. A product whose every variant
 * is sold out (§4) offers none: its buttons are disabled, and an offer of payments for it would mislead.
 */
export const productPageOffersPayLater = (
  product: Pick<CoreProduct, 'productType' | 'isSubscribable' | 'variants'>,
): boolean => isProductPayLaterEligible(product) && !isSoldOut(product);

/** §5: only carts whose items are all physical; an empty cart has nothing to split. */
export const isCartPayLaterEligible = (items: readonly { productType: number }[]): boolean =>
  items.length > 0 && items.every((item) => item.productType === ProductType.PHYSICAL);

/** §5: above the minimum and not above the maximum. Limits in another currency never match. */
export const isInPayLaterRange = (price: Money, min: Money, max: Money): boolean =>
  sameCurrency(price, min, max) && price.minorUnits > min.minorUnits && price.minorUnits <= max.minorUnits;

/**
 * Splits a price into instalments of whole minor units: each instalment is the floor of an equal share and the
 * last one takes the remainder (at most count − 1 minor units more), so the parts always add up to the price.
 */
export function instalments(price: Money, count: number = PAY_LATER_INSTALMENTS): Money[] {
  const parts = Number.isSafeInteger(count) && count > 0 ? count : PAY_LATER_INSTALMENTS;
  const share = Math.floor(price.minorUnits / parts);
  return Array.from({ length: parts }, (_, i) => ({
    minorUnits: i === parts - 1 ? price.minorUnits - share * (parts - 1) : share,
    currency: price.currency,
  }));
}

function sameCurrency(price: Money, min: Money, max: Money): boolean {
  return price.currency === min.currency && price.currency === max.currency;
}

/**
 * The out-of-range text of §9: too expensive names the maximum, too cheap names the minimum. Null when in range, or
 * when the limits are in another currency and so say nothing about this price.
 */
export function payLaterRangeText(price: Money, min: Money, max: Money): string | null {
  if (!sameCurrency(price, min, max) || isInPayLaterRange(price, min, max)) return null;
  return price.minorUnits > max.minorUnits
    ? `available for orders up to ${formatMoney(max)}`
    : `available for orders over ${formatMoney(min)}`;
}

/** The pay-later context of §3 for one item. */
export interface PayLaterContext {
  afterPayAvailable: boolean;
  afterPayMin: Money;
  afterPayMax: Money;
  shopperLanguage: string;
  stripeAccountCountry: string;
}

export type PayLaterBadge =
  | { inRange: true; brand: string; instalment: Money; instalmentCount: number }
  | { inRange: false; brand: string; text: string };

/** What the product page's pay-later badge shows, or null when no badge is shown at all. */
export function payLaterBadge(
  product: { productType: number; isSubscribable: boolean },
  price: Money,
  context: PayLaterContext,
): PayLaterBadge | null {
  if (!context.afterPayAvailable || !isProductPayLaterEligible(product)) return null;
  if (!isPayLaterSupported(context.stripeAccountCountry, context.shopperLanguage)) return null;
  if (!sameCurrency(price, context.afterPayMin, context.afterPayMax)) return null;
  const brand = payLaterBrand(context.shopperLanguage, context.stripeAccountCountry);
  const text = payLaterRangeText(price, context.afterPayMin, context.afterPayMax);
  if (text !== null) return { inRange: false, brand, text };
  const [first] = instalments(price);
  return { inRange: true, brand, instalment: first ?? price, instalmentCount: PAY_LATER_INSTALMENTS };
}

/** The store's pay-later settings (site file `store.payLater`). */
export interface PayLaterSettings {
  enabled: boolean;
  min: number;
  max: number;
  accountCountry: string;
}

/** The §3 context of a store's items: its settings in its currency, and the shopper's language (the site's locale). */
export const payLaterContext = (
  settings: PayLaterSettings,
  currency: Money['currency'],
  locale: string,
): PayLaterContext => ({
  afterPayAvailable: settings.enabled,
  afterPayMin: { minorUnits: settings.min, currency },
  afterPayMax: { minorUnits: settings.max, currency },
  shopperLanguage: locale,
  stripeAccountCountry: settings.accountCountry,
});

/** Whether a value read from a page is a usable context (§8: an unreadable one is reported, never thrown). */
export function isPayLaterContext(value: unknown): value is PayLaterContext {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  const money = (m: unknown) =>
    typeof m === 'object' &&
    m !== null &&
    Number.isSafeInteger((m as Money).minorUnits) &&
    (m as Money).minorUnits >= 0 &&
    typeof (m as Money).currency === 'string';
  return (
    typeof c.afterPayAvailable === 'boolean' &&
    money(c.afterPayMin) &&
    money(c.afterPayMax) &&
    typeof c.shopperLanguage === 'string' &&
    typeof c.stripeAccountCountry === 'string'
  );
}

/** The badge's words: the instalment wording in range ('or 4 interest-free payments of $12.50 with Afterpay'), else the brand and §9's range text. */
export function payLaterBadgeText(badge: PayLaterBadge): string {
  return badge.inRange
    ? `or ${badge.instalmentCount} interest-free payments of ${formatMoney(badge.instalment)} with ${badge.brand}`
    : `${badge.brand} ${badge.text}`;
}

/** The language of the information popup: French for a French-speaking shopper, else English (§9's languages). */
export const payLaterInfoLanguage = (shopperLanguage: string): 'en' | 'fr' =>
  splitLocale(shopperLanguage).language === 'fr' ? 'fr' : 'en';
