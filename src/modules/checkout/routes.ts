/**
 * The checkout calls (not in §7, which shows no checkout; see docs/api.md): the quote for the shopper's choices, and
 * placing the order. Thin: validate, one service call, map the result. The checkout pages (HTML, the no-JavaScript
 * form) are in ./pages/ (per-visitor page kinds) and call the same services.
 */
import type { FastifyInstance } from 'fastify';
import { placeOrder, quoteCheckout } from './checkout';
import { mailLinkOrigin, ownerLinkOrigin, secureCookiesFor, type AppContext } from '../../platform/http/appContext';
import { writeRouteConfig } from '../../platform/http/rateLimits';
import { siteOf } from '../site';
import { parseInput } from '../../platform/http/validation';
import { cartToken, clearCartCookies } from '../cart';
import { orderPath, orderUrlFor } from './paths';
import { checkoutError } from './errors';
import { checkoutChoicesBody, placeOrderBody, placeOrderRoute, quoteRoute } from './routes.schema';

export function registerCheckoutRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { rateLimitPerMinute: number },
): void {
  // Its own budget per 10 s, and a share of the client's across cart and checkout routes (../rateLimits).
  const config = writeRouteConfig(options.rateLimitPerMinute);

  app.post('/api/commerce/checkout/quote', { config, schema: quoteRoute }, async (request, reply) => {
    const body = parseInput(checkoutChoicesBody, request.body ?? {}, 'body');
    const site = await siteOf(request);
    reply.header('cache-control', 'no-store');
    return quoteCheckout(ctx.db, site, cartToken(request), body);
  });

  app.post('/api/commerce/checkout/orders', { config, schema: placeOrderRoute }, async (request, reply) => {
    const body = parseInput(placeOrderBody, request.body, 'body');
    const site = await siteOf(request);
    const result = await placeOrder(ctx.db, site, cartToken(request), body, {
      payments: ctx.paymentsFor(site),
      orderUrl: orderUrlFor(mailLinkOrigin(ctx, site, request)),
      adminOrigin: ownerLinkOrigin(ctx, site),
    });
    reply.header('cache-control', 'no-store');
    if (!result.ok) throw checkoutError(result.error);
    // The cart is bought: the browser forgets it, so the pill disappears and the next add starts a new cart.
    clearCartCookies(reply, secureCookiesFor(ctx, request));
    const { order } = result.value;
    return reply.code(201).send({ order: { id: order.id, number: order.number }, orderUrl: orderPath(order.id) });
  });
}
