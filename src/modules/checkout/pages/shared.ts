/** What the checkout's pages share: the shop's address, and a stale cart cookie dropped. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_CURRENCY, parseCurrencyCode, type CurrencyCode } from '../../../core/currency';
import { secureCookiesFor, type AppContext } from '../../../platform/http/appContext';
import * as catalog from '../../catalog';
import { CART_COOKIE, clearCartCookies, HAS_CART_COOKIE } from '../../cart';
import type { Site } from '../../site';

/** The first products collection (the shop), where 'Continue shopping' leads; the home page without one. */
export const shopPath = async (ctx: AppContext, site: Site): Promise<string> => {
  const shop = (await catalog.listCollections(ctx.db, site.id)).find((c) => c.type === 'products');
  return shop ? `/${shop.slug}` : '/';
};

/** A cookie that names no open cart (bought, expired, another site's) is dropped, as the cart call does. */
export function forgetStaleCart(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  cartId: string | null,
): void {
  if (
    cartId === null &&
    (request.cookies[CART_COOKIE] !== undefined || request.cookies[HAS_CART_COOKIE] !== undefined)
  ) {
    clearCartCookies(reply, secureCookiesFor(ctx, request));
  }
}

export const currencyOf = (site: Site): CurrencyCode => parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
