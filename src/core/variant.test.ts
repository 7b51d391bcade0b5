import { describe, expect, it } from 'vitest';
import { product, variant } from './commerceTestFixtures';
import { ProductType } from './enums';
import { findVariantByAttributes, findVariantBySku, totalStock, unselectedOptions } from './variant';

const small = variant({ sku: 'S-RED', attributes: { Size: 'S', Colour: 'Red' } });
const large = variant({ sku: 'L-RED', attributes: { Size: 'L', Colour: 'Red' } });
const shirt = product({ variantOptions: ['Size', 'Colour'], variants: [small, large] });

describe('variant selection', () => {
  it('lists unselected options in product order', () => {
    expect(unselectedOptions(shirt, {})).toEqual(['Size', 'Colour']);
    expect(unselectedOptions(shirt, { Colour: 'Red', Size: ' ' })).toEqual(['Size']);
    expect(unselectedOptions(shirt, { Colour: 'Red', Size: 'S' })).toEqual([]);
  });

  it('finds by attributes, ignoring extra keys', () => {
    expect(findVariantByAttributes(shirt, { Size: 'L', Colour: 'Red', Other: 'x' })).toBe(large);
    expect(findVariantByAttributes(shirt, { Size: 'M', Colour: 'Red' })).toBeNull();
  });

  it('a product without options has its one variant', () => {
    const mug = product();
    expect(findVariantByAttributes(mug, {})).toBe(mug.variants[0]);
    expect(findVariantByAttributes(product({ variants: [] }), {})).toBeNull();
  });

  it('finds by sku', () => {
    expect(findVariantBySku(shirt, 'S-RED')).toBe(small);
    expect(findVariantBySku(shirt, 'nope')).toBeNull();
  });
});

describe('totalStock', () => {
  it.each<[string, ReturnType<typeof product>, number]>([
    ['sum of variants', product({ variants: [variant({ qtyInStock: 2 }), variant({ qtyInStock: 3 })] }), 5],
    ['unlimited variant', product({ variants: [variant({ qtyInStock: 0, unlimited: true })] }), Infinity],
    ['digital', product({ productType: ProductType.DIGITAL, variants: [variant({ qtyInStock: 0 })] }), Infinity],
    ['gift card', product({ productType: ProductType.GIFT_CARD, variants: [] }), Infinity],
    ['bad numbers ignored', product({ variants: [variant({ qtyInStock: -4 }), variant({ qtyInStock: NaN }), variant({ qtyInStock: 1.7 })] }), 1],
  ])('%s', (_, p, expected) => {
    expect(totalStock(p)).toBe(expected);
  });
});
