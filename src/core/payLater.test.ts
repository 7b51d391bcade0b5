import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { product, usd, variant } from './commerceTestFixtures';
import { ProductType } from './enums';
import type { Money } from './money';
import {
  instalments,
  isPayLaterContext,
  payLaterBadgeText,
  payLaterContext,
  payLaterInfoLanguage,
  isCartPayLaterEligible,
  isInPayLaterRange,
  isPayLaterSupported,
  isProductPayLaterEligible,
  productPageOffersPayLater,
  PAY_LATER_INSTALMENTS,
  payLaterBadge,
  payLaterBrand,
  payLaterRangeText,
  type PayLaterContext,
} from './payLater';

describe('eligibility (§5)', () => {
  it.each<[number, boolean, boolean]>([
    [ProductType.PHYSICAL, false, true],
    [ProductType.PHYSICAL, true, false],
    [ProductType.DIGITAL, false, false],
    [ProductType.SERVICE, false, false],
    [ProductType.GIFT_CARD, false, false],
  ])('product type %s subscribable %s → %s', (productType, isSubscribable, expected) => {
    expect(isProductPayLaterEligible({ productType, isSubscribable })).toBe(expected);
  });

  it('a product page offers instalments only for an eligible product with something in stock', () => {
    const physical = { productType: ProductType.PHYSICAL, isSubscribable: false };
    expect(
      productPageOffersPayLater(
        product({ ...physical, variants: [variant({ qtyInStock: 0 }), variant({ sku: 'B', qtyInStock: 2 })] }),
      ),
    ).toBe(true);
    expect(
      productPageOffersPayLater(
        product({ ...physical, variants: [variant({ qtyInStock: 0 }), variant({ sku: 'B', qtyInStock: 0 })] }),
      ),
    ).toBe(false);
    expect(
      productPageOffersPayLater(product({ ...physical, variants: [variant({ qtyInStock: 0, unlimited: true })] })),
    ).toBe(true);
    expect(
      productPageOffersPayLater(
        product({ productType: ProductType.DIGITAL, isSubscribable: false, variants: [variant({ qtyInStock: 5 })] }),
      ),
    ).toBe(false);
  });

  it('carts qualify only when every item is physical', () => {
    expect(isCartPayLaterEligible([{ productType: 1 }, { productType: 1 }])).toBe(true);
    expect(isCartPayLaterEligible([{ productType: 1 }, { productType: 2 }])).toBe(false);
    expect(isCartPayLaterEligible([])).toBe(false);
  });

  it.each<[number, boolean]>([
    [3500, false],
    [3501, true],
    [200000, true],
    [200001, false],
  ])('range (35.00, 2000.00]: %s → %s', (price, expected) => {
    expect(isInPayLaterRange(usd(price), usd(3500), usd(200000))).toBe(expected);
  });

  it('limits in another currency never match', () => {
    expect(isInPayLaterRange(usd(5000), { minorUnits: 0, currency: 'EUR' }, usd(900000))).toBe(false);
    expect(payLaterRangeText(usd(5000), { minorUnits: 0, currency: 'EUR' }, usd(900000))).toBeNull();
  });
});

describe('texts and locale (§9)', () => {
  it.each<[number, string | null]>([
    [1000, 'available for orders over $35.00'],
    [3500, 'available for orders over $35.00'],
    [5000, null],
    [300000, 'available for orders up to $2,000.00'],
  ])('price %s → %s', (price, expected) => {
    expect(payLaterRangeText(usd(price), usd(3500), usd(200000))).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ['US', 'en', true],
    ['CA', 'en', true],
    ['CA', 'fr', true],
    ['CA', 'fr-CA', true],
    ['AU', 'en', true],
    ['NZ', 'en', true],
    ['GB', 'en-GB', true],
    ['gb', 'EN', true],
    ['US', 'es', false],
    ['AU', 'fr', false],
    ['DE', 'de', false],
    ['FR', 'en', false],
  ])('%s %s supported → %s', (country, language, expected) => {
    expect(isPayLaterSupported(country, language)).toBe(expected);
  });

  it.each<[string, string | undefined, string]>([
    ['en-US', undefined, 'Afterpay'],
    ['en', 'US', 'Afterpay'],
    ['en-GB', undefined, 'Clearpay'],
    ['en_gb', undefined, 'Clearpay'],
    ['en', 'GB', 'Clearpay'],
    ['en-AU', 'GB', 'Afterpay'],
    ['fr-CA', 'CA', 'Afterpay'],
  ])('brand for %s / %s → %s', (language, country, expected) => {
    expect(payLaterBrand(language, country)).toBe(expected);
  });
});

