import { describe, expect, it } from 'vitest';
import { product, usd, variant } from './commerceTestFixtures';
import { ProductType } from './enums';
import {
  addToCartLabel,
  hasSeveralPrices,
  hasStock,
  isOnSale,
  isScarcityShown,
  isSoldOut,
  isVariantSoldOut,
  effectivePrice,
  priceRange,
  priceRangeText,
  productMark,
  productMarkKind,
  saleMark,
  scarcityNotice,
  scarcityText,
  variantPriceText,
  variantScarcityNotice,
  soldOutMark,
  type CoreVariant,
} from './product';

const none = variant({ qtyInStock: 0 });
const some = variant({ qtyInStock: 2 });
const unlimited = variant({ qtyInStock: 0, unlimited: true });

describe('isSoldOut (§4)', () => {
  it.each<[string, number, CoreVariant[], boolean]>([
    ['physical, no stock anywhere', ProductType.PHYSICAL, [none, none], true],
    ['physical, one variant in stock', ProductType.PHYSICAL, [none, some], false],
    ['physical, one variant unlimited', ProductType.PHYSICAL, [none, unlimited], false],
    ['physical, no variants', ProductType.PHYSICAL, [], true],
    ['service, no stock', ProductType.SERVICE, [none], true],
    ['service, stock', ProductType.SERVICE, [some], false],
    ['digital, never', ProductType.DIGITAL, [none], false],
    ['gift card, never', ProductType.GIFT_CARD, [none], false],
    ['paywall, never (sells access)', ProductType.PAYWALL, [none], false],
    ['unknown type', 99, [some], true],
    ['negative stock', ProductType.PHYSICAL, [variant({ qtyInStock: -3 })], true],
    ['NaN stock', ProductType.PHYSICAL, [variant({ qtyInStock: NaN })], true],
  ])('%s → %s', (_, productType, variants, expected) => {
    expect(isSoldOut(product({ productType, variants }))).toBe(expected);
  });

  it('hasStock reads fractions below one as none', () => {
    expect(hasStock({ unlimited: false, qtyInStock: 0.5 })).toBe(false);
    expect(hasStock({ unlimited: false, qtyInStock: 1 })).toBe(true);
  });
});

describe('isOnSale (§4)', () => {
  const onSale = variant({ onSale: true, salePrice: usd(800) });
  it.each<[string, number, CoreVariant[], boolean | undefined, boolean]>([
    ['physical, one variant on sale', ProductType.PHYSICAL, [variant(), onSale], undefined, true],
    ['physical, none on sale', ProductType.PHYSICAL, [variant()], undefined, false],
    ['service, on sale', ProductType.SERVICE, [onSale], undefined, true],
    ['digital uses its own flag (on)', ProductType.DIGITAL, [variant()], true, true],
    ['digital uses its own flag (off) even with a variant on sale', ProductType.DIGITAL, [onSale], false, false],
    ['digital without flag', ProductType.DIGITAL, [onSale], undefined, false],
    ['gift card never', ProductType.GIFT_CARD, [onSale], true, false],
  ])('%s → %s', (_, productType, variants, flag, expected) => {
    expect(isOnSale(product({ productType, variants, onSale: flag }))).toBe(expected);
  });
});

describe('hasSeveralPrices (§4)', () => {
  it.each<[string, CoreVariant[], boolean]>([
    ['no variants', [], false],
    ['one variant', [variant()], false],
    ['same price', [variant(), variant({ sku: 'B' })], false],
    ['different price', [variant(), variant({ price: usd(1200) })], true],
    ['different currency', [variant(), variant({ price: { minorUnits: 1000, currency: 'EUR' } })], true],
    ['different sale flag', [variant(), variant({ onSale: true, salePrice: usd(1000) })], true],
    [
      'different sale price, both on sale',
      [variant({ onSale: true, salePrice: usd(800) }), variant({ onSale: true, salePrice: usd(700) })],
      true,
    ],
    [
      'same sale price, both on sale',
      [variant({ onSale: true, salePrice: usd(800) }), variant({ onSale: true, salePrice: usd(800) })],
      false,
    ],
    ['sale price set but neither on sale', [variant({ salePrice: usd(800) }), variant({ salePrice: usd(700) })], false],
    [
      'on sale, one sale price missing',
      [variant({ onSale: true, salePrice: usd(800) }), variant({ onSale: true })],
      true,
    ],
  ])('%s → %s', (_, variants, expected) => {
    expect(hasSeveralPrices({ variants })).toBe(expected);
  });
});

