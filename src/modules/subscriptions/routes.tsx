/**
 * Subscriptions (spec §2, §7):
 *   POST /api/3/commerce/cart/subscription   the subscription cart → { cartToken } (errors: { message, type, … })
 *   GET  /checkout/subscribe?cartToken=…     the subscription checkout (a form that works without JavaScript)
 *   POST /checkout/subscribe?cartToken=…     the form: intent=quote shows new totals; intent=place subscribes (303 to
 *                                            the first period's order page) or shows the form again with its messages
 *   GET  /subscriptions/cancel/{token}       the cancel link of every subscription e-mail: a confirm form
 *   POST /subscriptions/cancel/{token}       cancels
 * The pages (the subscription checkout, the cancel link's) and their form posts are per-visitor page kinds:
 * ./pages/index.tsx.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { writeRouteConfig } from '../../platform/http/rateLimits';
import { parseInput } from '../../platform/http/validation';
import { readSubscriptionCheckout } from './placement';
import { createSubscriptionCart, type SubscriptionCartFailure } from './subscriptionCart';
import {
  subscriptionCartBody,
  subscriptionCartRoute,
  subscriptionQuoteBody,
  subscriptionQuoteRoute,
} from './routes.schema';
import { SUBSCRIPTION_QUOTE_API } from '../../ui/checkout/paths';

export const SUBSCRIPTION_CART_API = '/api/3/commerce/cart/subscription';

export async function registerSubscriptionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { rateLimitPerMinute: number },
): Promise<void> {
  const config = writeRouteConfig(options.rateLimitPerMinute);
  app.post(SUBSCRIPTION_CART_API, { config, schema: subscriptionCartRoute }, async (request, reply) => {
    const body = parseInput(subscriptionCartBody, request.body, 'body');
    const site = await siteOf(request);
    const result = await createSubscriptionCart(ctx.db, site, {
      itemId: body.itemId,
      sku: body.sku,
      qty: body.qty,
      additionalFields: body.additionalFields,
      ...(body.subscriptionOptionId ? { subscriptionOptionId: body.subscriptionOptionId } : {}),
    });
    reply.header('cache-control', 'no-store');
    if (!result.ok) throw subscriptionCartError(result.error);
    return { cartToken: result.value.cartToken };
  });

  // The subscription checkout's live totals (its island; docs/api.md): the quote of the token's subscription cart.
  app.post(SUBSCRIPTION_QUOTE_API, { config, schema: subscriptionQuoteRoute }, async (request, reply) => {
    const { cartToken, ...choices } = parseInput(subscriptionQuoteBody, request.body ?? {}, 'body');
    const site = await siteOf(request);
    reply.header('cache-control', 'no-store');
    const checkout = await readSubscriptionCheckout(ctx.db, site, cartToken, choices);
    if (!checkout)
      throw new ApiError('subscription-cart-not-found', 'This subscription link has already been used or has expired.');
    return checkout.quote;
  });
}

function subscriptionCartError(failure: SubscriptionCartFailure): ApiError {
  switch (failure.type) {
    case 'PRODUCT_NOT_FOUND':
      return new ApiError('product-not-found', failure.message, { field: 'itemId', type: 'SUB_API_FAILURE' });
    case 'NOT_SUBSCRIBABLE':
    case 'UNAVAILABLE':
      return new ApiError('add-to-cart-refused', failure.message, { field: 'itemId', type: 'SUB_API_FAILURE' });
    case 'OPTION_NOT_FOUND':
      return new ApiError('add-to-cart-refused', failure.message, {
        field: 'subscriptionOptionId',
        type: 'SUB_API_FAILURE',
      });
    case 'INVALID_FORM_ANSWERS':
      return new ApiError('invalid-form-answers', failure.message, {
        field: 'additionalFields',
        fields: failure.fields,
        type: 'SUB_WITH_FORM_FAILURE',
      });
    default:
      return ApiError.fromAddToCart(failure);
  }
}
