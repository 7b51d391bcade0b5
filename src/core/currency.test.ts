import { describe, expect, it } from 'vitest';
import {
  CURRENCY_CODES,
  CURRENCY_PREFIXES,
  DEFAULT_CURRENCY,
  fractionDigits,
  isCurrencyCode,
  parseCurrencyCode,
} from './currency';

describe('currency table (§3)', () => {
  it('lists the 27 codes in the spec order', () => {
    expect(CURRENCY_CODES.join(', ')).toBe(
      'EUR, USD, AUD, NOK, CAD, NZD, DKK, GBP, HKD, CHF, MXN, SGD, SEK, CZK, ILS, PHP, RUB, PLN, THB, MYR, ARS, BRL, COP, IDR, INR, JPY, ZAR',
    );
    expect(CURRENCY_CODES).toHaveLength(27);
  });

  it('uses 2 fraction digits except JPY', () => {
    for (const code of CURRENCY_CODES) expect(fractionDigits(code)).toBe(code === 'JPY' ? 0 : 2);
  });

  it('defaults to USD and has a prefix for every code', () => {
    expect(DEFAULT_CURRENCY).toBe('USD');
    for (const code of CURRENCY_CODES) expect(CURRENCY_PREFIXES[code]).toBeTruthy();
  });

  it.each([
    ['USD', 'USD'],
    [' usd ', 'USD'],
    ['jpy', 'JPY'],
    ['XYZ', null],
    ['', null],
    [12, null],
    [null, null],
  ])('parseCurrencyCode(%j) = %j', (input, expected) => {
    expect(parseCurrencyCode(input)).toBe(expected);
  });

  it('isCurrencyCode is exact', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode(undefined)).toBe(false);
  });
});
