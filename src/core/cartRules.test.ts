import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cartTotals, checkLineQuantityChange, mergedLineQuantity, purchasePriceCents } from './cartRules';

const usd = (minorUnits: number) => ({ minorUnits, currency: 'USD' as const });

describe('purchasePriceCents', () => {
  it('is the sale price while on sale, else the price', () => {
    expect(purchasePriceCents({ price: usd(2500), salePrice: usd(1999), onSale: true })).toBe(1999);
    expect(purchasePriceCents({ price: usd(2500), salePrice: usd(1999), onSale: false })).toBe(2500);
    expect(purchasePriceCents({ price: usd(2500), salePrice: null, onSale: true })).toBe(2500);
  });
});

describe('mergedLineQuantity', () => {
  it('adds up to 9999 and refuses beyond, with the quantity range text', () => {
    expect(mergedLineQuantity(0, 3)).toEqual({ ok: true, value: 3 });
    expect(mergedLineQuantity(9998, 1)).toEqual({ ok: true, value: 9999 });
    expect(mergedLineQuantity(9999, 1)).toEqual({
      ok: false,
      error: { type: 'QUANTITY_NOT_A_NUMBER', message: 'Quantity must be between 1 and 9999.' },
    });
    expect(mergedLineQuantity(Number.MAX_SAFE_INTEGER, 1).ok).toBe(false);
  });
});

describe('checkLineQuantityChange', () => {
  const physical = 1;
  const digital = 2;
  const stock = (qtyInStock: number, unlimited = false) => ({ qtyInStock, unlimited });
  const change = (quantityInput: unknown, extra: Partial<Parameters<typeof checkLineQuantityChange>[0]> = {}) =>
    checkLineQuantityChange({
      productType: physical,
      stock: stock(5),
      quantityInLine: 2,
      quantityInOtherLines: 0,
      quantityInput,
      ...extra,
    });
  const outOfStock = {
    ok: false,
    error: { type: 'OUT_OF_STOCK', message: 'Sorry, we do not have enough of that item available.' },
  };

  it.each([
    ['raise within stock', 5, {}, { ok: true, value: 5 }],
    ['raise within stock, as text', ' 4 ', {}, { ok: true, value: 4 }],
    ['raise past stock', 6, {}, outOfStock],
    ['raise past stock counting the other lines of the sku', 4, { quantityInOtherLines: 2 }, outOfStock],
    ['lower', 1, {}, { ok: true, value: 1 }],
    ['keep', 2, {}, { ok: true, value: 2 }],
    ['lower below a stock that has fallen', 1, { stock: stock(0) }, { ok: true, value: 1 }],
    ['lower when the item is gone', 1, { productType: undefined, stock: undefined }, { ok: true, value: 1 }],
    ['raise when the item is gone', 3, { productType: undefined, stock: undefined }, outOfStock],
    ['raise when the variant is gone', 3, { stock: undefined }, outOfStock],
    ['raise an unlimited variant', 9999, { stock: stock(0, true) }, { ok: true, value: 9999 }],
    [
      'raise a digital product (unlimited by type)',
      50,
      { productType: digital, stock: stock(0) },
      { ok: true, value: 50 },
    ],
    ['raise an unknown product type', 3, { productType: 42 }, outOfStock],
    [
      '0',
      0,
      {},
      { ok: false, error: { type: 'QUANTITY_NOT_A_NUMBER', message: 'Quantity must be between 1 and 9999.' } },
    ],
    [
      '10000',
      10000,
      { stock: stock(0, true) },
      { ok: false, error: { type: 'QUANTITY_NOT_A_NUMBER', message: 'Quantity must be between 1 and 9999.' } },
    ],
    ['text', 'two', {}, { ok: false, error: { type: 'QUANTITY_NOT_A_NUMBER', message: 'Quantity must be a number.' } }],
    [
      'a fraction',
      1.5,
      {},
      { ok: false, error: { type: 'QUANTITY_NOT_A_NUMBER', message: 'Quantity must be a whole number' } },
    ],
    ['null', null, {}, { ok: false, error: { type: 'QUANTITY_NOT_A_NUMBER', message: 'Quantity must be a number.' } }],
  ])('%s', (_name, input, extra, expected) => {
    expect(change(input, extra)).toEqual(expected);
  });

  it('never lets the cart hold more of a limited sku than the stock, unless the shopper is lowering', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: -5, max: 60 }),
        (qtyInStock, quantityInLine, quantityInOtherLines, wanted) => {
          const result = change(wanted, { stock: stock(qtyInStock), quantityInLine, quantityInOtherLines });
          if (!result.ok) return;
          expect(result.value).toBeGreaterThanOrEqual(1);
          if (result.value > quantityInLine)
            expect(result.value + quantityInOtherLines).toBeLessThanOrEqual(qtyInStock);
        },
      ),
    );
  });
});

describe('cartTotals', () => {
  it('is all zero and false for an empty cart', () => {
    expect(cartTotals([])).toEqual({
      subtotalCents: 0,
      taxCents: 0,
      shippingCostCents: 0,
      discountCents: 0,
      grandTotalCents: 0,
      totalQuantity: 0,
      hasDigital: false,
      purelyDigital: false,
      requiresShipping: false,
    });
  });

  it('sums lines and sets the delivery flags by product type', () => {
    const physical = { productType: 1, quantity: 2, subTotal: 5000 };
    const digital = { productType: 2, quantity: 1, subTotal: 999 };
    const gift = { productType: 4, quantity: 1, subTotal: 2500 };
    const service = { productType: 3, quantity: 1, subTotal: 100 };
    const removed = { productType: null, quantity: 1, subTotal: 10 };
    expect(cartTotals([physical, digital])).toMatchObject({
      subtotalCents: 5999,
      grandTotalCents: 5999,
      totalQuantity: 3,
      hasDigital: true,
      purelyDigital: false,
      requiresShipping: true,
    });
    expect(cartTotals([digital, gift])).toMatchObject({
      hasDigital: true,
      purelyDigital: true,
      requiresShipping: false,
    });
    expect(cartTotals([service])).toMatchObject({ hasDigital: false, purelyDigital: false, requiresShipping: false });
    expect(cartTotals([digital, removed])).toMatchObject({ purelyDigital: false, subtotalCents: 1009 });
  });
});
