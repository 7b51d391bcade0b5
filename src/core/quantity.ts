import { ProductType } from './enums';
import type { CoreProduct } from './product';
import { err, ok, type Result } from './result';
import { totalStock } from './variant';

/** §5 and §9: the quantity input. */
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 9999;
export const QUANTITY_STEP = 1;
export const QUANTITY_INITIAL = 1;

export const QUANTITY_MESSAGES = {
  notANumber: 'Quantity must be a number.',
  notAWholeNumber: 'Quantity must be a whole number',
  // The spec gives the range but no text for it; this one names the range so the shopper can fix it.
  outOfRange: `Quantity must be between ${QUANTITY_MIN} and ${QUANTITY_MAX}.`,
} as const;

export type QuantityErrorCode = 'not-a-number' | 'not-a-whole-number' | 'out-of-range';
export interface QuantityError {
  code: QuantityErrorCode;
  message: string;
}

// Plain decimals only: '1e3', '0x10' or '١٢' are not what a shopper types into a quantity box.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** Reads the quantity field (a string from the form or a number from JSON) into a whole number 1..9999. */
export function parseQuantity(input: unknown): Result<number, QuantityError> {
  let value: number;
  if (typeof input === 'number') {
    value = input;
  } else if (typeof input === 'string' && DECIMAL.test(input.trim())) {
    value = Number(input.trim());
  } else {
    value = NaN;
  }
  if (!Number.isFinite(value)) return err({ code: 'not-a-number', message: QUANTITY_MESSAGES.notANumber });
  if (!Number.isInteger(value)) return err({ code: 'not-a-whole-number', message: QUANTITY_MESSAGES.notAWholeNumber });
  if (value < QUANTITY_MIN || value > QUANTITY_MAX) {
    return err({ code: 'out-of-range', message: QUANTITY_MESSAGES.outOfRange });
  }
  return ok(value);
}

export interface QuantityInputSettings {
  /** Store setting, default true (§3). */
  multipleQuantityAllowedForServices?: boolean;
}

/**
 * §5: shown for physical products (and services when the store allows several), never for subscriptions, and only
 * when more than one unit can be bought in total.
 */
export function isQuantityInputShown(
  product: Pick<CoreProduct, 'productType' | 'isSubscribable' | 'variants'>,
  settings: QuantityInputSettings = {},
): boolean {
  if (product.isSubscribable) return false;
  const typeAllows =
    product.productType === ProductType.PHYSICAL ||
    (product.productType === ProductType.SERVICE && settings.multipleQuantityAllowedForServices !== false);
  return typeAllows && totalStock(product) > 1;
}
