/**
 * The subscriptions' pages, made for one visitor (per-visitor page kinds: src/render/visitorPageKind.ts), with their
 * form actions:
 *   GET  /checkout/subscribe?cartToken=…     subscriptionCheckout: the subscription checkout (works without JavaScript)
 *   POST /checkout/subscribe?cartToken=…     the form: intent=quote shows new totals; intent=place subscribes (303 to
 *                                            the first period's order page) or shows the form again with its messages
 *   GET  /subscriptions/cancel/{token}       cancelConfirm: the cancel link of every subscription e-mail, a confirm form
 *   POST /subscriptions/cancel/{token}       cancels, and shows `cancelled`
 * Their answers say `Cache-Control: private, no-store`, and their addresses are secrets (no Referer to other sites:
 * `Referrer-Policy: same-origin`, on every answer of their scope).
 */
import { randomBytes } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { countryName } from '../../../core/checkout/address';
import { totalChangedMessage, totalChangedSinceShown, totalsFinal } from '../../../core/checkout/shownTotal';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../../core/currency';
import { PageType } from '../../../core/enums';
import { formatMoney } from '../../../core/money';
import { ROUTES } from '../../../core/purchaseRoute';
import { billingDateText } from '../../../core/subscriptionSchedule';
import { describeRoute, formBody, htmlAnswer, pageRoute, redirectAnswer } from '../../../platform/http/apiDescription';
import { pageCrumb } from '../../../platform/http/crumb';
import { writeRouteConfig } from '../../../platform/http/rateLimits';
import { parseInput } from '../../../platform/http/validation';
import {
  ANSWERED,
  visitorPageKind,
  type Answered,
  type Visit,
  type VisitorPageModule,
  type VisitorPages,
} from '../../../render/visitorPageKind';
import { mailLinkOrigin, type AppContext } from '../../../platform/http/appContext';
import { siteOf } from '../../site';
import {
  checkoutChoices,
  emptyCheckoutValues,
  paymentInput,
  readCheckoutValues,
  withoutCardSecrets,
  type CheckoutErrors,
  type CheckoutValues,
} from '../../../ui/checkout/formValues';
import type { SiteImages } from '../../../ui/ResponsiveImage';
import { CancelConfirmPage, CancelDonePage } from '../../../ui/subscription/CancelPages';
import { SubscriptionCartGone, SubscriptionCheckoutPage } from '../../../ui/subscription/SubscriptionCheckoutPage';
import * as catalog from '../../catalog';
import { checkoutChoicesBody, checkoutError, orderPath, placeOrderBody } from '../../checkout';
import type { CheckoutFailure } from '../../orders';
import type { Site } from '../../site';
import { cancelPath, CANCEL_PATH_PREFIX, subscriptionOfToken } from '../links';
import { placeSubscription, readSubscriptionCheckout } from '../placement';
import { cancelSubscription, getSubscription, type Subscription } from '../store';

const HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' } as const;

const shopPath = async (ctx: AppContext, site: Site): Promise<string> => {
  const shop = (await catalog.listCollections(ctx.db, site.id)).find((c) => c.type === 'products');
  return shop ? `/${shop.slug}` : '/';
};

