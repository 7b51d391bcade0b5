import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, type CurrencyCode } from './currency';
import {
  addMoney,
  DEFAULT_PRICE,
  formatAmount,
  formatMoney,
  formatStoredMoney,
  formatMoneyTrimmed,
  MAX_INTEGER_PLACES,
  moneyOf,
  multiplyMoney,
  parseMoney,
  sumMoney,
  toTrackingValue,
  type Money,
} from './money';

const m = (minorUnits: number, currency: CurrencyCode = 'USD'): Money => ({ minorUnits, currency });

describe('parseMoney (§3 shapes)', () => {
  it.each<[unknown, Money]>([
    [{ value: '1250', currency: 'USD' }, m(1250)],
    [{ value: '0', currency: 'EUR' }, m(0, 'EUR')],
    [{ value: '1250.00', currency: 'USD' }, m(1250)],
    [{ value: 1250, currency: 'gbp' }, m(1250, 'GBP')],
    [{ value: '1250' }, m(1250)],
    [{ value: '1250', currency: null }, m(1250)],
    [{ value: '-0', currency: 'USD' }, m(0)],
    [{ decimalValue: '12.50', currencyCode: 'USD' }, m(1250)],
    [{ decimalValue: '12.5', currencyCode: 'USD' }, m(1250)],
    [{ decimalValue: '12', currencyCode: 'USD' }, m(1200)],
    [{ decimalValue: '.5', currencyCode: 'USD' }, m(50)],
    [{ decimalValue: '12.', currencyCode: 'USD' }, m(1200)],
    [{ decimalValue: '12.500', currencyCode: 'USD' }, m(1250)],
    [{ decimalValue: ' 007.10 ', currencyCode: 'USD' }, m(710)],
    [{ decimalValue: 12.5, currencyCode: 'USD' }, m(1250)],
    [{ decimalValue: '1235', currencyCode: 'JPY' }, m(1235, 'JPY')],
    [{ decimalValue: '999999999999999', currencyCode: 'JPY' }, m(999999999999999, 'JPY')],
    [{ decimalValue: '90071992547409.91', currencyCode: 'USD' }, m(Number.MAX_SAFE_INTEGER)],
    [{ minorUnits: 5, currency: 'USD' }, m(5)],
    [null, DEFAULT_PRICE],
    [undefined, DEFAULT_PRICE],
  ])('reads %j', (input, expected) => {
    expect(parseMoney(input)).toEqual({ ok: true, value: expected });
  });

  it('uses the store currency when none is given', () => {
    expect(parseMoney(undefined, 'EUR')).toEqual({ ok: true, value: m(0, 'EUR') });
    expect(parseMoney({ value: '5' }, 'JPY')).toEqual({ ok: true, value: m(5, 'JPY') });
  });

  it.each<[unknown, string, string]>([
    ['12.50', 'not-money', 'Expected money as { value, currency } or { decimalValue, currencyCode }, got "12.50".'],
    [
      { amount: 1 },
      'not-money',
      'Expected money as { value, currency } or { decimalValue, currencyCode }, got {"amount":1}.',
    ],
    [{ value: '100', currency: 'XYZ' }, 'unknown-currency', 'Unknown currency "XYZ".'],
    [{ value: '100', currency: 7 }, 'unknown-currency', 'Unknown currency 7.'],
    [{ value: 'abc', currency: 'USD' }, 'not-a-number', 'Amount "abc" is not a decimal number.'],
    [{ value: '', currency: 'USD' }, 'not-a-number', 'Amount "" is not a decimal number.'],
    [{ value: '.', currency: 'USD' }, 'not-a-number', 'Amount "." is not a decimal number.'],
    [{ value: '1,000', currency: 'USD' }, 'not-a-number', 'Amount "1,000" is not a decimal number.'],
    [{ value: '1e3', currency: 'USD' }, 'not-a-number', 'Amount "1e3" is not a decimal number.'],
    [{ value: NaN, currency: 'USD' }, 'not-a-number', 'Amount NaN is not a decimal number.'],
    [{ value: true, currency: 'USD' }, 'not-a-number', 'Amount true is not a decimal number.'],
    [{ value: '-5', currency: 'USD' }, 'negative', 'Amount "-5" must not be negative.'],
    [
      { value: '12.5', currency: 'USD' },
      'fractional-minor-units',
      'Amount "12.5" is in minor units and must be a whole number.',
    ],
    [
      { decimalValue: '12.505', currencyCode: 'USD' },
      'too-many-decimals',
      'Amount "12.505" has more than 2 decimal places for USD.',
    ],
    [
      { decimalValue: '1000.5', currencyCode: 'JPY' },
      'too-many-decimals',
      'Amount "1000.5" has more than 0 decimal places for JPY.',
    ],
    [
      { decimalValue: 1e-7, currencyCode: 'USD' },
      'too-many-decimals',
      'Amount 1e-7 has more than 2 decimal places for USD.',
    ],
    [
      { decimalValue: '1234567890123456', currencyCode: 'JPY' },
      'too-large',
      'Amount is too large: at most 15 digits before the decimal point are allowed (JPY).',
    ],
    [
      { value: '100000000000000000', currency: 'USD' },
      'too-large',
      'Amount is too large: at most 15 digits before the decimal point are allowed (USD).',
    ],
    [
      { decimalValue: '90071992547409.92', currencyCode: 'USD' },
      'too-large',
      'Amount is too large: at most 15 digits before the decimal point are allowed (USD).',
    ],
    [
      { decimalValue: 1e21, currencyCode: 'USD' },
      'too-large',
      'Amount is too large: at most 15 digits before the decimal point are allowed (USD).',
    ],
  ])('refuses %j', (input, code, message) => {
    expect(parseMoney(input)).toEqual({ ok: false, error: { code, message } });
  });

  it('shortens a huge bad value inside the message', () => {
    const result = parseMoney({ value: 'x'.repeat(100), currency: 'USD' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(`Amount "${'x'.repeat(39)}… is not a decimal number.`);
  });

  it('never throws, whatever it is given', () => {
    // Found by fast-check: an object whose toString is not a function.
    expect(parseMoney({ value: { toString: 0 }, currency: {} }).ok).toBe(false);
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (value, currency) => {
        parseMoney(value);
        parseMoney({ value, currency });
        parseMoney({ decimalValue: value, currencyCode: currency });
      }),
      { numRuns: 2000 },
    );
  });

  it('names a value it cannot print (a cycle) by its kind', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const message = (input: unknown) => {
      const result = parseMoney(input);
      return result.ok ? null : result.error.message;
    };
    expect(message(cycle)).toBe(
      'Expected money as { value, currency } or { decimalValue, currencyCode }, got an object.',
    );
    expect(message({ value: [cycle], currency: 'USD' })).toBe('Amount a list is not a decimal number.');
  });
});

