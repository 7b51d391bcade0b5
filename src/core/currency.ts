/** The 27 currencies of spec §3, in the spec's order. */
export const CURRENCY_CODES = [
  'EUR',
  'USD',
  'AUD',
  'NOK',
  'CAD',
  'NZD',
  'DKK',
  'GBP',
  'HKD',
  'CHF',
  'MXN',
  'SGD',
  'SEK',
  'CZK',
  'ILS',
  'PHP',
  'RUB',
  'PLN',
  'THB',
  'MYR',
  'ARS',
  'BRL',
  'COP',
  'IDR',
  'INR',
  'JPY',
  'ZAR',
] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** The store currency when the website's store settings name none (§3). */
export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

export const isCurrencyCode = (value: unknown): value is CurrencyCode =>
  (CURRENCY_CODES as readonly unknown[]).includes(value);

/** Accepts 'usd' or ' USD ' too: site files and payment answers are not always upper case. */
export function parseCurrencyCode(value: unknown): CurrencyCode | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  return isCurrencyCode(code) ? code : null;
}

/** §3: two fraction digits for every currency but JPY (even where ISO says otherwise, e.g. COP, IDR). */
export const fractionDigits = (currency: CurrencyCode): 0 | 2 => (currency === 'JPY' ? 0 : 2);

const NBSP = '\u00a0';

/**
 * Symbols are those English (en-US) CLDR prints, frozen here so a price reads the same in every browser and on the
 * server whatever ICU data the runtime carries. Where CLDR has no unambiguous symbol (NOK/SEK/DKK are all 'kr') the
 * code is shown, followed by a non-breaking space so it never wraps away from the amount.
 */
export const CURRENCY_PREFIXES: Readonly<Record<CurrencyCode, string>> = {
  EUR: '€',
  USD: '$',
  AUD: 'A$',
  NOK: `NOK${NBSP}`,
  CAD: 'CA$',
  NZD: 'NZ$',
  DKK: `DKK${NBSP}`,
  GBP: '£',
  HKD: 'HK$',
  CHF: `CHF${NBSP}`,
  MXN: 'MX$',
  SGD: `SGD${NBSP}`,
  SEK: `SEK${NBSP}`,
  CZK: `CZK${NBSP}`,
  ILS: '₪',
  PHP: '₱',
  RUB: `RUB${NBSP}`,
  PLN: `PLN${NBSP}`,
  THB: `THB${NBSP}`,
  MYR: `MYR${NBSP}`,
  ARS: `ARS${NBSP}`,
  BRL: 'R$',
  COP: `COP${NBSP}`,
  IDR: `IDR${NBSP}`,
  INR: '₹',
  JPY: '¥',
  ZAR: `ZAR${NBSP}`,
};
