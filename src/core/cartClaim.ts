/**
 * The page's cart claim (docs/api.md): a random value the browser's cart store sends with an add while no cart is
 * known, so that adds sent at once before any of them set the cart cookie make one cart, not one each.
 */

/** The request header that carries it (HTTP header names are case-insensitive; Node lowercases them). */
export const CART_CLAIM_HEADER = 'x-cart-claim';

/** A claim is 128 random bits, base64url (22 characters); anything else is no claim. */
export const isCartClaim = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);
