import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { product, variant } from './commerceTestFixtures';
import { ProductType } from './enums';
import {
  isQuantityInputShown,
  parseQuantity,
  QUANTITY_INITIAL,
  QUANTITY_MAX,
  QUANTITY_MIN,
  QUANTITY_STEP,
} from './quantity';

describe('quantity constants (§5, §9)', () => {
  it('are 1..9999 step 1 from 1', () => {
    expect([QUANTITY_MIN, QUANTITY_MAX, QUANTITY_STEP, QUANTITY_INITIAL]).toEqual([1, 9999, 1, 1]);
  });
});

describe('parseQuantity', () => {
  it.each<[unknown, number]>([
    ['1', 1],
    [' 3 ', 3],
    ['+4', 4],
    ['3.0', 3],
    ['9999', 9999],
    [7, 7],
    [2.0, 2],
  ])('%j → %s', (input, expected) => {
    expect(parseQuantity(input)).toEqual({ ok: true, value: expected });
  });

  it.each<[unknown, string, string]>([
    ['', 'not-a-number', 'Quantity must be a number.'],
    ['abc', 'not-a-number', 'Quantity must be a number.'],
    ['1e3', 'not-a-number', 'Quantity must be a number.'],
    ['0x10', 'not-a-number', 'Quantity must be a number.'],
    ['1,000', 'not-a-number', 'Quantity must be a number.'],
    [NaN, 'not-a-number', 'Quantity must be a number.'],
    [Infinity, 'not-a-number', 'Quantity must be a number.'],
    [null, 'not-a-number', 'Quantity must be a number.'],
    [undefined, 'not-a-number', 'Quantity must be a number.'],
    [{}, 'not-a-number', 'Quantity must be a number.'],
    ['2.5', 'not-a-whole-number', 'Quantity must be a whole number'],
    [0.5, 'not-a-whole-number', 'Quantity must be a whole number'],
    ['0', 'out-of-range', 'Quantity must be between 1 and 9999.'],
    ['-2', 'out-of-range', 'Quantity must be between 1 and 9999.'],
    ['-0', 'out-of-range', 'Quantity must be between 1 and 9999.'],
    [10000, 'out-of-range', 'Quantity must be between 1 and 9999.'],
    ['99999999999999999999', 'out-of-range', 'Quantity must be between 1 and 9999.'],
  ])('%j → %s', (input, code, message) => {
    expect(parseQuantity(input)).toEqual({ ok: false, error: { code, message } });
  });

  it('never throws and accepts exactly the integers 1..9999', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.double(), fc.integer()), (input) => {
        const result = parseQuantity(input);
        if (result.ok) {
          expect(Number.isInteger(result.value)).toBe(true);
          expect(result.value).toBeGreaterThanOrEqual(1);
          expect(result.value).toBeLessThanOrEqual(9999);
        }
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), (n) => {
        expect(parseQuantity(String(n))).toEqual({ ok: true, value: n });
        expect(parseQuantity(n)).toEqual({ ok: true, value: n });
      }),
    );
  });
});

describe('isQuantityInputShown (§5)', () => {
  const stock = (qtyInStock: number, unlimited = false) => [variant({ qtyInStock, unlimited })];
  it.each<[string, Parameters<typeof product>[0], boolean | undefined, boolean]>([
    ['physical, stock 2', { variants: stock(2) }, undefined, true],
    ['physical, stock 1', { variants: stock(1) }, undefined, false],
    ['physical, stock split 1 + 1', { variants: [...stock(1), ...stock(1)] }, undefined, true],
    ['physical, unlimited', { variants: stock(0, true) }, undefined, true],
    ['physical subscription', { variants: stock(50), isSubscribable: true }, undefined, false],
    ['service, allowed by default', { productType: ProductType.SERVICE, variants: stock(5) }, undefined, true],
    ['service, store forbids', { productType: ProductType.SERVICE, variants: stock(5) }, false, false],
    ['digital (unlimited, but not a physical type)', { productType: ProductType.DIGITAL }, undefined, false],
    ['gift card', { productType: ProductType.GIFT_CARD }, undefined, false],
  ])('%s → %s', (_, overrides, multipleQuantityAllowedForServices, expected) => {
    expect(isQuantityInputShown(product(overrides), { multipleQuantityAllowedForServices })).toBe(expected);
  });
});
