import { describe, expect, it } from 'vitest';
import { product, variant } from './commerceTestFixtures';
import { ProductType } from './enums';
import { inventoryStockResults, stockOfVariant } from './inventory';

describe('inventoryStockResults (§7 inventory call)', () => {
  it('answers each variant of a physical product with its own stock', () => {
    const mug = product({
      id: 'mug',
      variants: [
        variant({ sku: 'A', qtyInStock: 3 }),
        variant({ sku: 'B', qtyInStock: 0 }),
        variant({ sku: 'C', unlimited: true, qtyInStock: 0 }),
      ],
    });
    expect(inventoryStockResults(mug)).toEqual([
      { itemId: 'mug', variantId: 'A', unlimited: false, qtyInStock: 3 },
      { itemId: 'mug', variantId: 'B', unlimited: false, qtyInStock: 0 },
      { itemId: 'mug', variantId: 'C', unlimited: true, qtyInStock: 0 },
    ]);
  });

  it.each([
    ['digital', ProductType.DIGITAL],
    ['gift card', ProductType.GIFT_CARD],
    ['paywall', ProductType.PAYWALL],
  ])('counts a %s product as unlimited whatever its rows say', (_name, productType) => {
    const results = inventoryStockResults(product({ productType, variants: [variant({ sku: 'X', qtyInStock: 0 })] }));
    expect(results).toEqual([{ itemId: 'p1', variantId: 'X', unlimited: true, qtyInStock: 0 }]);
  });

  it('reads a negative, fractional or missing count as the whole units it holds, at least 0', () => {
    const results = inventoryStockResults(
      product({
        variants: [
          variant({ sku: 'N', qtyInStock: -2 }),
          variant({ sku: 'F', qtyInStock: 2.7 }),
          variant({ sku: 'M', qtyInStock: Number.NaN }),
        ],
      }),
    );
    expect(results.map((r) => r.qtyInStock)).toEqual([0, 2, 0]);
  });
});

describe('stockOfVariant (the add button reading the answer)', () => {
  const answer = {
    results: [
      { itemId: 'mug', variantId: 'A', unlimited: false, qtyInStock: 2 },
      { itemId: 'mug', variantId: 'B', unlimited: 'yes', qtyInStock: 2 },
      null,
      { itemId: 'bowl', variantId: 'A', unlimited: true, qtyInStock: 0 },
    ],
  };

  it('finds the variant of the product', () => {
    expect(stockOfVariant(answer, 'mug', 'A')).toEqual({ unlimited: false, qtyInStock: 2 });
    expect(stockOfVariant(answer, 'bowl', 'A')).toEqual({ unlimited: true, qtyInStock: 0 });
  });

  it('gives null for what the answer does not hold or cannot be read', () => {
    expect(stockOfVariant(answer, 'mug', 'Z')).toBeNull();
    expect(stockOfVariant(answer, 'mug', 'B')).toBeNull();
    expect(stockOfVariant({ results: 'x' }, 'mug', 'A')).toBeNull();
    expect(stockOfVariant(null, 'mug', 'A')).toBeNull();
    expect(stockOfVariant('text', 'mug', 'A')).toBeNull();
  });
});
