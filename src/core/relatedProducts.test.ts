import { describe, expect, it } from 'vitest';
import { product, variant } from './commerceTestFixtures';
import { ProductType } from './enums';
import {
  ADD_ONS_MAX,
  RELATED_PRODUCTS_DEFAULT_COUNT,
  RELATED_PRODUCTS_MAX,
  addOnButtonName,
  addOnChooseName,
  chooseAddOns,
  chooseRelatedProducts,
  isAddOnAddable,
} from './relatedProducts';

const inStock = (id: string) => product({ id, name: id });
const soldOut = (id: string) => product({ id, name: id, variants: [variant({ qtyInStock: 0 })] });
const ids = (list: readonly { id: string }[]) => list.map((p) => p.id);

describe('chooseRelatedProducts: none named', () => {
  const collection = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(inStock);

  it('takes the 4 products after the product, in the collection’s order', () => {
    expect(ids(chooseRelatedProducts({ productId: 'b', candidates: collection }))).toEqual(['c', 'd', 'e', 'f']);
    expect(RELATED_PRODUCTS_DEFAULT_COUNT).toBe(4);
  });

  it('wraps around to the collection’s first products', () => {
    expect(ids(chooseRelatedProducts({ productId: 'f', candidates: collection }))).toEqual(['g', 'a', 'b', 'c']);
    expect(ids(chooseRelatedProducts({ productId: 'g', candidates: collection }))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('skips sold-out products and looks further', () => {
    const list = [inStock('a'), inStock('b'), soldOut('c'), soldOut('d'), inStock('e'), inStock('f'), inStock('g')];
    expect(ids(chooseRelatedProducts({ productId: 'a', candidates: list }))).toEqual(['b', 'e', 'f', 'g']);
  });

  it('digital products and gift cards never sell out, so they stay', () => {
    const list = [
      inStock('a'),
      product({ id: 'guide', productType: ProductType.DIGITAL, variants: [variant({ qtyInStock: 0 })] }),
      soldOut('c'),
    ];
    expect(ids(chooseRelatedProducts({ productId: 'a', candidates: list }))).toEqual(['guide']);
  });

  it('shows fewer (or none) when the collection has no more in stock; never the product itself', () => {
    expect(ids(chooseRelatedProducts({ productId: 'a', candidates: [inStock('a'), inStock('b')] }))).toEqual(['b']);
    expect(chooseRelatedProducts({ productId: 'a', candidates: [inStock('a')] })).toEqual([]);
    expect(chooseRelatedProducts({ productId: 'a', candidates: [inStock('a'), soldOut('b')] })).toEqual([]);
  });

  it('reads the loader’s overlapping windows (a small collection read twice) without repeats', () => {
    // The first products of the collection, then the product and the ones after it: c, d appear twice.
    const windows = ['a', 'b', 'c', 'd', 'b', 'c', 'd'].map(inStock);
    expect(ids(chooseRelatedProducts({ productId: 'b', candidates: windows }))).toEqual(['c', 'd', 'a']);
  });

  it('starts from the first candidate when the product is not among them', () => {
    expect(ids(chooseRelatedProducts({ productId: 'x', candidates: collection }))).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('chooseRelatedProducts: named', () => {
  it('keeps the order named, whatever order the products were read in, without the product, repeats or unknown ids', () => {
    const read = ['d', 'a', 'c', 'b'].map(inStock);
    expect(
      ids(chooseRelatedProducts({ productId: 'a', named: ['c', 'a', 'zz', 'b', 'c', 'd'], candidates: read })),
    ).toEqual(['c', 'b', 'd']);
  });

  it('leaves out sold-out ones and shows up to RELATED_PRODUCTS_MAX', () => {
    const read = [soldOut('s'), ...Array.from({ length: 10 }, (_, i) => inStock(`p${i}`))];
    const named = ['s', ...read.map((p) => p.id).slice(1)];
    expect(ids(chooseRelatedProducts({ productId: 'x', named, candidates: read }))).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
      'p6',
      'p7',
    ]);
    expect(RELATED_PRODUCTS_MAX).toBe(8);
  });

  it('an empty list names none: the page shows no related products', () => {
    expect(chooseRelatedProducts({ productId: 'a', named: [], candidates: [inStock('b')] })).toEqual([]);
  });
});

describe('chooseAddOns', () => {
  it('keeps the order named, leaving out unknown, sold-out and repeated products and the product itself', () => {
    const read = [inStock('scoop'), soldOut('filters'), inStock('beans')];
    expect(ids(chooseAddOns('dripper', ['beans', 'dripper', 'filters', 'nope', 'scoop', 'beans'], read))).toEqual([
      'beans',
      'scoop',
    ]);
  });

  it('shows at most ADD_ONS_MAX', () => {
    const read = Array.from({ length: 9 }, (_, i) => inStock(`a${i}`));
    expect(chooseAddOns('x', ids(read), read)).toHaveLength(ADD_ONS_MAX);
    expect(ADD_ONS_MAX).toBe(6);
  });
});

describe('isAddOnAddable', () => {
  it('adds at once only a single-variant product with nothing to choose or fill in', () => {
    expect(isAddOnAddable(product(), false)).toBe(true);
    expect(isAddOnAddable(product({ productType: ProductType.DIGITAL }), false)).toBe(true);
    expect(isAddOnAddable(product(), true)).toBe(false);
    expect(
      isAddOnAddable(product({ variantOptions: ['Size'], variants: [variant({ attributes: { Size: 'S' } })] }), false),
    ).toBe(false);
    expect(isAddOnAddable(product({ isSubscribable: true }), false)).toBe(false);
    expect(isAddOnAddable(product({ productType: ProductType.GIFT_CARD }), false)).toBe(false);
    expect(isAddOnAddable(product({ variants: [variant({ sku: 'a' }), variant({ sku: 'b' })] }), false)).toBe(false);
  });

  it('names its button (or its Choose link) after the product', () => {
    expect(addOnButtonName('Walnut Coffee Scoop')).toBe('Add Walnut Coffee Scoop');
    expect(addOnChooseName('Ethiopia Yirgacheffe')).toBe('Choose Ethiopia Yirgacheffe');
  });
});
