/** Numeric enumerations of spec §2 and §3. */

export const ProductType = {
  PHYSICAL: 1,
  DIGITAL: 2,
  SERVICE: 3,
  GIFT_CARD: 4,
  PAYWALL: 5,
} as const;
export type ProductType = (typeof ProductType)[keyof typeof ProductType];
export const PRODUCT_TYPES: readonly ProductType[] = Object.values(ProductType);
export const isProductType = (value: unknown): value is ProductType =>
  typeof value === 'number' && (PRODUCT_TYPES as readonly number[]).includes(value);
