/**
 * Subscriptions (spec §2, §7):
 *   POST /api/3/commerce/cart/subscription   the subscription cart → { cartToken } (errors: { message, type, … })
 *   GET  /checkout/subscribe?cartToken=…     the subscription checkout (a form that works without JavaScript)
 *   POST /checkout/subscribe?cartToken=…     the form: intent=quote shows new totals; intent=place subscribes (303 to
 *                                            the first period's order page) or shows the form again with its messages
 *   GET  /subscriptions/cancel/{token}       the cancel link of every subscription e-mail: a confirm form
 *   POST /subscriptions/cancel/{token}       cancels
 * Pages are made for one visitor (`Cache-Control: no-store`) and their addresses are secrets (no Referer to other
 * sites: `Referrer-Policy: same-origin`).
 */
import { randomBytes } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countryName } from '../../core/checkout/address';
import { totalChangedMessage, totalChangedSinceShown, totalsFinal } from '../../core/checkout/shownTotal';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { PageType } from '../../core/enums';
import { ROUTES } from '../../core/purchaseRoute';
import { billingDateText } from '../../core/subscriptionSchedule';
import { CLIENT_DIST_DIR, readCheckoutAssets, readClientAssets, type ClientAssets } from '../../render/manifest';
import { PageRenderer, type VisitorPage } from '../../render/renderPath';
import type { SiteImages } from '../../ui/ResponsiveImage';
import * as catalog from '../catalog';
import type { CheckoutFailure } from '../orders';
import type { Site } from '../site';
import { cancelPath, CANCEL_PATH_PREFIX, subscriptionOfToken } from './links';
import { placeSubscription, readSubscriptionCheckout } from './placement';
import { cancelSubscription, getSubscription } from './store';
import { createSubscriptionCart, type SubscriptionCartFailure } from './subscriptionCart';
import {
  checkoutChoices,
  emptyCheckoutValues,
  paymentInput,
  readCheckoutValues,
  withoutCardSecrets,
  type CheckoutErrors,
  type CheckoutValues,
} from '../../ui/checkout/formValues';
import { CancelConfirmPage, CancelDonePage } from '../../ui/subscription/CancelPages';
import { SubscriptionCartGone, SubscriptionCheckoutPage } from '../../ui/subscription/SubscriptionCheckoutPage';
import { mailLinkOrigin, type AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { writeRouteConfig } from '../../platform/http/rateLimits';
import { parseInput } from '../../platform/http/validation';
import { checkoutError, orderPath } from '../checkout';
import { checkoutChoicesBody, placeOrderBody } from '../checkout';
import {
  subscriptionCartBody,
  subscriptionCartRoute,
  subscriptionQuoteBody,
  subscriptionQuoteRoute,
} from './routes.schema';
import { SUBSCRIPTION_QUOTE_API } from '../../ui/checkout/paths';
import { z } from 'zod';
import { describeRoute, formBody, htmlAnswer, pageRoute, redirectAnswer } from '../../platform/http/apiDescription';

export const SUBSCRIPTION_CART_API = '/api/3/commerce/cart/subscription';

export async function registerSubscriptionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { rateLimitPerMinute: number },
): Promise<void> {
  const config = writeRouteConfig(options.rateLimitPerMinute);
  const renderer = new PageRenderer(
    ctx.db,
    readClientAssets(ctx.clientDir ?? CLIENT_DIST_DIR, (message) => app.log.debug(message)),
  );

  // The subscription checkout brings the checkout's own bundle (its form is an island of it).
  const checkoutAssets = readCheckoutAssets(ctx.clientDir ?? CLIENT_DIST_DIR, (message) => app.log.debug(message));

  const sendPage = async (reply: FastifyReply, site: Site, page: VisitorPage, assets?: ClientAssets) => {
    const rendered = await renderer.renderVisitorPage(site, page, assets);
    return reply
      .code(rendered.status)
      .header('cache-control', 'private, no-store')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(rendered.html);
  };

  const shopPath = async (site: Site): Promise<string> => {
    const shop = (await catalog.listCollections(ctx.db, site.id)).find((c) => c.type === 'products');
    return shop ? `/${shop.slug}` : '/';
  };

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

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);
    // After the app's own headers. Not 'no-referrer': a form posted from a no-referrer page carries `Origin: null`,
    // which the crumb check refuses as cross-site; 'same-origin' keeps the secret address from other sites all the same.
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('referrer-policy', 'same-origin');
      return payload;
    });

    const renderCheckout = async (
      request: FastifyRequest,
      reply: FastifyReply,
      site: Site,
      token: string | undefined,
      state: { values: CheckoutValues; errors?: CheckoutErrors; alert?: string | null },
      status = 200,
    ) => {
      const checkout = await readSubscriptionCheckout(ctx.db, site, token, checkoutChoices(state.values));
      const sizesOf = (images: SiteImages) => {
        const files = Object.values(checkout?.quote.lineImages ?? {}).flatMap((image) => (image ? [image.file] : []));
        return Object.fromEntries(
          files.flatMap((file) => {
            const size = images.sizes?.get(file);
            return size ? [[file, size]] : [];
          }),
        );
      };
      const shop = await shopPath(site);
      const provider = ctx.paymentsFor(site);
      const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
      const crumb = pageCrumb(request, reply, ctx);
      return sendPage(
        reply,
        site,
        {
          path: ROUTES.subscriptionCheckout,
          pageType: PageType.CHECKOUT,
          title: state.alert ? 'Error: Subscribe' : 'Subscribe',
          description: `Subscribe at ${site.title}.`,
          status: checkout ? status : 404,
          body: (images) =>
            checkout ? (
              <SubscriptionCheckoutPage
                productName={checkout.productName}
                form={{
                  action: `${ROUTES.subscriptionCheckout}?cartToken=${encodeURIComponent(token ?? '')}`,
                  cartToken: token ?? '',
                  currency,
                  siteId: site.id,
                  images: {
                    ...(images.version !== undefined ? { version: images.version } : {}),
                    sizes: sizesOf(images),
                  },
                  quote: checkout.quote,
                  planText: checkout.planText,
                  values: withoutCardSecrets(state.values),
                  errors: state.errors ?? {},
                  alert: state.alert ?? null,
                  idempotencyKey: randomBytes(16).toString('base64url'),
                  crumb,
                  shipsTo: site.settings.store.checkout.shipsTo.map((code) => ({
                    code,
                    name: countryName(code) ?? code,
                  })),
                  payment: { provider: provider.name, notice: provider.notice },
                }}
              />
            ) : (
              <SubscriptionCartGone shopPath={shop} />
            ),
        },
        checkout ? checkoutAssets : undefined,
      );
    };

    scope.get(ROUTES.subscriptionCheckout, { schema: subscriptionPageRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const values = { ...emptyCheckoutValues(), country: site.settings.store.checkout.shipsTo[0] ?? '' };
      return renderCheckout(request, reply, site, tokenOf(request), { values });
    });

    scope.post(ROUTES.subscriptionCheckout, { config, schema: subscriptionFormRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const values = readCheckoutValues((name) => body[name]);
      const token = tokenOf(request);
      if (body.intent !== 'place') {
        parseInput(checkoutChoicesBody, checkoutChoices(values), 'body');
        return renderCheckout(request, reply, site, token, { values });
      }
      const payments = ctx.paymentsFor(site);
      const input = parseInput(
        placeOrderBody,
        {
          ...checkoutChoices(values),
          idempotencyKey: body.idempotencyKey,
          payment: paymentInput(values, payments.name),
        },
        'body',
      );
      // Never a total the page did not show (a page without JavaScript shows new totals only on Update totals).
      const shown = await readSubscriptionCheckout(ctx.db, site, token, checkoutChoices(values));
      if (shown && totalChangedSinceShown(body.shownTotal, shown.quote.totals, totalsFinal(shown.quote))) {
        const total = formatMoney({
          minorUnits: shown.quote.totals.grandTotalCents,
          currency: parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY,
        });
        return renderCheckout(
          request,
          reply,
          site,
          token,
          { values, alert: totalChangedMessage(total, 'Subscribe') },
          409,
        );
      }
      const result = await placeSubscription(ctx.db, site, token, input, {
        payments,
        baseUrl: mailLinkOrigin(ctx, site, request),
        orderPath,
      });
      if (result.ok) return reply.header('cache-control', 'no-store').redirect(orderPath(result.value.order.id), 303);
      return renderCheckout(
        request,
        reply,
        site,
        token,
        refusedState(values, result.error),
        checkoutError(result.error).statusCode,
      );
    });

    const cancelPage = { schema: cancelPageRoute };
    scope.get<{ Params: { token: string } }>(`${CANCEL_PATH_PREFIX}:token`, cancelPage, async (request, reply) => {
      const site = await siteOf(request);
      const id = await subscriptionOfToken(ctx.db, site.id, request.params.token);
      const subscription = id ? await getSubscription(ctx.db, id, site.id) : undefined;
      if (!subscription) return notFound(request, reply);
      return sendPage(reply, site, {
        path: CANCEL_PATH_PREFIX,
        pageType: PageType.CHECKOUT,
        title: 'Cancel your subscription',
        description: `Your subscription at ${site.title}.`,
        body: (
          <CancelConfirmPage
            subscription={subscription}
            action={cancelPath(request.params.token)}
            crumb={pageCrumb(request, reply, ctx)}
            nextBilling={
              subscription.nextBillingAt
                ? billingDateText(new Date(subscription.nextBillingAt), site.settings.timeZone)
                : null
            }
          />
        ),
      });
    });

    const cancelOptions = { config, schema: cancelRoute };
    scope.post<{ Params: { token: string } }>(`${CANCEL_PATH_PREFIX}:token`, cancelOptions, async (request, reply) => {
      const site = await siteOf(request);
      const id = await subscriptionOfToken(ctx.db, site.id, request.params.token);
      if (!id) return notFound(request, reply);
      const outcome = await cancelSubscription(ctx.db, id, new Date(), site.id);
      const subscription = outcome.subscription ?? (await getSubscription(ctx.db, id, site.id));
      if (!subscription) return notFound(request, reply);
      return sendPage(reply, site, {
        path: CANCEL_PATH_PREFIX,
        pageType: PageType.CHECKOUT,
        title: 'Subscription cancelled',
        description: `Your subscription at ${site.title}.`,
        body: <CancelDonePage subscription={subscription} shopPath={await shopPath(site)} />,
      });
    });
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    ctx.notFoundPage ? ctx.notFoundPage(request, reply) : reply.callNotFound();
}

