/**
 * The cart calls of spec §7. Each handler validates, calls one service function, maps the result.
 * The cart is named by the HttpOnly cookie CART (a random 128-bit token); the readable cookie hasCart=true tells
 * the browser at page start that there is a cart to load (§4).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CART_CLAIM_HEADER } from '../../core/cartClaim';
import {
  addEntry,
  ENTRY_NOT_FOUND_MESSAGE,
  getCart,
  isCartToken,
  removeEntry,
  updateAdditionalFields,
  updateEntryQuantity,
  type CartFailure,
  type CartSite,
} from './cart';
import { OPEN_CART_LIFETIME_MS } from './cartExpiry';
import { secureCookiesFor, type AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { writeRouteConfig } from '../../platform/http/rateLimits';
import { siteOf } from '../site';
import { parseInput } from '../../platform/http/validation';
import {
  addEntryBody,
  addEntryRoute,
  getCartRoute,
  removeEntryRoute,
  updateAdditionalFieldsRoute,
  updateQuantityRoute,
  entryParams,
  getCartQuery,
  updateAdditionalFieldsBody,
  updateAdditionalFieldsParams,
  updateQuantityBody,
} from './routes.schema';
import { CART_COOKIE, HAS_CART_COOKIE, cartToken, clearCartCookies } from './cookies';

/** A cart outlives a browsing session: 30 days since the last add; the cart itself expires then (cartExpiry.ts). */
const CART_COOKIE_MAX_AGE_S = OPEN_CART_LIFETIME_MS / 1000;

export interface CartRouteOptions {
  /** Requests per minute per client IP on each cart route (default 600), counted per 10 s (../rateLimits). */
  rateLimitPerMinute: number;
}

export function registerCartRoutes(app: FastifyInstance, ctx: AppContext, options: CartRouteOptions): void {
  // Its own budget per 10 s, and a share of the client's across cart and checkout routes (../rateLimits).
  const config = writeRouteConfig(options.rateLimitPerMinute);

  app.get('/api/commerce/shopping-cart', { config, schema: getCartRoute }, async (request, reply) => {
    parseInput(getCartQuery, request.query, 'query');
    const site = await cartSite(request);
    const cart = await getCart(ctx.db, site, cartToken(request));
    // A cookie that names no open cart (purchased, removed, another site's) is dropped, so the browser stops
    // loading a cart at page start (§4) until the next add.
    if (
      cart.id === null &&
      (request.cookies[CART_COOKIE] !== undefined || request.cookies[HAS_CART_COOKIE] !== undefined)
    ) {
      clearCartCookies(reply, secureCookiesFor(ctx, request));
    }
    noStore(reply);
    return cart;
  });

  app.post('/api/commerce/shopping-cart/entries', { config, schema: addEntryRoute }, async (request, reply) => {
    const body = parseInput(addEntryBody, request.body, 'body');
    const site = await cartSite(request);
    const result = await addEntry(
      ctx.db,
      site,
      cartToken(request),
      { itemId: body.itemId, sku: body.sku, quantity: body.quantity, additionalFields: body.additionalFields },
      cartClaim(request),
    );
    if (!result.ok) throw toApiError(result.error);
    setCartCookies(reply, result.value.token, secureCookiesFor(ctx, request));
    noStore(reply);
    return { shoppingCart: result.value.shoppingCart, newlyAdded: result.value.newlyAdded };
  });

  const fields = { config, schema: updateAdditionalFieldsRoute };
  app.put('/api/commerce/shopping-cart/entries/:entryId/additionalFields', fields, async (request, reply) => {
    const { entryId } = parseInput(updateAdditionalFieldsParams, request.params, 'params');
    const body = parseInput(updateAdditionalFieldsBody, request.body, 'body');
    const site = await cartSite(request);
    const result = await updateAdditionalFields(ctx.db, site, cartToken(request), entryId, body.additionalFields);
    if (!result.ok) throw toApiError(result.error);
    noStore(reply);
    return result.value;
  });

  // The cart page's controls (not in §7, which shows no cart page; see docs/api.md).
  const quantity = { config, schema: updateQuantityRoute };
  app.put('/api/commerce/shopping-cart/entries/:entryId/quantity', quantity, async (request, reply) => {
    const { entryId } = parseInput(entryParams, request.params, 'params');
    const body = parseInput(updateQuantityBody, request.body, 'body');
    const site = await cartSite(request);
    const result = await updateEntryQuantity(ctx.db, site, cartToken(request), entryId, body.quantity);
    if (!result.ok) throw toApiError(result.error);
    noStore(reply);
    return result.value;
  });

  app.delete(
    '/api/commerce/shopping-cart/entries/:entryId',
    { config, schema: removeEntryRoute },
    async (request, reply) => {
      const { entryId } = parseInput(entryParams, request.params, 'params');
      const site = await cartSite(request);
      const result = await removeEntry(ctx.db, site, cartToken(request), entryId);
      if (!result.ok) throw toApiError(result.error);
      noStore(reply);
      return result.value;
    },
  );
}

