/**
 * The checkout's form action: POST /checkout, the form posted without JavaScript. intent=quote (or details, edit)
 * shows the form again with new totals or each message next to its field; intent=place places the order (303 to its
 * page) or shows the form again with the refusal. The island on the page uses the JSON calls (../routes.ts) instead.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { totalChangedMessage, totalChangedSinceShown, totalsFinal } from '../../../core/checkout/shownTotal';
import { detailErrors, readStep, stepFor } from '../../../core/checkout/steps';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../../core/currency';
import { formatMoney } from '../../../core/money';
import { describeRoute, formBody, htmlAnswer, redirectAnswer } from '../../../platform/http/apiDescription';
import { writeRouteConfig } from '../../../platform/http/rateLimits';
import { parseInput } from '../../../platform/http/validation';
import type { Visit, VisitorPages } from '../../../render/visitorPageKind';
import { mailLinkOrigin, ownerLinkOrigin, secureCookiesFor, type AppContext } from '../../../platform/http/appContext';
import { siteOf } from '../../site';
import {
  checkoutChoices,
  paymentInput,
  readCheckoutValues,
  withoutGiftCard,
  withQuotedGiftCards,
  type CheckoutErrors,
  type CheckoutValues,
} from '../../../ui/checkout/formValues';
import { CHECKOUT_PATH } from '../../../ui/checkout/paths';
import { cartToken, clearCartCookies } from '../../cart';
import type { CheckoutFailure, CheckoutQuote } from '../../orders';
import { CHECKOUT_MESSAGES, checkCheckoutDetails, placeOrder, quoteCheckout } from '../checkout';
import { checkoutError } from '../errors';
import { orderPath, orderUrlFor } from '../paths';
import { checkoutChoicesBody, placeOrderBody } from '../routes.schema';
import { checkoutFormData, type checkoutForm, type FormState } from './checkoutForm';

export interface CheckoutPageOptions {
  /** Form posts per minute per client IP, counted per 10 s (placing an order calls the payment provider). */
  rateLimitPerMinute: number;
}

export function checkoutActions(
  ctx: AppContext,
  options: CheckoutPageOptions,
  form: ReturnType<typeof checkoutForm>,
): (scope: FastifyInstance, pages: VisitorPages) => void {
  // Its own budget per 10 s, and a share of the client's across cart and checkout routes (platform/http/rateLimits.ts).
  const config = writeRouteConfig(options.rateLimitPerMinute);
  return (scope, pages) => {
    const renderCheckout = async (visit: Visit, quote: CheckoutQuote, state: FormState, status = 200) =>
      pages.send(form, visit, await checkoutFormData(ctx, visit.site, quote, state, status));

    scope.post(CHECKOUT_PATH, { config, schema: checkoutFormRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const visit = { request, reply, site };
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
          if (step === 'payment') return renderCheckout(visit, quote, { values: quoted, errors: codeErrors, step });
          const errors = { ...detailErrors(fields as CheckoutErrors), ...codeErrors };
          const alert = Object.keys(errors).length > 0 ? CHECKOUT_MESSAGES.fixDetails : null;
          return renderCheckout(visit, quote, { values: quoted, errors, alert, step }, alert ? 400 : 200);
        }
        const step =
          body.intent !== 'edit' && readStep(body.step) === 'payment' ? stepFor(fields, { belowMinimum }) : 'details';
        return renderCheckout(visit, quote, { values: quoted, errors: codeErrors, step });
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
          visit,
          shown.quote,
          { values: withQuotedGiftCards(values, shown.quote.giftCards), errors: {}, alert, step },
          409,
        );
      }
      const result = await placeOrder(ctx.db, site, token, input, {
        payments,
        orderUrl: orderUrlFor(mailLinkOrigin(ctx, site, request)),
        adminOrigin: ownerLinkOrigin(ctx, site),
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
      return renderCheckout(visit, quote, refused, checkoutError(result.error).statusCode);
    });
  };
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
