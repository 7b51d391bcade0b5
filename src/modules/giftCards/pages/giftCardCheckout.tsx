/**
 * The gift-card checkout (spec §2 /checkout/giftcard?websiteId={id}&giftCardProductId={id}[&sku={sku}]), made for one
 * visitor (never cached):
 *   GET  the form for the site's gift-card product, the amount of `sku` chosen
 *   POST the form posted (no JavaScript needed): 303 to the order's page when paid, else the form again with each
 *        message by its field
 * A per-visitor page kind (src/render/visitorPageKind.ts) and its form action, declared together (giftCardPages).
 * Thin: the rules are the core's (src/core/giftCard), the purchase is src/modules/giftCards/giftCardPurchase.ts.
 */
import { randomBytes } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../../core/currency';
import { PageType } from '../../../core/enums';
import { MAX_DELIVERY_DAYS_AHEAD, todayIn, usableTimeZone } from '../../../core/giftCard';
import { formatMoney } from '../../../core/money';
import { ROUTES } from '../../../core/purchaseRoute';
import {
  ANSWERED,
  visitorPageKind,
  type Answered,
  type VisitorPageModule,
  type VisitorPages,
} from '../../../render/visitorPageKind';
import {
  buyGiftCard,
  giftCardProduct,
  type GiftCardPurchaseFailure,
  type GiftCardPurchaseValues,
} from '../giftCardPurchase';
import type { Site } from '../../site';
import type { Product } from '../../site';
import { GiftCardCheckoutPage, type GiftCardCheckoutProps } from '../../../ui/giftcard/GiftCardCheckoutPage';
import { mailLinkOrigin, ownerLinkOrigin, type AppContext } from '../../../platform/http/appContext';
import { pageCrumb } from '../../../platform/http/crumb';
import { siteOf } from '../../site';
import { writeRouteConfig } from '../../../platform/http/rateLimits';
import { parseInput } from '../../../platform/http/validation';
import { orderPath, orderUrlFor } from '../../checkout';
import { idempotencyKey as idempotencyKeySchema } from '../../checkout';
import { describeRoute, formBody, htmlAnswer, pageRoute, redirectAnswer } from '../../../platform/http/apiDescription';

interface GiftCardQuery {
  websiteId?: unknown;
  giftCardProductId?: unknown;
  sku?: unknown;
}

const VALUE_NAMES = ['sku', 'email', 'recipientName', 'recipientEmail', 'message', 'deliveryDate'] as const;
/** Longest value kept from a post (the message's limit is checked and said by the field; a forged post is cut). */
const MAX_VALUE_LENGTH = 2000;

const firstText = (value: unknown): string => {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, MAX_VALUE_LENGTH) : '';
};

interface GiftCardPageData {
  product: Product;
  values: GiftCardPurchaseValues;
  failure?: GiftCardPurchaseFailure;
}

/** The gift-card product the query names on this site (its websiteId must be this site's), or undefined. */
const productOf = async (ctx: AppContext, site: Site, query: GiftCardQuery): Promise<Product | undefined> => {
  // A grid's button may not know the site's id: the host names the site anyway; another site's id is refused.
  const websiteId = typeof query.websiteId === 'string' ? query.websiteId : '';
  if ((websiteId !== '' && websiteId !== site.id) || typeof query.giftCardProductId !== 'string') return undefined;
  return giftCardProduct(ctx.db, site.id, query.giftCardProductId);
};