describe('labels and marks', () => {
  it.each<[boolean, object, object | undefined, string]>([
    [false, {}, undefined, 'Add To Cart'],
    [true, {}, undefined, 'Subscribe'],
    [false, { addToCart: 'Buy now' }, undefined, 'Buy now'],
    [false, { addToCart: '   ' }, undefined, 'Add To Cart'],
    [true, { subscribe: 'Join' }, undefined, 'Join'],
    [
      true,
      { subscribe: 'Join' },
      { useCustomAddButtonText: true, customAddButtonText: 'Start monthly box' },
      'Start monthly box',
    ],
    [true, {}, { useCustomAddButtonText: false, customAddButtonText: 'Ignored' }, 'Subscribe'],
    [true, {}, { useCustomAddButtonText: true, customAddButtonText: '' }, 'Subscribe'],
    [true, { subscribe: null }, undefined, 'Subscribe'],
  ])('subscribable %s, settings %j, option %j → %s', (isSubscribable, settings, option, expected) => {
    expect(addToCartLabel({ isSubscribable }, settings, option)).toBe(expected);
  });

  it('marks', () => {
    expect(soldOutMark()).toBe('sold out');
    expect(soldOutMark({ customSoldOutText: 'Back soon' })).toBe('Back soon');
    expect(soldOutMark({ customSoldOutText: '' })).toBe('sold out');
    expect(saleMark()).toBe('sale');
    expect(saleMark('Deal')).toBe('Deal');
  });

  it('productMark prefers sold out over sale', () => {
    const saleVariant = variant({ onSale: true, qtyInStock: 0 });
    expect(productMark(product({ variants: [saleVariant] }))).toBe('sold out');
    expect(productMark(product({ variants: [saleVariant] }), { customSoldOutText: 'Gone' })).toBe('Gone');
    expect(productMark(product({ variants: [variant({ onSale: true })] }))).toBe('sale');
    expect(productMark(product())).toBeNull();
  });

  it('scarcity only when enabled and not sold out', () => {
    expect(isScarcityShown(product(), { scarcityEnabled: true })).toBe(true);
    expect(isScarcityShown(product(), { scarcityEnabled: false })).toBe(false);
    expect(isScarcityShown(product(), {})).toBe(false);
    expect(isScarcityShown(product({ variants: [none] }), { scarcityEnabled: true })).toBe(false);
  });
});

describe('productMark with the site labels (§4, §9)', () => {
  const soldOut = product({ variants: [variant({ onSale: true, qtyInStock: 0 })] });
  const onSale = product({ variants: [variant({ onSale: true, salePrice: usd(800) })] });
  const plain = product();
  it.each<[string, ReturnType<typeof product>, object, object, 'sold-out' | 'sale' | null, string | null]>([
    ['sold out, defaults', soldOut, {}, {}, 'sold-out', 'sold out'],
    ['sold out, site label', soldOut, {}, { soldOut: 'All gone' }, 'sold-out', 'All gone'],
    [
      'sold out, product text beats site label',
      soldOut,
      { customSoldOutText: 'Back in May' },
      { soldOut: 'All gone' },
      'sold-out',
      'Back in May',
    ],
    [
      'sold out, blank product text falls to site label',
      soldOut,
      { customSoldOutText: ' ' },
      { soldOut: 'All gone' },
      'sold-out',
      'All gone',
    ],
    ['sold out, blank site label', soldOut, {}, { soldOut: '' }, 'sold-out', 'sold out'],
    ['on sale, defaults', onSale, {}, {}, 'sale', 'sale'],
    ['on sale, site label', onSale, {}, { sale: 'Deal' }, 'sale', 'Deal'],
    ['on sale, blank site label', onSale, {}, { sale: '  ' }, 'sale', 'sale'],
    ['on sale, null site label', onSale, {}, { sale: null }, 'sale', 'sale'],
    ['neither', plain, {}, { sale: 'Deal', soldOut: 'All gone' }, null, null],
  ])('%s → %s "%s"', (_, p, context, labels, kind, text) => {
    expect(productMarkKind(p)).toBe(kind);
    expect(productMark(p, context, labels)).toBe(text);
  });
});

