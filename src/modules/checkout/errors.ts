/** A refused checkout as the HTTP layer's one error shape (src/platform/http/errors.ts). */
import type { CheckoutFailure } from '../orders';
import { ApiError, type ErrorCode } from '../../platform/http/errors';

const FAILURE_CODES: Record<CheckoutFailure['type'], ErrorCode> = {
  EMPTY_CART: 'checkout-refused',
  BELOW_MINIMUM: 'checkout-refused',
  INVALID_DETAILS: 'checkout-refused',
  INVALID_COUPON: 'checkout-refused',
  INVALID_GIFT_CARD: 'checkout-refused',
  OUT_OF_STOCK: 'out-of-stock',
  CART_CHANGED: 'checkout-conflict',
  IN_PROGRESS: 'checkout-in-progress',
  IDEMPOTENCY_MISMATCH: 'idempotency-mismatch',
  PAYMENT_DECLINED: 'payment-declined',
  PAYMENT_FAILED: 'payment-failed',
};

/** A refused checkout as the one error shape: the message, each field's message and the sold-out lines. */
export function checkoutError(failure: CheckoutFailure): ApiError {
  return new ApiError(FAILURE_CODES[failure.type], failure.message, {
    ...(failure.fields ? { fields: failure.fields as Record<string, string> } : {}),
    ...(failure.lines ? { lines: failure.lines } : {}),
  });
}