describe('moneyOf', () => {
  it.each<[number, string]>([
    [Infinity, 'not-a-number'],
    [1.5, 'fractional-minor-units'],
    [-1, 'negative'],
    [Number.MAX_SAFE_INTEGER + 1, 'too-large'],
  ])('refuses %s', (value, code) => {
    const result = moneyOf(value, 'USD');
    expect(result.ok ? null : result.error.code).toBe(code);
  });

  it('enforces 15 integer places: JPY tops out at 15 digits', () => {
    expect(moneyOf(999_999_999_999_999, 'JPY').ok).toBe(true);
    expect(moneyOf(1_000_000_000_000_000, 'JPY').ok).toBe(false);
  });
});

describe('formatStoredMoney', () => {
  it('formats a stored currency code and minor units as the shopper reads them', () => {
    expect(formatStoredMoney('USD', 2500)).toBe('$25.00');
    expect(formatStoredMoney('JPY', 1235)).toBe('¥1,235');
  });
  it('shows an unknown stored code in the default currency rather than failing', () => {
    expect(formatStoredMoney('XXX', 100)).toBe(formatStoredMoney('USD', 100));
  });
});

describe('formatMoney (§9)', () => {
  it.each<[Money, string, string]>([
    [m(123450), '$1,234.50', '$1,234.50'],
    [m(1200), '$12.00', '$12'],
    [m(1250), '$12.50', '$12.50'],
    [m(5), '$0.05', '$0.05'],
    [m(0), '$0.00', '$0'],
    [m(100000000), '$1,000,000.00', '$1,000,000'],
    [m(Number.MAX_SAFE_INTEGER), '$90,071,992,547,409.91', '$90,071,992,547,409.91'],
    [m(1235, 'JPY'), '¥1,235', '¥1,235'],
    [m(0, 'JPY'), '¥0', '¥0'],
    [m(999999999999999, 'JPY'), '¥999,999,999,999,999', '¥999,999,999,999,999'],
    [m(123450, 'EUR'), '€1,234.50', '€1,234.50'],
    [m(123450, 'GBP'), '£1,234.50', '£1,234.50'],
    [m(123450, 'CAD'), 'CA$1,234.50', 'CA$1,234.50'],
    [m(1200, 'NOK'), 'NOK\u00a012.00', 'NOK\u00a012'],
    [m(123450, 'INR'), '₹1,234.50', '₹1,234.50'],
    [m(-100), '-$1.00', '-$1'],
  ])('%j → %s / %s', (money, full, trimmed) => {
    expect(formatMoney(money)).toBe(full);
    expect(formatMoneyTrimmed(money)).toBe(trimmed);
  });

  it('prints hand-made odd values instead of throwing', () => {
    expect(formatMoney(m(NaN))).toBe('$0.00');
    expect(formatMoney(m(12.6))).toBe('$0.13');
    expect(formatMoney({ minorUnits: 100, currency: 'XXX' as CurrencyCode })).toBe('XXX\u00a01.00');
  });

  it('matches en-US Intl output for every currency with two decimals (a frozen copy, not a runtime call)', () => {
    for (const currency of CURRENCY_CODES) {
      if (currency === 'JPY' || currency === 'COP' || currency === 'IDR') continue;
      const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(1234.5);
      expect(formatMoney(m(123450, currency))).toBe(intl);
    }
  });

  it('formatAmount has no symbol', () => {
    expect(formatAmount(m(123450))).toBe('1,234.50');
    expect(formatAmount(m(123400), true)).toBe('1,234');
  });
});

