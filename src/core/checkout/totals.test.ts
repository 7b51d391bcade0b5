import { describe, expect, it } from 'vitest';
import type { TaxRateRule } from './tax';
import { checkoutTotals, type CheckoutTotalsInput } from './totals';

const vat: TaxRateRule = { country: 'GB', rate: 20, name: 'VAT' };
const nySalesTax: TaxRateRule = { country: 'US', region: 'NY', rate: 8.875, name: 'Sales tax' };
const standard = { id: 'standard', name: 'Standard', amount: 500 };

const input = (overrides: Partial<CheckoutTotalsInput>): CheckoutTotalsInput => ({
  subtotalCents: 10_000,
  discountCents: 0,
  shipping: null,
  taxRate: undefined,
  pricesIncludeTax: false,
  taxShipping: false,
  ...overrides,
});

describe('checkoutTotals: prices without tax (tax added)', () => {
  it('no tax, no shipping, no discount', () => {
    expect(checkoutTotals(input({}))).toEqual({
      subtotalCents: 10_000,
      shippingCents: 0,
      taxCents: 0,
      discountCents: 0,
      grandTotalCents: 10_000,
      taxName: 'Tax',
      pricesIncludeTax: false,
    });
  });

  it('grand = subtotal − discount + shipping + tax; tax on the discounted subtotal', () => {
    expect(
      checkoutTotals(input({ subtotalCents: 1500, discountCents: 500, shipping: standard, taxRate: nySalesTax })),
    ).toEqual({
      subtotalCents: 1500,
      shippingCents: 500,
      taxCents: 89, // 8.875 % of 1000 = 88.75
      discountCents: 500,
      grandTotalCents: 1500 - 500 + 500 + 89,
      taxName: 'Sales tax',
      pricesIncludeTax: false,
    });
  });

  it('taxes shipping when taxShipping is set', () => {
    const totals = checkoutTotals(input({ subtotalCents: 1000, shipping: standard, taxRate: vat, taxShipping: true }));
    expect(totals).toMatchObject({ taxCents: 300, grandTotalCents: 1800 });
    const untaxed = checkoutTotals(
      input({ subtotalCents: 1000, shipping: standard, taxRate: vat, taxShipping: false }),
    );
    expect(untaxed).toMatchObject({ taxCents: 200, grandTotalCents: 1700 });
  });

  it('free shipping is 0', () => {
    expect(
      checkoutTotals(input({ shipping: { ...standard, amount: 0 }, taxRate: vat, taxShipping: true })),
    ).toMatchObject({
      shippingCents: 0,
      taxCents: 2000,
      grandTotalCents: 12_000,
    });
  });
});

describe('checkoutTotals: prices with tax (tax contained)', () => {
  it('grand = subtotal − discount + shipping; the tax is the part of it that is tax', () => {
    expect(checkoutTotals(input({ subtotalCents: 1200, taxRate: vat, pricesIncludeTax: true }))).toEqual({
      subtotalCents: 1200,
      shippingCents: 0,
      taxCents: 200,
      discountCents: 0,
      grandTotalCents: 1200,
      taxName: 'VAT',
      pricesIncludeTax: true,
    });
  });

  it('with discount and taxed shipping', () => {
    const totals = checkoutTotals(
      input({
        subtotalCents: 1500,
        discountCents: 300,
        shipping: { ...standard, amount: 600 },
        taxRate: vat,
        pricesIncludeTax: true,
        taxShipping: true,
      }),
    );
    expect(totals).toMatchObject({ taxCents: 300, grandTotalCents: 1800 }); // 1800 × 20/120
  });

  it('with untaxed shipping only the goods carry tax', () => {
    const totals = checkoutTotals(
      input({ subtotalCents: 1200, shipping: standard, taxRate: vat, pricesIncludeTax: true }),
    );
    expect(totals).toMatchObject({ taxCents: 200, grandTotalCents: 1700 });
  });
});

describe('checkoutTotals: never negative, bad input counts as 0', () => {
  it('caps the discount at the subtotal', () => {
    expect(
      checkoutTotals(input({ subtotalCents: 1000, discountCents: 5000, shipping: standard, taxRate: vat })),
    ).toMatchObject({
      discountCents: 1000,
      taxCents: 0,
      grandTotalCents: 500,
    });
  });

  it.each<[string, Partial<CheckoutTotalsInput>]>([
    ['negative subtotal', { subtotalCents: -100 }],
    ['NaN subtotal', { subtotalCents: Number.NaN }],
    ['string subtotal', { subtotalCents: '1000' as unknown as number }],
    ['fractional subtotal', { subtotalCents: 10.5 }],
  ])('%s', (_name, overrides) => {
    expect(checkoutTotals(input({ discountCents: 100, taxRate: vat, ...overrides }))).toMatchObject({
      subtotalCents: 0,
      discountCents: 0,
      taxCents: 0,
      grandTotalCents: 0,
    });
  });

  it('a bad discount or shipping amount is 0', () => {
    expect(checkoutTotals(input({ discountCents: -500, shipping: { ...standard, amount: -1 } }))).toMatchObject({
      discountCents: 0,
      shippingCents: 0,
      grandTotalCents: 10_000,
    });
  });

  it('a rate that is not usable adds no tax but keeps its name', () => {
    expect(checkoutTotals(input({ taxRate: { ...vat, rate: -20 } }))).toMatchObject({
      taxCents: 0,
      grandTotalCents: 10_000,
      taxName: 'VAT',
    });
  });

  it('an unnamed rate is shown as Tax', () => {
    expect(checkoutTotals(input({ taxRate: { ...vat, name: '' } })).taxName).toBe('Tax');
  });

  it('reads only true as true for the tax switches', () => {
    const notBooleans = { pricesIncludeTax: 'yes' as unknown as boolean, taxShipping: 1 as unknown as boolean };
    const totals = checkoutTotals(input({ subtotalCents: 1200, shipping: standard, taxRate: vat, ...notBooleans }));
    expect(totals).toMatchObject({ pricesIncludeTax: false, taxCents: 240, grandTotalCents: 1940 });
  });
});