describe('instalments', () => {
  it.each<[number, number[]]>([
    [10000, [2500, 2500, 2500, 2500]],
    [1001, [250, 250, 250, 251]],
    [1003, [250, 250, 250, 253]],
    [3, [0, 0, 0, 3]],
  ])('%s → %j', (price, parts) => {
    expect(instalments(usd(price)).map((m) => m.minorUnits)).toEqual(parts);
  });

  it('defaults to 4 and falls back to 4 on a bad count', () => {
    expect(PAY_LATER_INSTALMENTS).toBe(4);
    expect(instalments(usd(100), 0)).toHaveLength(4);
    expect(instalments(usd(100), 2).map((m) => m.minorUnits)).toEqual([50, 50]);
  });

  it('always adds up to the price, in whole minor units', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 1, max: 12 }),
        (price, count) => {
          const parts = instalments(usd(price), count);
          expect(parts).toHaveLength(count);
          expect(parts.reduce((sum: bigint, m: Money) => sum + BigInt(m.minorUnits), 0n)).toBe(BigInt(price));
          for (const m of parts) expect(Number.isSafeInteger(m.minorUnits) && m.minorUnits >= 0).toBe(true);
        },
      ),
    );
  });
});

describe('payLaterBadge', () => {
  const context: PayLaterContext = {
    afterPayAvailable: true,
    afterPayMin: usd(100),
    afterPayMax: usd(100000),
    shopperLanguage: 'en-US',
    stripeAccountCountry: 'US',
  };
  const mug = { productType: ProductType.PHYSICAL, isSubscribable: false };

  it('shows instalments in range', () => {
    expect(payLaterBadge(mug, usd(4001), context)).toEqual({
      inRange: true,
      brand: 'Afterpay',
      instalment: usd(1000),
      instalmentCount: 4,
    });
  });

  it('shows the range text out of range', () => {
    expect(payLaterBadge(mug, usd(50), { ...context, shopperLanguage: 'en', stripeAccountCountry: 'GB' })).toEqual({
      inRange: false,
      brand: 'Clearpay',
      text: 'available for orders over $1.00',
    });
  });

  it.each<[string, Partial<PayLaterContext>, object]>([
    ['not available', { afterPayAvailable: false }, mug],
    ['subscription', {}, { ...mug, isSubscribable: true }],
    ['unsupported locale', { shopperLanguage: 'de' }, mug],
    ['limits in another currency', { afterPayMin: { minorUnits: 0, currency: 'EUR' } }, mug],
  ])('hidden: %s', (_, overrides, item) => {
    expect(payLaterBadge(item as typeof mug, usd(4000), { ...context, ...overrides })).toBeNull();
  });
});

describe('payLaterContext, payLaterBadgeText, isPayLaterContext', () => {
  const settings = { enabled: true, min: 3500, max: 200_000, accountCountry: 'US' };
  it('builds the §3 context from the store settings', () => {
    expect(payLaterContext(settings, 'USD', 'en-US')).toEqual({
      afterPayAvailable: true,
      afterPayMin: { minorUnits: 3500, currency: 'USD' },
      afterPayMax: { minorUnits: 200_000, currency: 'USD' },
      shopperLanguage: 'en-US',
      stripeAccountCountry: 'US',
    });
  });
  it('words the badge in range and out of range', () => {
    const context = payLaterContext(settings, 'USD', 'en-US');
    const product = { productType: 1, isSubscribable: false };
    expect(payLaterBadgeText(payLaterBadge(product, { minorUnits: 5000, currency: 'USD' }, context)!)).toBe(
      'or 4 interest-free payments of $12.50 with Afterpay',
    );
    expect(payLaterBadgeText(payLaterBadge(product, { minorUnits: 3000, currency: 'USD' }, context)!)).toBe(
      'Afterpay available for orders over $35.00',
    );
    expect(
      payLaterBadgeText(
        payLaterBadge(
          product,
          { minorUnits: 300_000, currency: 'USD' },
          { ...context, shopperLanguage: 'en-GB', stripeAccountCountry: 'GB' },
        )!,
      ),
    ).toBe('Clearpay available for orders up to $2,000.00');
  });
  it('tells a usable context from junk', () => {
    expect(isPayLaterContext(payLaterContext(settings, 'USD', 'en'))).toBe(true);
    for (const junk of [
      null,
      'x',
      {},
      { ...payLaterContext(settings, 'USD', 'en'), afterPayMin: { minorUnits: -1, currency: 'USD' } },
      { ...payLaterContext(settings, 'USD', 'en'), shopperLanguage: 3 },
    ]) {
      expect(isPayLaterContext(junk)).toBe(false);
    }
  });
  it('shows the popup in French to French speakers, else in English', () => {
    expect(payLaterInfoLanguage('fr-CA')).toBe('fr');
    expect(payLaterInfoLanguage('en-CA')).toBe('en');
    expect(payLaterInfoLanguage('de')).toBe('en');
  });
});