const notFound = async (ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<Answered> => {
  await (ctx.notFoundPage ? ctx.notFoundPage(request, reply) : reply.callNotFound());
  return ANSWERED;
};

export const giftCardCheckout = (ctx: AppContext) =>
  visitorPageKind<GiftCardPageData>({
    name: 'giftCardCheckout',
    paths: [ROUTES.giftCardCheckout],
    route: { schema: giftCardPageRoute },
    headers: { 'cache-control': 'no-store' },
    load: async ({ request, reply, site }) => {
      const query = request.query as GiftCardQuery;
      const product = await productOf(ctx, site, query);
      if (!product) return notFound(ctx, request, reply);
      const sku = typeof query.sku === 'string' && product.variants.some((v) => v.sku === query.sku) ? query.sku : '';
      const values: GiftCardPurchaseValues = {
        sku,
        email: '',
        recipientName: '',
        recipientEmail: '',
        message: '',
        deliveryDate: '',
      };
      return { product, values };
    },
    view: ({ request, reply, site }, { product, values, failure }) => {
      const provider = ctx.paymentsFor(site);
      const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
      const timeZone = usableTimeZone(site.settings.timeZone);
      const now = new Date();
      const props: GiftCardCheckoutProps = {
        websiteId: site.id,
        productId: product.id,
        productName: product.name,
        amounts: product.variants.map((v) => ({ sku: v.sku, label: formatMoney({ minorUnits: v.price, currency }) })),
        values,
        errors: failure?.fields ?? {},
        alert: failure?.message ?? null,
        idempotencyKey: randomBytes(16).toString('base64url'),
        crumb: pageCrumb(request, reply, ctx),
        today: todayIn(timeZone, now),
        lastDay: todayIn(timeZone, new Date(now.getTime() + MAX_DELIVERY_DAYS_AHEAD * 86_400_000)),
        timeZone,
        payment: { provider: provider.name, notice: provider.notice },
      };
      return {
        path: ROUTES.giftCardCheckout,
        pageType: PageType.CHECKOUT,
        title: failure ? `Error: Buy a ${product.name}` : `Buy a ${product.name}`,
        description: `Buy a ${product.name} at ${site.title}.`,
        status: failure?.status ?? 200,
        // The form's messages follow the buyer's fixes with the checkout's own bundle (src/client/checkout/followErrors.ts).
        assets: 'checkout',
        body: <GiftCardCheckoutPage {...props} />,
      };
    },
  });

/** The form posted (no JavaScript needed): 303 to the order's page when paid, else the form again with its messages. */
const giftCardActions =
  (ctx: AppContext, options: { rateLimitPerMinute: number }, page: ReturnType<typeof giftCardCheckout>) =>
  (scope: FastifyInstance, pages: VisitorPages) => {
    const config = writeRouteConfig(options.rateLimitPerMinute);
    const postOptions = { config, schema: giftCardFormRoute };
    scope.post<{ Querystring: GiftCardQuery }>(ROUTES.giftCardCheckout, postOptions, async (request, reply) => {
      const site = await siteOf(request);
      const product = await productOf(ctx, site, request.query);
      if (!product) {
        await notFound(ctx, request, reply);
        return reply;
      }
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const values = Object.fromEntries(
        VALUE_NAMES.map((name) => [name, firstText(body[name])]),
      ) as unknown as GiftCardPurchaseValues;
      const key = parseInput(
        z.object({ idempotencyKey: idempotencyKeySchema }),
        { idempotencyKey: body.idempotencyKey },
        'body',
      ).idempotencyKey;
      const payments = ctx.paymentsFor(site);
      const payment: Record<string, string> =
        payments.name === 'test'
          ? {
              cardNumber: firstText(body.cardNumber).slice(0, 30),
              cardExpiry: firstText(body.cardExpiry).slice(0, 10),
              cardCvc: firstText(body.cardCvc).slice(0, 10),
            }
          : {};
      const result = await buyGiftCard(
        ctx.db,
        site,
        { product, values, idempotencyKey: key, payment },
        {
          payments,
          orderUrl: orderUrlFor(mailLinkOrigin(ctx, site, request)),
          adminOrigin: ownerLinkOrigin(ctx, site),
          shopUrl: `${mailLinkOrigin(ctx, site, request)}/`,
        },
      );
      if (result.ok) return reply.header('cache-control', 'no-store').redirect(orderPath(result.value.order.id), 303);
      return pages.send(page, { request, reply, site }, { product, values, failure: result.error });
    });
  };

/** The gift-card checkout's page and its form action. */
export function giftCardPages(ctx: AppContext, options: { rateLimitPerMinute: number }): VisitorPageModule {
  const page = giftCardCheckout(ctx);
  return {
    name: 'giftCards',
    kinds: [page],
    // Form posts are parsed in this scope only, as on /checkout.
    scope: async (scope) => {
      await scope.register(fastifyFormbody);
    },
    actions: giftCardActions(ctx, options, page),
  };
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const giftCardQuery = z.object({
  websiteId: z.string().optional(),
  giftCardProductId: z.string(),
  sku: z.string().optional().describe('Preselects an amount.'),
});

const giftCardPageRoute = pageRoute('giftCardCheckoutPage', 'The gift-card checkout (§2)', {
  querystring: giftCardQuery,
  response: { 404: htmlAnswer('An unknown product, not a gift card, or another site’s websiteId.') },
});

const giftCardFormRoute = describeRoute({
  operationId: 'buyGiftCard',
  summary: 'Buy a gift card (form post; one payment per idempotency key)',
  tags: ['checkout'],
  querystring: giftCardQuery,
  body: formBody(
    z.object({
      sku: z.string(),
      email: z.string(),
      recipientName: z.string(),
      recipientEmail: z.string(),
      message: z.string().max(1000).optional(),
      deliveryDate: z.string().describe('YYYY-MM-DD, at most 365 days ahead.'),
      idempotencyKey: z.string(),
      crumb: z.string(),
      cardNumber: z.string().optional(),
      cardExpiry: z.string().optional(),
      cardCvc: z.string().optional(),
    }),
  ),
  response: {
    303: redirectAnswer('Paid: to /checkout/order/{id}.'),
    400: htmlAnswer('The form with the details refused.'),
    402: htmlAnswer('The card was declined.'),
    404: htmlAnswer('An unknown product.'),
  },
});