async function cartSite(request: FastifyRequest): Promise<CartSite> {
  const site = await siteOf(request);
  return { id: site.id, currency: site.currency };
}

/** The cart cookie's value; anything that is not a token we issued is treated as no cart by the service. */

/** The X-Cart-Claim header's value; anything but one claim of the right shape is treated as none by the service. */
const cartClaim = (request: FastifyRequest): string | undefined => {
  const value = request.headers[CART_CLAIM_HEADER];
  return typeof value === 'string' ? value : undefined;
};

const cartCookieOptions = (secure: boolean) => ({
  path: '/',
  sameSite: 'lax' as const,
  secure,
  maxAge: CART_COOKIE_MAX_AGE_S,
});

/**
 * The two Set-Cookie lines of an add, as @fastify/cookie writes them (cookie.serialize), made once per `secure` value:
 * every add sets the same two cookies with the same options and only the token changes, and serializing them anew
 * took 2–3 % of an add's time (issue 13). A token we issue is base64url: nothing in it to encode; anything else
 * (never issued) goes through @fastify/cookie as before.
 */
interface CartCookieLines {
  /** `CART=` + token + this. */
  cartCookieAfterToken: string;
  hasCartCookie: string;
}
const cartCookieLines = new Map<boolean, CartCookieLines>();

function cartCookieLinesFor(reply: FastifyReply, secure: boolean): CartCookieLines {
  let lines = cartCookieLines.get(secure);
  if (lines === undefined) {
    const sampleToken = 'A'.repeat(22);
    const serialize = reply.server.serializeCookie;
    lines = {
      cartCookieAfterToken: serialize(CART_COOKIE, sampleToken, { ...cartCookieOptions(secure), httpOnly: true }).slice(
        `${CART_COOKIE}=${sampleToken}`.length,
      ),
      hasCartCookie: serialize(HAS_CART_COOKIE, 'true', { ...cartCookieOptions(secure), httpOnly: false }),
    };
    cartCookieLines.set(secure, lines);
  }
  return lines;
}

/** The cart cookies after an add (also the no-JavaScript add: ./addToCartForm.tsx). */
export function setCartCookies(reply: FastifyReply, token: string, secure: boolean): void {
  if (!isCartToken(token)) {
    reply.setCookie(CART_COOKIE, token, { ...cartCookieOptions(secure), httpOnly: true });
    reply.setCookie(HAS_CART_COOKIE, 'true', { ...cartCookieOptions(secure), httpOnly: false });
    return;
  }
  const lines = cartCookieLinesFor(reply, secure);
  reply.header('set-cookie', [`${CART_COOKIE}=${token}${lines.cartCookieAfterToken}`, lines.hasCartCookie]);
}

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

function toApiError(failure: CartFailure): ApiError {
  switch (failure.type) {
    case 'PRODUCT_NOT_FOUND':
      return new ApiError('product-not-found', 'Sorry, that item is no longer available.', { field: 'itemId' });
    case 'GIFT_CARD_NOT_IN_CART':
      return new ApiError('add-to-cart-refused', failure.message, { field: 'itemId' });
    case 'ENTRY_NOT_FOUND':
      return new ApiError('entry-not-found', ENTRY_NOT_FOUND_MESSAGE, { field: 'entryId' });
    case 'INVALID_FORM_ANSWERS':
      return new ApiError('invalid-form-answers', failure.message, {
        field: 'additionalFields',
        fields: failure.fields,
      });
    default:
      return ApiError.fromAddToCart(failure);
  }
}
