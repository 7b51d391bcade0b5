import { describe, expect, it } from 'vitest';
import { product, variant } from './commerceTestFixtures';
import { ProductType } from './enums';
import {
  findVariantByAttributes,
  findVariantBySku,
  preselectedOptions,
  totalStock,
  unselectedOptions,
  variantImageIndex,
} from './variant';

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

  it('starts a product page with each single-valued option chosen, the others left to the shopper', () => {
    expect(
      preselectedOptions([
        { name: 'Size', values: ['S', 'L'] },
        { name: 'Colour', values: ['Red'] },
        { name: 'Material', values: [] },
      ]),
    ).toEqual({ Colour: 'Red' });
    expect(preselectedOptions([])).toEqual({});
  });

  it('finds by sku', () => {
    expect(findVariantBySku(shirt, 'S-RED')).toBe(small);
    expect(findVariantBySku(shirt, 'nope')).toBeNull();
  });
});

describe('variantImageIndex', () => {
  const images: { file: string; attributes?: Record<string, string> }[] = [
    { file: 'oatmeal.jpg' },
    { file: 'slate.jpg', attributes: { Colour: 'Slate' } },
    { file: 'slate-large.jpg', attributes: { Colour: 'Slate', Size: 'L' } },
    { file: 'empty.jpg', attributes: {} },
  ];
  it.each<[string, Record<string, string | undefined>, number]>([
    ['nothing chosen: no variant image', {}, -1],
    ['an image naming the chosen value', { Colour: 'Slate' }, 1],
    ['the first that matches wins', { Colour: 'Slate', Size: 'L' }, 1],
    ['a value without its own image', { Colour: 'Red', Size: 'L' }, -1],
  ])('%s', (_, selected, expected) => {
    expect(variantImageIndex(images, selected)).toBe(expected);
  });

  it('an image naming two options shows once both are chosen', () => {
    const large = [images[0]!, images[2]!];
    expect(variantImageIndex(large, { Colour: 'Slate' })).toBe(-1);
    expect(variantImageIndex(large, { Colour: 'Slate', Size: 'L' })).toBe(1);
  });
});

describe('totalStock', () => {
  it.each<[string, ReturnType<typeof product>, number]>([
    ['sum of variants', product({ variants: [variant({ qtyInStock: 2 }), variant({ qtyInStock: 3 })] }), 5],
    ['unlimited variant', product({ variants: [variant({ qtyInStock: 0, unlimited: true })] }), Infinity],
    ['digital', product({ productType: ProductType.DIGITAL, variants: [variant({ qtyInStock: 0 })] }), Infinity],
    ['gift card', product({ productType: ProductType.GIFT_CARD, variants: [] }), Infinity],
    [
      'bad numbers ignored',
      product({ variants: [variant({ qtyInStock: -4 }), variant({ qtyInStock: NaN }), variant({ qtyInStock: 1.7 })] }),
      1,
    ],
  ])('%s', (_, p, expected) => {
    expect(totalStock(p)).toBe(expected);
  });
});
