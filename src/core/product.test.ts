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
  productMark,
  saleMark,
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
    ['on sale, one sale price missing', [variant({ onSale: true, salePrice: usd(800) }), variant({ onSale: true })], true],
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
    [true, { subscribe: 'Join' }, { useCustomAddButtonText: true, customAddButtonText: 'Start monthly box' }, 'Start monthly box'],
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