const currencyArb = fc.constantFrom(...CURRENCY_CODES);
const moneyArb = currencyArb.chain((currency) =>
  fc
    .integer({ min: 0, max: currency === 'JPY' ? 999_999_999_999_999 : Number.MAX_SAFE_INTEGER })
    .map((minorUnits) => m(minorUnits, currency)),
);

describe('money properties', () => {
  it('format then parse gives the same money back', () => {
    fc.assert(
      fc.property(moneyArb, (money) => {
        const decimalValue = formatAmount(money).replaceAll(',', '');
        expect(parseMoney({ decimalValue, currencyCode: money.currency })).toEqual({ ok: true, value: money });
        expect(parseMoney({ value: String(money.minorUnits), currency: money.currency })).toEqual({
          ok: true,
          value: money,
        });
      }),
    );
  });

  it('never accepts more than 15 integer places', () => {
    fc.assert(
      fc.property(
        currencyArb,
        fc.integer({ min: 16, max: 40 }),
        fc.integer({ min: 1, max: 9 }),
        (currency, places, lead) => {
          const decimalValue = `${lead}${'0'.repeat(places - 1)}`;
          const result = parseMoney({ decimalValue, currencyCode: currency });
          expect(result.ok ? null : result.error.code).toBe('too-large');
        },
      ),
    );
  });

  it('a parsed amount always has at most 15 integer places and is a safe integer', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,20}(\.\d{0,3})?$/), currencyArb, (decimalValue, currency) => {
        const result = parseMoney({ decimalValue, currencyCode: currency });
        if (!result.ok) return;
        expect(Number.isSafeInteger(result.value.minorUnits)).toBe(true);
        expect(
          formatAmount(result.value)
            .split('.')[0]!
            .replaceAll(',', '')
            .replace(/^0+(?=\d)/, '').length,
        ).toBeLessThanOrEqual(MAX_INTEGER_PLACES);
      }),
    );
  });

  it('trimmed format drops only an all-zero fraction', () => {
    fc.assert(
      fc.property(moneyArb, (money) => {
        const full = formatMoney(money);
        const trimmed = formatMoneyTrimmed(money);
        expect(full === trimmed || full === `${trimmed}.00`).toBe(true);
      }),
    );
  });
});

describe('arithmetic stays in integers', () => {
  it('adds and sums', () => {
    expect(addMoney(m(150), m(250))).toEqual({ ok: true, value: m(400) });
    expect(sumMoney([m(1), m(2), m(3)], 'USD')).toEqual({ ok: true, value: m(6) });
    expect(sumMoney([], 'EUR')).toEqual({ ok: true, value: m(0, 'EUR') });
    expect(addMoney(m(1), m(1, 'EUR'))).toEqual({
      ok: false,
      error: { code: 'currency-mismatch', message: 'Cannot add USD and EUR amounts.' },
    });
    expect(sumMoney([m(1), m(1, 'EUR'), m(1)], 'USD').ok).toBe(false);
    expect(addMoney(m(Number.MAX_SAFE_INTEGER), m(1)).ok).toBe(false);
  });

  it('multiplies a unit price by a quantity', () => {
    expect(multiplyMoney(m(1999), 3)).toEqual({ ok: true, value: m(5997) });
    expect(multiplyMoney(m(1999), 0)).toEqual({ ok: true, value: m(0) });
    expect(multiplyMoney(m(1999), 1.5)).toEqual({
      ok: false,
      error: { code: 'invalid-multiplier', message: 'Quantity 1.5 must be a whole number of 0 or more.' },
    });
    expect(multiplyMoney(m(1999), -1).ok).toBe(false);
    expect(multiplyMoney(m(Number.MAX_SAFE_INTEGER), 2).ok).toBe(false);
  });

  it('a product is either exact or refused', () => {
    fc.assert(
      fc.property(moneyArb, fc.integer({ min: 0, max: 9999 }), (price, quantity) => {
        const result = multiplyMoney(price, quantity);
        const exact = BigInt(price.minorUnits) * BigInt(quantity);
        if (result.ok) expect(BigInt(result.value.minorUnits)).toBe(exact);
        else expect(exact > BigInt(Number.MAX_SAFE_INTEGER) || price.currency === 'JPY').toBe(true);
      }),
    );
  });
});

describe('toTrackingValue (§7)', () => {
  it.each<[Money, number]>([
    [m(1999), 19.99],
    [m(100), 1],
    [m(0), 0],
    [m(1235, 'JPY'), 1235],
  ])('%j → %s', (money, value) => {
    expect(toTrackingValue(money)).toBe(value);
  });
});
