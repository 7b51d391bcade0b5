/**
 * The checkout's pages, made for one visitor (never in the page cache; `Cache-Control: no-store`):
 *   GET  /checkout                 the form (page type 201) for the cart of the CART cookie
 *   POST /checkout                 the same form posted without JavaScript: intent=quote shows new totals,
 *                                  intent=place places the order (303 to its page) or shows the form again with
 *                                  each message next to its field
 *   GET  /checkout/order/{id}      order confirmed (page type 202); the unguessable id is the only key to it
 *   GET  /commerce/goto-checkout   express checkout (§2): on to /checkout with a cart, else 'Unable to Purchase Item'
 * The island on the checkout page uses the JSON calls (./checkout.ts) with the same services.
 */
import { ALERT_TITLES } from '../../core/addToCartErrors';
import { PageType } from '../../core/enums';
import { randomBytes } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countryName } from '../../core/checkout/address';
import { totalChangedMessage, totalChangedSinceShown, totalsFinal } from '../../core/checkout/shownTotal';
import { detailErrors, readStep, stepFor, type CheckoutStep } from '../../core/checkout/steps';
import { formatMoney } from '../../core/money';
import { DEFAULT_CURRENCY, parseCurrencyCode, type CurrencyCode } from '../../core/currency';
import { CLIENT_DIST_DIR, readCheckoutAssets, readClientAssets, type ClientAssets } from '../../render/manifest';
import { PageRenderer, type VisitorPage } from '../../render/renderPath';
import * as catalog from '../catalog';
import { CHECKOUT_MESSAGES, checkCheckoutDetails, placeOrder, quoteCheckout } from './checkout';
import { getOrder } from '../orders';
import { giftCardPaymentsOfOrder, giftCardsBoughtByOrder } from '../giftCards';
import { deliveryNote, todayIn } from '../../core/giftCard';
import { subscriptionOfOrder } from '../subscriptions';
import { billingDateText } from '../../core/subscriptionSchedule';
import type { CheckoutFailure, CheckoutQuote } from '../orders';
import type { Site } from '../site';
import { getCart } from '../cart';
import type { CheckoutFormProps } from '../../client/checkout/CheckoutForm';
import { CheckoutPage, OrderConfirmedPage, PurchaseRefusedPage } from '../../ui/checkout/CheckoutPages';
import {
  checkoutChoices,
  emptyCheckoutValues,
  paymentInput,
  readCheckoutValues,
  withoutCardSecrets,
  withoutGiftCard,
  withQuotedGiftCards,
  type CheckoutErrors,
  type CheckoutValues,
} from '../../ui/checkout/formValues';
import { CHECKOUT_PATH } from '../../ui/checkout/paths';
import { mailLinkOrigin, secureCookiesFor, type AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { siteOf } from '../site';
import { writeRouteConfig } from '../../platform/http/rateLimits';
import { parseInput } from '../../platform/http/validation';
import { CART_COOKIE, cartToken, clearCartCookies, HAS_CART_COOKIE } from '../cart';
import { checkoutError, orderPath, orderUrlFor, ORDER_PATH_PREFIX } from './routes';
import { checkoutChoicesBody, placeOrderBody } from './routes.schema';
import { z } from 'zod';
import { describeRoute, formBody, htmlAnswer, pageRoute, redirectAnswer } from '../../platform/http/apiDescription';

/** An order id as orders are made (random, base64url); anything else is not an order. */
const ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface CheckoutPageOptions {
  /** Form posts per minute per client IP, counted per 10 s (placing an order calls the payment provider). */
  rateLimitPerMinute: number;
}

/** What a rendering of the checkout form shows besides the quote. */
interface FormState {
  values: CheckoutValues;
  errors?: CheckoutErrors;
  lineErrors?: Record<string, string>;
  alert?: string | null;
  /** The step the page shows without JavaScript (../../core/checkout/steps); with JavaScript the form is one page. */
  step?: CheckoutStep;
}

export async function registerCheckoutPageRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: CheckoutPageOptions,
): Promise<void> {
  const renderer = new PageRenderer(ctx.db, readAssets(app, ctx, 'main'));
  const checkoutAssets = readAssets(app, ctx, 'checkout');
  // Its own budget per 10 s, and a share of the client's across cart and checkout routes (../rateLimits).
  const config = writeRouteConfig(options.rateLimitPerMinute);

  /** A visitor's page, with the main entry's bundle (the header's pill) unless the page brings its own. */
  const sendPage = async (reply: FastifyReply, site: Site, page: VisitorPage, assets?: ClientAssets) => {
    const rendered = await renderer.renderVisitorPage(site, page, assets);
    return reply
      .code(rendered.status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(rendered.html);
  };

  /** The first products collection (the shop), where 'Continue shopping' leads; the home page without one. */
  const shopPath = async (site: Site): Promise<string> => {
    const shop = (await catalog.listCollections(ctx.db, site.id)).find((c) => c.type === 'products');
    return shop ? `/${shop.slug}` : '/';
  };

  const renderCheckout = async (
    request: FastifyRequest,
    reply: FastifyReply,
    site: Site,
    quote: CheckoutQuote,
    state: FormState,
    status = 200,
  ) => {
    // The form posts without JavaScript too: it carries the visitor's crumb (../crumb).
    const crumb = pageCrumb(request, reply, ctx);
    const provider = ctx.paymentsFor(site);
    const settings = site.settings.store.checkout;
    const shop = await shopPath(site);
    const hasErrors = Boolean(state.alert);
    const page: VisitorPage = {
      path: CHECKOUT_PATH,
      pageType: PageType.CHECKOUT,
      title: hasErrors ? 'Error: Checkout' : 'Checkout',
      description: `Checkout at ${site.title}.`,
      status,
      body: (images) => {
        if (quote.cart.entries.length === 0) return <CheckoutPage form={null} shopPath={shop} />;
        const files = Object.values(quote.lineImages).flatMap((image) => (image ? [image.file] : []));
        const form: CheckoutFormProps = {
          currency: currencyOf(site),
          siteId: site.id,
          images: {
            ...(images.version !== undefined ? { version: images.version } : {}),
            sizes: Object.fromEntries(
              files.flatMap((file) => {
                const size = images.sizes?.get(file);
                return size ? [[file, size]] : [];
              }),
            ),
          },
          quote,
          values: withoutCardSecrets(state.values),
          errors: state.errors ?? {},
          lineErrors: state.lineErrors ?? {},
          alert: state.alert ?? null,
          idempotencyKey: randomBytes(16).toString('base64url'),
          crumb,
          shipsTo: settings.shipsTo.map((code) => ({ code, name: countryName(code) ?? code })),
          payment: { provider: provider.name, notice: provider.notice },
          messages: { fixDetails: CHECKOUT_MESSAGES.fixDetails, chooseShipping: CHECKOUT_MESSAGES.chooseShipping },
          shopPath: shop,
          step: state.step ?? 'details',
        };
        return <CheckoutPage form={form} shopPath={shop} />;
      },
    };
    return sendPage(reply, site, page, checkoutAssets);
  };

  await app.register(async (scope) => {
    // Form posts are parsed here only: the JSON calls elsewhere keep refusing other media types. (The app's body
    // limit applies, so a refusal names the limit it enforces.)
    await scope.register(fastifyFormbody);

    scope.get(CHECKOUT_PATH, { schema: checkoutPageRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const values = { ...emptyCheckoutValues(), country: site.settings.store.checkout.shipsTo[0] ?? '' };
      const quote = await quoteCheckout(ctx.db, site, cartToken(request), checkoutChoices(values));
      forgetStaleCart(request, reply, quote.cart.id);
      return renderCheckout(request, reply, site, quote, { values });
    });

    scope.post(CHECKOUT_PATH, { config, schema: checkoutFormRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const posted = readCheckoutValues((name) => body[name]);
      // A gift card's 'Remove' button names its code.
      const values = typeof body.removeGiftCard === 'string' ? withoutGiftCard(posted, body.removeGiftCard) : posted;
      const token = cartToken(request);
      if (body.intent !== 'place') {
        // What the quote call accepts (a forged post with a NUL or an over-long value is a 400, as there).
        const choices = parseInput(checkoutChoicesBody, checkoutChoices(values), 'body');
        const { quote, fields } = await checkCheckoutDetails(ctx.db, site, token, choices);
        const quoted = withQuotedGiftCards(values, quote.giftCards);
        const codeErrors: CheckoutErrors = {
          ...(quote.couponError && values.couponCode.trim() !== '' ? { couponCode: quote.couponError } : {}),
          ...(quote.giftCardError ? { giftCardCode: quote.giftCardError } : {}),
        };
        const belowMinimum = quote.minimumSubtotalMessage !== null;
        // Without JavaScript (../../core/checkout/steps): 'Continue to payment' goes on once the details are right, or
        // comes back with each message by its field; 'Change' goes back; the other buttons stay on the step they are on.
        if (body.intent === 'details') {
          const step = stepFor(fields, { leaving: true, belowMinimum });
          if (step === 'payment')
            return renderCheckout(request, reply, site, quote, { values: quoted, errors: codeErrors, step });
          const errors = { ...detailErrors(fields as CheckoutErrors), ...codeErrors };
          const alert = Object.keys(errors).length > 0 ? CHECKOUT_MESSAGES.fixDetails : null;
          return renderCheckout(
            request,
            reply,
            site,
            quote,
            { values: quoted, errors, alert, step },
            alert ? 400 : 200,
          );
        }
        const step =
          body.intent !== 'edit' && readStep(body.step) === 'payment' ? stepFor(fields, { belowMinimum }) : 'details';
        return renderCheckout(request, reply, site, quote, { values: quoted, errors: codeErrors, step });
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
      // Never a total the page did not show (without JavaScript the payment step shows the totals of the details given).
      const shown = await checkCheckoutDetails(ctx.db, site, token, checkoutChoices(values));
      if (
        shown.quote.cart.entries.length > 0 &&
        totalChangedSinceShown(body.shownTotal, shown.quote.totals, totalsFinal(shown.quote))
      ) {
        const total = formatMoney({
          minorUnits: shown.quote.totals.grandTotalCents,
          currency: parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY,
        });
        const alert = totalChangedMessage(total, 'Place order');
        const step = stepFor(shown.fields, { belowMinimum: shown.quote.minimumSubtotalMessage !== null });
        return renderCheckout(
          request,
          reply,
          site,
          shown.quote,
          { values: withQuotedGiftCards(values, shown.quote.giftCards), errors: {}, alert, step },
          409,
        );
      }
      const result = await placeOrder(ctx.db, site, token, input, {
        payments,
        orderUrl: orderUrlFor(mailLinkOrigin(ctx, site, request)),
      });
      if (result.ok) {
        // The cart is bought: the browser forgets it, as after the JSON call.
        clearCartCookies(reply, secureCookiesFor(ctx, request));
        return reply.header('cache-control', 'no-store').redirect(orderPath(result.value.order.id), 303);
      }
      const quote = await quoteCheckout(ctx.db, site, token, checkoutChoices(values));
      const refused = refusedState(withQuotedGiftCards(values, quote.giftCards), result.error);
      // Back to the step of what was refused: the payment step for the card, the details for the rest.
      refused.step = stepFor(result.error.fields ?? {}, { belowMinimum: quote.minimumSubtotalMessage !== null });
      return renderCheckout(request, reply, site, quote, refused, checkoutError(result.error).statusCode);
    });

    scope.get<{ Params: { orderId: string } }>(
      `${ORDER_PATH_PREFIX}:orderId`,
      {
        schema: orderPageRoute,
        // After the app's own headers: the address is the secret, so it must not leak as a Referer, nor be kept.
        onSend: async (_request, reply, payload) => {
          reply
            .header('referrer-policy', 'no-referrer')
            .header('cache-control', 'private, no-store')
            .header('x-robots-tag', 'noindex');
          return payload;
        },
      },
      async (request, reply) => {
        const site = await siteOf(request);
        const { orderId } = request.params;
        const order = ORDER_ID.test(orderId) ? await getOrder(ctx.db, site.id, orderId) : undefined;
        if (!order) return ctx.notFoundPage ? ctx.notFoundPage(request, reply) : reply.callNotFound();
        // An order of a subscription (its first period or a renewal) says which plan it belongs to.
        const subscription = await subscriptionOfOrder(ctx.db, site.id, order.id);
        const giftCards = await giftCardPaymentsOfOrder(ctx.db, order.id);
        const today = todayIn(site.settings.timeZone, new Date());
        const giftCardsBought = (await giftCardsBoughtByOrder(ctx.db, order.id, site.settings.timeZone)).map(
          (card) => ({
            recipientName: card.recipientName,
            message: card.message,
            note: deliveryNote(card, today),
          }),
        );
        return sendPage(reply, site, {
          path: orderPath(order.id),
          pageType: PageType.ORDER_CONFIRMED,
          title: `Order ${order.number}`,
          description: `Your order at ${site.title}.`,
          noReferrer: true,
          body: (
            <OrderConfirmedPage
              order={order}
              siteId={site.id}
              manualInstructions={site.settings.store.checkout.payments.manualInstructions}
              shopPath={await shopPath(site)}
              giftCards={giftCards}
              giftCardsBought={giftCardsBought}
              {...(subscription
                ? {
                    subscription: {
                      planText: subscription.planText,
                      nextBilling:
                        subscription.status === 'active' && subscription.nextBillingAt
                          ? billingDateText(new Date(subscription.nextBillingAt), site.settings.timeZone)
                          : null,
                    },
                  }
                : {})}
            />
          ),
        });
      },
    );

    scope.get('/commerce/goto-checkout', { schema: gotoCheckoutRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const cart = await getCart(ctx.db, { id: site.id, currency: site.currency }, cartToken(request));
      if (cart.id !== null && cart.entries.length > 0)
        return reply.header('cache-control', 'no-store').redirect(CHECKOUT_PATH, 303);
      forgetStaleCart(request, reply, cart.id);
      return sendPage(reply, site, {
        path: '/commerce/goto-checkout',
        pageType: PageType.ERROR,
        title: ALERT_TITLES.purchaseItem,
        description: `Checkout at ${site.title}.`,
        status: 400,
        body: <PurchaseRefusedPage shopPath={await shopPath(site)} />,
      });
    });
  });

  /** A cookie that names no open cart (bought, expired, another site's) is dropped, as the cart call does. */
  function forgetStaleCart(request: FastifyRequest, reply: FastifyReply, cartId: string | null): void {
    if (
      cartId === null &&
      (request.cookies[CART_COOKIE] !== undefined || request.cookies[HAS_CART_COOKIE] !== undefined)
    ) {
      clearCartCookies(reply, secureCookiesFor(ctx, request));
    }
  }
}

/** The form again after a refusal: what was typed (not the card's number and code), each message by its field. */
function refusedState(values: CheckoutValues, failure: CheckoutFailure): FormState {
  return {
    values,
    errors: (failure.fields ?? {}) as CheckoutErrors,
    lineErrors: Object.fromEntries((failure.lines ?? []).map((l) => [l.entryId, l.message])),
    alert: failure.message,
  };
}

/** The tags of an entry of the browser bundle (the page routes already warn once when there is no bundle). */
function readAssets(app: FastifyInstance, ctx: AppContext, entry: 'main' | 'checkout'): ClientAssets {
  const dir = ctx.clientDir ?? CLIENT_DIST_DIR;
  const warn = (message: string) => app.log.debug(message);
  return entry === 'checkout' ? readCheckoutAssets(dir, warn) : readClientAssets(dir, warn);
}

const currencyOf = (site: Site): CurrencyCode => parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const checkoutFormFields = z.looseObject({
  crumb: z.string(),
  email: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  address1: z.string().optional(),
  address2: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  region: z.string().optional(),
  postalCode: z.string().optional(),
  phone: z.string().optional(),
  shippingOptionId: z.string().optional(),
  couponCode: z.string().optional(),
  giftCardCode: z.string().optional(),
  giftCardCodes: z.string().optional().describe('The applied codes, space-separated.'),
  idempotencyKey: z.string().optional(),
  cardNumber: z.string().optional(),
  cardExpiry: z.string().optional(),
  cardCvc: z.string().optional(),
});

const checkoutPageRoute = pageRoute('checkoutPage', 'The checkout (works without JavaScript)');

const checkoutFormRoute = describeRoute({
  operationId: 'checkoutForm',
  summary: 'The checkout posted without JavaScript (form post)',
  description:
    'The checkout calls’ fields as a form; `removeGiftCard={code}` removes an applied card. Refusals show the form again with the checkout’s statuses.',
  tags: ['checkout'],
  body: formBody(checkoutFormFields.extend({ removeGiftCard: z.string().optional(), intent: z.string().optional() })),
  response: {
    200: htmlAnswer('The form again (totals, a code applied).'),
    303: redirectAnswer('Placed: to /checkout/order/{id}.'),
    400: htmlAnswer('The form with the details refused.'),
    402: htmlAnswer('The card was declined.'),
    409: htmlAnswer('Sold out, or the cart changed.'),
  },
});

const orderPageRoute = pageRoute('orderPage', 'An order’s page (the address is the secret)', {
  params: z.object({ orderId: z.string() }),
  response: { 404: htmlAnswer('No such order.') },
});

const gotoCheckoutRoute = pageRoute('gotoCheckout', 'Express checkout (§2/§5)', {
  response: {
    303: redirectAnswer('A cart: to /checkout.'),
    400: htmlAnswer("No cart: 'Unable to Purchase Item' / 'Either your session has expired or …'."),
  },
});