describe('scarcity text (§4)', () => {
  it.each<[string, string, number, number, string | null]>([
    ['below the threshold', 'Only {qty} left in stock', 2, 3, 'Only 2 left in stock'],
    ['at the threshold', 'Only {qty} left in stock', 3, 3, 'Only 3 left in stock'],
    ['above the threshold', 'Only {qty} left in stock', 4, 3, null],
    ['none in stock', 'Only {qty} left in stock', 0, 3, null],
    ['unlimited stock', 'Only {qty} left in stock', Infinity, 3, null],
    ['NaN stock', 'Only {qty} left in stock', NaN, 3, null],
    ['NaN threshold', 'Only {qty} left in stock', 1, NaN, null],
    ['several placeholders', '{qty} left: hurry, {qty}!', 1, 5, '1 left: hurry, 1!'],
    ['no placeholder', 'Almost gone', 1, 5, 'Almost gone'],
  ])('%s → %s', (_, template, stock, threshold, expected) => {
    expect(scarcityText(template, stock, threshold)).toBe(expected);
  });

  const settings = { enabled: true, shownByDefault: true, template: 'Only {qty} left in stock', threshold: 3 };
  it.each<[string, ReturnType<typeof product>, Partial<typeof settings>, string | null]>([
    [
      'enabled, low stock',
      product({ variants: [variant({ qtyInStock: 1 }), variant({ sku: 'B', qtyInStock: 1 })] }),
      {},
      'Only 2 left in stock',
    ],
    ['enabled, plenty', product({ variants: [variant({ qtyInStock: 9 })] }), {}, null],
    ['disabled', product({ variants: [variant({ qtyInStock: 1 })] }), { enabled: false }, null],
    ['not shown by default', product({ variants: [variant({ qtyInStock: 1 })] }), { shownByDefault: false }, null],
    ['sold out', product({ variants: [none] }), {}, null],
    ['unlimited', product({ variants: [unlimited] }), {}, null],
    ['digital', product({ productType: ProductType.DIGITAL, variants: [variant({ qtyInStock: 1 })] }), {}, null],
  ])('notice: %s → %s', (_, p, overrides, expected) => {
    expect(scarcityNotice(p, { ...settings, ...overrides })).toBe(expected);
  });

  // The demo's speckled mug: plenty in all, few of one colour, none of another.
  const oat = variant({ sku: 'OAT', attributes: { Color: 'Oatmeal' }, qtyInStock: 14 });
  const slate = variant({ sku: 'SLA', attributes: { Color: 'Slate' }, qtyInStock: 2 });
  const sage = variant({ sku: 'SAG', attributes: { Color: 'Sage' }, qtyInStock: 0 });
  const mug = product({ variantOptions: ['Color'], variants: [oat, slate, sage] });
  it.each<[string, ReturnType<typeof product>, CoreVariant | null, Partial<typeof settings>, string | null]>([
    ['no choice yet: the product as a whole', mug, null, {}, null],
    [
      'no choice yet, few in all',
      product({ variants: [variant({ qtyInStock: 1 })] }),
      null,
      {},
      'Only 1 left in stock',
    ],
    ['a variant with few units left', mug, slate, {}, 'Only 2 left in stock'],
    ['a variant with plenty', mug, oat, {}, null],
    ['a sold-out variant', mug, sage, {}, null],
    ['an unlimited variant', product({ variants: [oat, unlimited] }), unlimited, {}, null],
    ['disabled', mug, slate, { enabled: false }, null],
    ['not shown by default', mug, slate, { shownByDefault: false }, null],
    ['digital', product({ productType: ProductType.DIGITAL, variants: [slate] }), slate, {}, null],
  ])('as the shopper chooses: %s → %s', (_, p, chosen, overrides, expected) => {
    expect(variantScarcityNotice(p, chosen, { ...settings, ...overrides })).toBe(expected);
  });
});

describe('prices and ranges (§4)', () => {
  it.each<[string, CoreVariant, string, string | null]>([
    ['regular', variant({ price: usd(2400) }), '$24.00', null],
    ['on sale', variant({ price: usd(3400), onSale: true, salePrice: usd(2400) }), '$24.00', '$34.00'],
    ['sale price but not on sale', variant({ price: usd(3400), salePrice: usd(2400) }), '$34.00', null],
    ['on sale without sale price', variant({ price: usd(3400), onSale: true }), '$34.00', null],
  ])('%s → %s (was %s)', (_, v, current, original) => {
    expect(variantPriceText(v)).toEqual({ current, original });
    expect(effectivePrice(v)).toEqual(original ? v.salePrice : v.price);
  });

  it.each<[string, CoreVariant[], string | null]>([
    ['no variants', [], null],
    ['one variant', [variant({ price: usd(2400) })], '$24.00'],
    ['same prices', [variant({ price: usd(2400) }), variant({ sku: 'B', price: usd(2400) })], '$24.00'],
    ['a range', [variant({ price: usd(3400) }), variant({ sku: 'B', price: usd(2400) })], '$24.00 – $34.00'],
    [
      'sale prices count',
      [variant({ price: usd(3400) }), variant({ sku: 'B', price: usd(4000), onSale: true, salePrice: usd(2400) })],
      '$24.00 – $34.00',
    ],
    [
      'same amount on and off sale',
      [variant({ price: usd(2400) }), variant({ sku: 'B', price: usd(3000), onSale: true, salePrice: usd(2400) })],
      '$24.00',
    ],
  ])('%s → %s', (_, variants, expected) => {
    expect(priceRangeText({ variants })).toBe(expected);
  });

  it('priceRange gives the ends as money', () => {
    expect(priceRange({ variants: [variant({ price: usd(3400) }), variant({ price: usd(2400) })] })).toEqual({
      low: usd(2400),
      high: usd(3400),
    });
    expect(priceRange({ variants: [] })).toBeNull();
  });
});

describe('isVariantSoldOut (§4, chosen variant)', () => {
  it.each<[string, number, CoreVariant, boolean]>([
    ['physical, none left', ProductType.PHYSICAL, none, true],
    ['physical, some left', ProductType.PHYSICAL, some, false],
    ['physical, unlimited', ProductType.PHYSICAL, unlimited, false],
    ['physical, NaN stock', ProductType.PHYSICAL, variant({ qtyInStock: NaN }), true],
    ['service, none left', ProductType.SERVICE, none, true],
    ['digital never', ProductType.DIGITAL, none, false],
    ['gift card never', ProductType.GIFT_CARD, none, false],
  ])('%s → %s', (_, productType, v, expected) => {
    expect(isVariantSoldOut({ productType }, v)).toBe(expected);
  });
});
