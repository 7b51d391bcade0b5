/**
 * Checkout: quotes and orders placed from a cart (payment, stock, gift cards, coupons), and the checkout pages.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { checkoutChoicesBody, checkoutQuoteAnswer, idempotencyKey, placeOrderBody } from './routes.schema';
export { CHECKOUT_MESSAGES, placeOrder, quoteCheckout, type CheckoutContext } from './checkout';
export { checkoutPages } from './pages';
export { checkoutError } from './errors';
export { ORDER_PATH_PREFIX, orderPath, orderUrlFor } from './paths';
