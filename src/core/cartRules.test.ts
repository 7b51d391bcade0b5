import { describe, expect, it } from 'vitest';
import { cartTotals, mergedLineQuantity, purchasePriceCents } from './cartRules';

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

describe('cartTotals', () => {
  it('is all zero and false for an empty cart', () => {
    expect(cartTotals([])).toEqual({
      subtotalCents: 0, taxCents: 0, shippingCostCents: 0, discountCents: 0, grandTotalCents: 0,
      totalQuantity: 0, hasDigital: false, purelyDigital: false, requiresShipping: false,
    });
  });

  it('sums lines and sets the delivery flags by product type', () => {
    const physical = { productType: 1, quantity: 2, subTotal: 5000 };
    const digital = { productType: 2, quantity: 1, subTotal: 999 };
    const gift = { productType: 4, quantity: 1, subTotal: 2500 };
    const service = { productType: 3, quantity: 1, subTotal: 100 };
    const removed = { productType: null, quantity: 1, subTotal: 10 };
    expect(cartTotals([physical, digital])).toMatchObject({
      subtotalCents: 5999, grandTotalCents: 5999, totalQuantity: 3, hasDigital: true, purelyDigital: false, requiresShipping: true,
    });
    expect(cartTotals([digital, gift])).toMatchObject({ hasDigital: true, purelyDigital: true, requiresShipping: false });
    expect(cartTotals([service])).toMatchObject({ hasDigital: false, purelyDigital: false, requiresShipping: false });
    expect(cartTotals([digital, removed])).toMatchObject({ purelyDigital: false, subtotalCents: 1009 });
  });
});