const tokenOf = (request: FastifyRequest): string | undefined => {
  const value = (request.query as Record<string, unknown> | undefined)?.cartToken;
  return typeof value === 'string' ? value : undefined;
};

function refusedState(values: CheckoutValues, failure: CheckoutFailure) {
  return { values, errors: (failure.fields ?? {}) as CheckoutErrors, alert: failure.message };
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

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const cartTokenQuery = z.object({ cartToken: z.string() });

const subscriptionPageRoute = pageRoute('subscriptionCheckoutPage', 'The subscription checkout', {
  querystring: cartTokenQuery,
  response: { 404: htmlAnswer('An unknown or spent token.') },
});

const subscriptionFormRoute = describeRoute({
  operationId: 'subscribeForm',
  summary: 'Subscribe, or re-render the totals (form post)',
  tags: ['subscriptions'],
  querystring: cartTokenQuery,
  body: formBody(
    z.looseObject({
      intent: z.enum(['quote', 'place']),
      crumb: z.string(),
      idempotencyKey: z.string().optional(),
      shownTotal: z.string().optional().describe('The total the form shows: another one is not charged (409).'),
    }),
  ),
  response: {
    200: htmlAnswer('The form with new totals.'),
    303: redirectAnswer('Subscribed: to /checkout/order/{id}.'),
    400: htmlAnswer('Details refused.'),
    402: htmlAnswer('The card was declined.'),
    404: htmlAnswer('An unknown or spent token.'),
    409: htmlAnswer("Sold out, or 'Your total is now …'."),
  },
});

const cancelParams = z.object({ token: z.string() });

const cancelPageRoute = pageRoute('cancelSubscriptionPage', 'A subscription e-mail’s cancel link: a confirm form', {
  params: cancelParams,
  response: { 404: htmlAnswer('An unknown, malformed or other site’s token.') },
});

const cancelRoute = describeRoute({
  operationId: 'cancelSubscription',
  summary: 'Cancel a subscription (form post)',
  tags: ['subscriptions'],
  params: cancelParams,
  body: formBody(z.object({ crumb: z.string() })),
  response: {
    200: htmlAnswer('Cancelled.'),
    404: htmlAnswer('An unknown, malformed or other site’s token.'),
  },
});
