import { CURRENCY_PREFIXES, DEFAULT_CURRENCY, fractionDigits, parseCurrencyCode, type CurrencyCode } from './currency';
import { err, ok, type Result } from './result';

/** An amount in integer minor units (cents; whole yen for JPY), so sums and products stay exact. */
export interface Money {
  /** Minor units: a non-negative safe integer. */
  readonly minorUnits: number;
  readonly currency: CurrencyCode;
}

/** §9: at most 15 integer places (digits before the decimal point of the shown amount). */
export const MAX_INTEGER_PLACES = 15;

/** §9: a missing price is 0 USD. */
export const DEFAULT_PRICE: Money = { minorUnits: 0, currency: DEFAULT_CURRENCY };

export type MoneyErrorCode =
  | 'not-money'
  | 'unknown-currency'
  | 'not-a-number'
  | 'negative'
  | 'fractional-minor-units'
  | 'too-many-decimals'
  | 'too-large'
  | 'invalid-multiplier'
  | 'currency-mismatch';
export interface MoneyError {
  code: MoneyErrorCode;
  message: string;
}

const fail = (code: MoneyErrorCode, message: string) => err<MoneyError>({ code, message });

/** Shows a bad value inside a message without letting a huge input flood the log. */
const quote = (value: unknown): string => {
  // String() or JSON.stringify on a hostile object may throw (a toString that is not a function, a cycle).
  let text: string;
  try {
    text =
      typeof value === 'string' || typeof value === 'object' ? (JSON.stringify(value) ?? String(value)) : String(value);
  } catch {
    text = Array.isArray(value) ? 'a list' : 'an object';
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

const tooLarge = (currency: CurrencyCode) =>
  fail(
    'too-large',
    `Amount is too large: at most ${MAX_INTEGER_PLACES} digits before the decimal point are allowed (${currency}).`,
  );

/** Builds a Money from minor units, refusing negatives, fractions and amounts beyond the bounds. */
export function moneyOf(minorUnits: number, currency: CurrencyCode): Result<Money, MoneyError> {
  if (!Number.isFinite(minorUnits)) return fail('not-a-number', `Amount ${quote(minorUnits)} is not a number.`);
  if (!Number.isInteger(minorUnits))
    return fail('fractional-minor-units', `Amount ${quote(minorUnits)} must be a whole number of minor units.`);
  if (minorUnits < 0) return fail('negative', `Amount ${quote(minorUnits)} must not be negative.`);
  if (!Number.isSafeInteger(minorUnits) || integerPlaces(minorUnits, currency) > MAX_INTEGER_PLACES)
    return tooLarge(currency);
  return ok({ minorUnits, currency });
}

const integerPlaces = (minorUnits: number, currency: CurrencyCode): number =>
  Math.max(1, String(minorUnits).length - fractionDigits(currency));

type Shape = { kind: 'minor'; raw: unknown; currency: unknown } | { kind: 'decimal'; raw: unknown; currency: unknown };

function shapeOf(input: object): Shape | null {
  const record = input as Record<string, unknown>;
  if ('minorUnits' in record) return { kind: 'minor', raw: record.minorUnits, currency: record.currency };
  if ('value' in record) return { kind: 'minor', raw: record.value, currency: record.currency };
  if ('decimalValue' in record) return { kind: 'decimal', raw: record.decimalValue, currency: record.currencyCode };
  return null;
}

/**
 * Reads money in either shape of §3 — `{ value: '1250', currency: 'USD' }` (minor units) or
 * `{ decimalValue: '12.50', currencyCode: 'USD' }` — or an already parsed Money.
 * A missing price (null/undefined) is the default 0 of `defaultCurrency` (§9: 0 USD), and so is a missing currency.
 */
export function parseMoney(
  input: unknown,
  defaultCurrency: CurrencyCode = DEFAULT_CURRENCY,
): Result<Money, MoneyError> {
  if (input === null || input === undefined) return ok({ minorUnits: 0, currency: defaultCurrency });
  const shape = typeof input === 'object' ? shapeOf(input) : null;
  if (!shape) {
    return fail(
      'not-money',
      `Expected money as { value, currency } or { decimalValue, currencyCode }, got ${quote(input)}.`,
    );
  }
  let currency = defaultCurrency;
  if (shape.currency !== undefined && shape.currency !== null && shape.currency !== '') {
    const code = parseCurrencyCode(shape.currency);
    if (!code) return fail('unknown-currency', `Unknown currency ${quote(shape.currency)}.`);
    currency = code;
  }
  const digits = decimalDigits(shape.raw);
  if (!digits) return fail('not-a-number', `Amount ${quote(shape.raw)} is not a decimal number.`);
  if (digits.negative) return fail('negative', `Amount ${quote(shape.raw)} must not be negative.`);
  return shape.kind === 'minor'
    ? fromMinorDigits(digits, currency, shape.raw)
    : fromDecimalDigits(digits, currency, shape.raw);
}

interface Digits {
  negative: boolean;
  whole: string;
  fraction: string;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

function decimalDigits(raw: unknown): Digits | null {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return null;
    // Numbers print in exponent form beyond 1e21 or below 1e-6; toFixed(20) spells them out digit by digit.
    text = Math.abs(raw) >= 1e21 ? BigInt(raw).toString() : /e/i.test(String(raw)) ? raw.toFixed(20) : String(raw);
  } else if (typeof raw === 'string') {
    text = raw.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  const trimmedWhole = whole.replace(/^0+/, '');
  const isZero = trimmedWhole === '' && /^0*$/.test(fraction);
  return { negative: sign === '-' && !isZero, whole: trimmedWhole, fraction };
}

function fromMinorDigits(digits: Digits, currency: CurrencyCode, raw: unknown): Result<Money, MoneyError> {
  if (!/^0*$/.test(digits.fraction)) {
    return fail('fractional-minor-units', `Amount ${quote(raw)} is in minor units and must be a whole number.`);
  }
  if (digits.whole.length > MAX_INTEGER_PLACES + fractionDigits(currency)) return tooLarge(currency);
  return moneyOf(Number(digits.whole || '0'), currency);
}

function fromDecimalDigits(digits: Digits, currency: CurrencyCode, raw: unknown): Result<Money, MoneyError> {
  const places = fractionDigits(currency);
  const kept = digits.fraction.slice(0, places).padEnd(places, '0');
  if (!/^0*$/.test(digits.fraction.slice(places))) {
    return fail('too-many-decimals', `Amount ${quote(raw)} has more than ${places} decimal places for ${currency}.`);
  }
  if (digits.whole.length > MAX_INTEGER_PLACES) return tooLarge(currency);
  return moneyOf(Number(`${digits.whole}${kept}` || '0'), currency);
}

/** The number part: comma thousands separator, decimal point, the currency's fraction digits. */
export function formatAmount(money: Money, trimZeroFraction = false): string {
  const places = fractionDigits(money.currency);
  // Money built by hand may bypass moneyOf; such values still print rather than throw.
  const units = Number.isFinite(money.minorUnits) ? Math.round(money.minorUnits) : 0;
  const digits = BigInt(Math.abs(units))
    .toString()
    .padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(digits.length - places);
  const showFraction = places > 0 && !(trimZeroFraction && /^0+$/.test(fraction));
  return `${units < 0 ? '-' : ''}${whole}${showFraction ? `.${fraction}` : ''}`;
}

/** '$1,234.50', '¥1,235', 'NOK 12.00' — the same text on every runtime (no Intl). */
export function formatMoney(money: Money): string {
  return withPrefix(money, formatAmount(money));
}

/** An amount as stored (a currency code's text, minor units) as the shopper reads it: 'USD', 2500 → '$25.00'; a code
 * this shop does not know is shown in the default currency's form. */
export function formatStoredMoney(currency: string, minorUnits: number): string {
  return formatMoney({ minorUnits, currency: parseCurrencyCode(currency) ?? DEFAULT_CURRENCY });
}

/** Like formatMoney, but a zero fraction is dropped: '$12' rather than '$12.00' (cart pill subtotal, §9). */
export function formatMoneyTrimmed(money: Money): string {
  return withPrefix(money, formatAmount(money, true));
}

function withPrefix(money: Money, amount: string): string {
  const prefix = CURRENCY_PREFIXES[money.currency] ?? `${String(money.currency)}\u00a0`;
  return amount.startsWith('-') ? `-${prefix}${amount.slice(1)}` : `${prefix}${amount}`;
}

export function addMoney(a: Money, b: Money): Result<Money, MoneyError> {
  if (a.currency !== b.currency) {
    return fail('currency-mismatch', `Cannot add ${a.currency} and ${b.currency} amounts.`);
  }
  return moneyOf(a.minorUnits + b.minorUnits, a.currency);
}

/** Line totals: unit price × quantity, still in whole minor units and within the bounds. */
export function multiplyMoney(unitPrice: Money, quantity: number): Result<Money, MoneyError> {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    return fail('invalid-multiplier', `Quantity ${quote(quantity)} must be a whole number of 0 or more.`);
  }
  // Both factors are safe integers, so a product that passes isSafeInteger was computed exactly.
  return moneyOf(unitPrice.minorUnits * quantity, unitPrice.currency);
}

export function sumMoney(amounts: readonly Money[], currency: CurrencyCode): Result<Money, MoneyError> {
  let total: Result<Money, MoneyError> = ok({ minorUnits: 0, currency });
  for (const amount of amounts) {
    if (!total.ok) break;
    total = addMoney(total.value, amount);
  }
  return total;
}

/**
 * §7: analytics get prices divided by 100. We divide by the currency's own minor-unit factor instead, which is the
 * same for every two-decimal currency and keeps yen (stored whole) from being reported a hundred times too small.
 */
export const toTrackingValue = (money: Money): number => money.minorUnits / 10 ** fractionDigits(money.currency);