const notFound = async (ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<Answered> => {
  await (ctx.notFoundPage ? ctx.notFoundPage(request, reply) : reply.callNotFound());
  return ANSWERED;
};

interface FormState {
  values: CheckoutValues;
  errors?: CheckoutErrors;
  alert?: string | null;
}

interface SubscriptionCheckoutData {
  token: string | undefined;
  /** Undefined: the token names no subscription cart (spent or unknown): 404 with 'Continue shopping'. */
  checkout: Awaited<ReturnType<typeof readSubscriptionCheckout>>;
  state: FormState;
  status: number;
  shop: string;
}

const subscriptionCheckoutData = async (
  ctx: AppContext,
  site: Site,
  token: string | undefined,
  state: FormState,
  status = 200,
): Promise<SubscriptionCheckoutData> => {
  const checkout = await readSubscriptionCheckout(ctx.db, site, token, checkoutChoices(state.values));
  return { token, checkout, state, status, shop: await shopPath(ctx, site) };
};

export const subscriptionCheckout = (ctx: AppContext) =>
  visitorPageKind<SubscriptionCheckoutData>({
    name: 'subscriptionCheckout',
    paths: [ROUTES.subscriptionCheckout],
    route: { schema: subscriptionPageRoute },
    headers: HEADERS,
    load: async ({ request, site }) => {
      const values = { ...emptyCheckoutValues(), country: site.settings.store.checkout.shipsTo[0] ?? '' };
      return subscriptionCheckoutData(ctx, site, tokenOf(request), { values });
    },
    view: ({ request, reply, site }, { token, checkout, state, status, shop }) => {
      const sizesOf = (images: SiteImages) => {
        const files = Object.values(checkout?.quote.lineImages ?? {}).flatMap((image) => (image ? [image.file] : []));
        return Object.fromEntries(
          files.flatMap((file) => {
            const size = images.sizes?.get(file);
            return size ? [[file, size]] : [];
          }),
        );
      };
      const provider = ctx.paymentsFor(site);
      const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
      const crumb = pageCrumb(request, reply, ctx);
      return {
        path: ROUTES.subscriptionCheckout,
        pageType: PageType.CHECKOUT,
        title: state.alert ? 'Error: Subscribe' : 'Subscribe',
        description: `Subscribe at ${site.title}.`,
        status: checkout ? status : 404,
        // The subscription checkout brings the checkout's own bundle (its form is an island of it).
        assets: checkout ? 'checkout' : 'main',
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
      };
    },
  });

export const cancelConfirm = (ctx: AppContext) =>
  visitorPageKind<{ subscription: Subscription; token: string }>({
    name: 'cancelConfirm',
    paths: [`${CANCEL_PATH_PREFIX}:token`],
    route: { schema: cancelPageRoute },
    headers: HEADERS,
    load: async ({ request, reply, site }) => {
      const { token } = request.params as { token: string };
      const id = await subscriptionOfToken(ctx.db, site.id, token);
      const subscription = id ? await getSubscription(ctx.db, id, site.id) : undefined;
      if (!subscription) return notFound(ctx, request, reply);
      return { subscription, token };
    },
    view: ({ request, reply, site }, { subscription, token }) => ({
      path: CANCEL_PATH_PREFIX,
      pageType: PageType.CHECKOUT,
      title: 'Cancel your subscription',
      description: `Your subscription at ${site.title}.`,
      body: (
        <CancelConfirmPage
          subscription={subscription}
          action={cancelPath(token)}
          crumb={pageCrumb(request, reply, ctx)}
          nextBilling={
            subscription.nextBillingAt
              ? billingDateText(new Date(subscription.nextBillingAt), site.settings.timeZone)
              : null
          }
        />
      ),
    }),
  });

/** Shown by the cancel form's action only (no address of its own). */
export const cancelled = visitorPageKind<{ subscription: Subscription; shop: string }>({
  name: 'cancelled',
  paths: [],
  headers: HEADERS,
  view: ({ site }, { subscription, shop }) => ({
    path: CANCEL_PATH_PREFIX,
    pageType: PageType.CHECKOUT,
    title: 'Subscription cancelled',
    description: `Your subscription at ${site.title}.`,
    body: <CancelDonePage subscription={subscription} shopPath={shop} />,
  }),
});

export function subscriptionPages(ctx: AppContext, options: { rateLimitPerMinute: number }): VisitorPageModule {
  const config = writeRouteConfig(options.rateLimitPerMinute);
  const kinds = { checkout: subscriptionCheckout(ctx), cancelConfirm: cancelConfirm(ctx), cancelled };
  return {
    name: 'subscriptions',
    kinds: [kinds.checkout, kinds.cancelConfirm, kinds.cancelled],
    scope: async (scope) => {
      await scope.register(fastifyFormbody);
      scope.addHook('onSend', async (_request, reply, payload) => {
        reply.header('referrer-policy', 'same-origin');
        return payload;
      });
    },
    actions: (scope: FastifyInstance, pages: VisitorPages) => {
      const renderCheckout = async (visit: Visit, token: string | undefined, state: FormState, status = 200) =>
        pages.send(kinds.checkout, visit, await subscriptionCheckoutData(ctx, visit.site, token, state, status));

      scope.post(ROUTES.subscriptionCheckout, { config, schema: subscriptionFormRoute }, async (request, reply) => {
        const site = await siteOf(request);
        const visit = { request, reply, site };
        const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
          string,
          unknown
        >;
        const values = readCheckoutValues((name) => body[name]);
        const token = tokenOf(request);
        if (body.intent !== 'place') {
          parseInput(checkoutChoicesBody, checkoutChoices(values), 'body');
          return renderCheckout(visit, token, { values });
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
          return renderCheckout(visit, token, { values, alert: totalChangedMessage(total, 'Subscribe') }, 409);
        }
        const result = await placeSubscription(ctx.db, site, token, input, {
          payments,
          baseUrl: mailLinkOrigin(ctx, site, request),
          orderPath,
        });
        if (result.ok) return reply.header('cache-control', 'no-store').redirect(orderPath(result.value.order.id), 303);
        return renderCheckout(visit, token, refusedState(values, result.error), checkoutError(result.error).statusCode);
      });

      const cancelOptions = { config, schema: cancelRoute };
      scope.post<{ Params: { token: string } }>(
        `${CANCEL_PATH_PREFIX}:token`,
        cancelOptions,
        async (request, reply) => {
          const site = await siteOf(request);
          const id = await subscriptionOfToken(ctx.db, site.id, request.params.token);
          if (!id) {
            await notFound(ctx, request, reply);
            return reply;
          }
          const outcome = await cancelSubscription(ctx.db, id, new Date(), site.id);
          const subscription = outcome.subscription ?? (await getSubscription(ctx.db, id, site.id));
          if (!subscription) {
            await notFound(ctx, request, reply);
            return reply;
          }
          return pages.send(
            kinds.cancelled,
            { request, reply, site },
            { subscription, shop: await shopPath(ctx, site) },
          );
        },
      );
    },
  };
}

const tokenOf = (request: FastifyRequest): string | undefined => {
  const value = (request.query as Record<string, unknown> | undefined)?.cartToken;
  return typeof value === 'string' ? value : undefined;
};

function refusedState(values: CheckoutValues, failure: CheckoutFailure) {
  return { values, errors: (failure.fields ?? {}) as CheckoutErrors, alert: failure.message };
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
