import { ProductType } from './enums';
import type { CoreProduct, CoreVariant } from './product';

/** Builders for core tests; not part of the storefront API. */
export const usd = (minorUnits: number) => ({ minorUnits, currency: 'USD' as const });

export const variant = (overrides: Partial<CoreVariant> = {}): CoreVariant => ({
  sku: 'SKU-1',
  attributes: {},
  price: usd(1000),
  salePrice: null,
  onSale: false,
  qtyInStock: 5,
  unlimited: false,
  ...overrides,
});

export const product = (overrides: Partial<CoreProduct> = {}): CoreProduct => ({
  id: 'p1',
  name: 'Mug',
  productType: ProductType.PHYSICAL,
  isSubscribable: false,
  variantOptions: [],
  variants: [variant()],
  ...overrides,
});
