/**
 * The cart's cookies (§4): CART names the cart (HttpOnly, a random 128-bit token); the readable hasCart=true tells the
 * browser at page start that there is a cart to load. Read and cleared here; set by ./routes.ts on an add.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CART_COOKIE = 'CART';
export const HAS_CART_COOKIE = 'hasCart';

/** The request's cart token (not yet checked). */
export const cartToken = (request: FastifyRequest): string | undefined => request.cookies[CART_COOKIE];

const clearCartCookieOptions = (secure: boolean) => {
  const common = { path: '/', sameSite: 'lax' as const, secure };
  return { cart: { ...common, httpOnly: true }, hasCart: common };
};

/**
 * The two Set-Cookie lines that clear the cart cookies, as @fastify/cookie's clearCookie writes them (its options with
 * an expiry in 1970 and Max-Age 0), made once per `secure` value: they never change, and clearing the cookies through
 * @fastify/cookie (its onSend hook serializing them) took about 2 % of a placed order's time (issue 13).
 */
const clearCookieLines = new Map<boolean, readonly [string, string]>();

function clearCookieLinesFor(reply: FastifyReply, secure: boolean): readonly [string, string] {
  let lines = clearCookieLines.get(secure);
  if (lines === undefined) {
    const serialize = reply.server.serializeCookie;
    const cleared = { expires: new Date(0), maxAge: 0 };
    const options = clearCartCookieOptions(secure);
    lines = [
      serialize(CART_COOKIE, '', { ...options.cart, ...cleared }),
      serialize(HAS_CART_COOKIE, '', { ...options.hasCart, ...cleared }),
    ];
    clearCookieLines.set(secure, lines);
  }
  return lines;
}

/** Drops the cart cookies: after an order, or when they name no open cart. */
export function clearCartCookies(reply: FastifyReply, secure: boolean): void {
  const [cartLine, hasCartLine] = clearCookieLinesFor(reply, secure);
  // A new array each time: Fastify keeps the one given as the header's value and adds later cookies to it.
  reply.header('set-cookie', [cartLine, hasCartLine]);
}
