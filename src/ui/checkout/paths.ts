/** The checkout's addresses, shared by the server's pages and the browser's checkout island. */

/** The checkout page (page type 201): GET shows the form, POST takes it (no JavaScript needed). */
export const CHECKOUT_PATH = '/checkout';
/** The quote call: the cart's totals for the choices made so far (src/modules/checkout/routes.ts). */
export const CHECKOUT_QUOTE_API = '/api/commerce/checkout/quote';
/** Placing the order from the island (201 `{ order, orderUrl }`, or the error shape with `fields` and `lines`). */
export const CHECKOUT_ORDERS_API = '/api/commerce/checkout/orders';
/** The subscription checkout's quote call: `{ cartToken, …choices }` → the quote of that subscription cart. */
export const SUBSCRIPTION_QUOTE_API = '/api/commerce/checkout/subscription-quote';
