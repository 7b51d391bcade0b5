/**
 * Stripe, on the official `stripe` package. The browser turns the card into a PaymentMethod (Stripe.js, so card
 * numbers never reach us) and posts its id as `payment.paymentMethodId`; `authorize` confirms a PaymentIntent for it
 * with manual capture (money reserved, captured once the order is written), and capture / void / refund move it on.
 *
 * Every call carries the caller's idempotency key (Stripe-side: the same key replays the first answer, so a retried
 * call never charges twice), and the client retries network failures itself with that same key. An authorization
 * whose answer never arrived (every retry timed out) is reported `failed`; if Stripe did reserve the money, the
 * uncaptured PaymentIntent is released by Stripe after 7 days, and nothing was charged.
 */
import Stripe from 'stripe';
import { err, ok } from '../../core/result';
import {
  assertAmount,
  assertKey,
  freeAuthorization,
  isFreeReference,
  type AuthorizeOutcome,
  type AuthorizeRequest,
  type ChargeSavedMethodRequest,
  type PaymentProvider,
  type SavePaymentMethodOutcome,
  type SavePaymentMethodRequest,
} from './provider';

export const STRIPE_MESSAGES = {
  enterCard: 'Enter your card details.',
  cardNotUsable: 'Your card details could not be used. Please enter them again.',
  declined: 'Your card was declined.',
  needsAuthentication: 'This card needs extra authentication, which this store cannot do yet. Please use another card.',
} as const;

export interface StripeProviderOptions {
  secretKey: string;
  /** Base URL of the API, http(s)://host[:port] (tests, a proxy); default https://api.stripe.com. */
  apiUrl?: string | undefined;
  /** Per request, before the client's own retries (default 20 s). */
  timeoutMs?: number | undefined;
  /** Retries of a request that failed on the network or with a retryable answer, same idempotency key (default 2). */
  maxNetworkRetries?: number | undefined;
}

const DEFAULT_TIMEOUT_MS = 20_000;
// A PaymentMethod id as Stripe.js makes it (pm_…); anything else is not sent on.
const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,250}$/;
// A customer id as Stripe makes it (cus_…): a subscription's first payment carries it.
const CUSTOMER_ID = /^cus_[A-Za-z0-9_]{1,250}$/;

export function stripeProvider(options: StripeProviderOptions): PaymentProvider {
  if (options.secretKey.trim() === '') throw new TypeError('the Stripe provider needs a secret key');
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    appInfo: { name: 'Vitrine' },
    ...(options.apiUrl !== undefined ? apiAddress(options.apiUrl) : {}),
  });

  return {
    name: 'stripe',
    notice: null,

    async authorize(req: AuthorizeRequest): Promise<AuthorizeOutcome> {
      assertAmount(req.amount);
      assertKey(req.idempotencyKey);
      // Stripe refuses a PaymentIntent of 0; a fully discounted order asks Stripe for nothing.
      if (req.amount === 0) return freeAuthorization(req.idempotencyKey);
      const paymentMethodId = req.method.paymentMethodId?.trim() ?? '';
      if (paymentMethodId === '') return { status: 'declined', message: STRIPE_MESSAGES.enterCard, field: 'payment' };
      if (!PAYMENT_METHOD_ID.test(paymentMethodId))
        return { status: 'declined', message: STRIPE_MESSAGES.cardNotUsable, field: 'payment' };

      // A subscription's first period: the method is its customer's, kept for the renewals charged off-session.
      const customerId = req.method.customerId?.trim() ?? '';
      const forCustomer = CUSTOMER_ID.test(customerId)
        ? { customer: customerId, setup_future_usage: 'off_session' as const }
        : {};
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            ...forCustomer,
            // Our amounts are minor units of the currency and so are Stripe's: cents for USD, whole yen for JPY (a
            // zero-decimal currency for both; the core gives JPY 0 fraction digits). The other 25 currencies have
            // two decimals on both sides, so the number is passed as is.
            amount: req.amount,
            currency: req.currency.toLowerCase(),
            payment_method: paymentMethodId,
            confirm: true,
            capture_method: 'manual',
            receipt_email: req.email,
            description: req.description,
            // Cards only in effect: a payment method that would redirect the shopper cannot complete on this page.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          },
          { idempotencyKey: req.idempotencyKey },
        );
      } catch (error) {
        return authorizeFailure(error);
      }

      switch (intent.status) {
        case 'requires_capture':
          return { status: 'authorized', reference: intent.id };
        case 'succeeded':
          // Captured already (a payment method that cannot be captured later): capture() answers ok for it.
          return { status: 'authorized', reference: intent.id };
        case 'requires_action':
          // 3-D Secure and the like need the shopper on a Stripe page; release the intent so nothing stays pending.
          await stripe.paymentIntents
            .cancel(intent.id, {}, { idempotencyKey: `${req.idempotencyKey}:cancel` })
            .catch(() => undefined);
          return { status: 'declined', message: STRIPE_MESSAGES.needsAuthentication, field: 'payment' };
        case 'requires_payment_method':
          return {
            status: 'declined',
            message: intent.last_payment_error?.message ?? STRIPE_MESSAGES.declined,
            field: 'payment',
          };
        default:
          return {
            status: 'failed',
            message: `Stripe answered PaymentIntent ${intent.id} with status '${intent.status}'`,
          };
      }
    },

    async savePaymentMethod(req: SavePaymentMethodRequest): Promise<SavePaymentMethodOutcome> {
      assertKey(req.idempotencyKey);
      const paymentMethodId = req.method.paymentMethodId?.trim() ?? '';
      if (paymentMethodId === '') return { status: 'declined', message: STRIPE_MESSAGES.enterCard, field: 'payment' };
      if (!PAYMENT_METHOD_ID.test(paymentMethodId))
        return { status: 'declined', message: STRIPE_MESSAGES.cardNotUsable, field: 'payment' };
      try {
        // Creating the customer with the method attaches it (the same key replays the first answer).
        const customer = await stripe.customers.create(
          { email: req.email, payment_method: paymentMethodId },
          { idempotencyKey: `${req.idempotencyKey}:customer` },
        );
        return {
          status: 'saved',
          token: `${customer.id}/${paymentMethodId}`,
          firstPayment: { paymentMethodId, customerId: customer.id },
        };
      } catch (error) {
        const outcome = authorizeFailure(error);
        return outcome.status === 'declined'
          ? outcome
          : { status: 'failed', message: outcome.status === 'failed' ? outcome.message : messageOf(error) };
      }
    },

    async chargeSavedMethod(req: ChargeSavedMethodRequest): Promise<AuthorizeOutcome> {
      assertAmount(req.amount);
      assertKey(req.idempotencyKey);
      const [customer = '', paymentMethod = ''] = req.token.split('/');
      if (!CUSTOMER_ID.test(customer) || !PAYMENT_METHOD_ID.test(paymentMethod)) {
        return { status: 'declined', message: STRIPE_MESSAGES.cardNotUsable, field: 'payment' };
      }
      if (req.amount === 0) return freeAuthorization(req.idempotencyKey);
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: req.amount,
            currency: req.currency.toLowerCase(),
            customer,
            payment_method: paymentMethod,
            off_session: true,
            confirm: true,
            capture_method: 'manual',
            receipt_email: req.email,
            description: req.description,
          },
          { idempotencyKey: req.idempotencyKey },
        );
      } catch (error) {
        // Off-session, a card that wants the shopper (authentication_required) is a card error too: declined.
        return authorizeFailure(error);
      }
      if (intent.status === 'requires_capture' || intent.status === 'succeeded')
        return { status: 'authorized', reference: intent.id };
      if (intent.status === 'requires_action' || intent.status === 'requires_payment_method') {
        await stripe.paymentIntents
          .cancel(intent.id, {}, { idempotencyKey: `${req.idempotencyKey}:cancel` })
          .catch(() => undefined);
        return {
          status: 'declined',
          message: intent.last_payment_error?.message ?? STRIPE_MESSAGES.declined,
          field: 'payment',
        };
      }
      return { status: 'failed', message: `Stripe answered PaymentIntent ${intent.id} with status '${intent.status}'` };
    },

    async capture(reference, amount, idempotencyKey) {
      assertAmount(amount);
      assertKey(idempotencyKey);
      if (isFreeReference(reference)) return ok(undefined);
      if (!isIntentId(reference)) return err(notStripe(reference));
      try {
        const intent = await stripe.paymentIntents.capture(
          reference,
          { amount_to_capture: amount },
          { idempotencyKey },
        );
        return intent.status === 'succeeded'
          ? ok(undefined)
          : err(`PaymentIntent ${reference} is '${intent.status}' after capture`);
      } catch (error) {
        return alreadyInState(error, 'succeeded') ? ok(undefined) : err(messageOf(error));
      }
    },

    async void(reference, idempotencyKey) {
      assertKey(idempotencyKey);
      if (isFreeReference(reference)) return ok(undefined);
      if (!isIntentId(reference)) return err(notStripe(reference));
      try {
        const intent = await stripe.paymentIntents.cancel(reference, {}, { idempotencyKey });
        return intent.status === 'canceled'
          ? ok(undefined)
          : err(`PaymentIntent ${reference} is '${intent.status}' after cancel`);
      } catch (error) {
        return alreadyInState(error, 'canceled') ? ok(undefined) : err(messageOf(error));
      }
    },

    async refund(reference, amount, idempotencyKey) {
      assertAmount(amount);
      assertKey(idempotencyKey);
      if (isFreeReference(reference)) return ok(undefined);
      if (!isIntentId(reference)) return err(notStripe(reference));
      try {
        const refund = await stripe.refunds.create({ payment_intent: reference, amount }, { idempotencyKey });
        // 'pending' refunds complete on Stripe's side (charge.refunded tells the webhook); only a refusal is a failure.
        return refund.status === 'failed' || refund.status === 'canceled'
          ? err(`the refund of ${reference} is '${refund.status}'`)
          : ok(undefined);
      } catch (error) {
        return isStripeError(error) && error.code === 'charge_already_refunded' ? ok(undefined) : err(messageOf(error));
      }
    },
  };
}

/** host / port / protocol for the client from a base URL (validated by the config: http or https, no path). */
function apiAddress(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : url.protocol === 'https:' ? 'https' : null;
  if (!protocol || url.hostname === '')
    throw new TypeError(`the Stripe API URL must be an http:// or https:// URL, not '${url.protocol}…'`);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port !== '' ? Number(url.port) : protocol === 'https' ? 443 : 80,
    protocol,
  };
}

const isIntentId = (reference: string) => /^pi_[A-Za-z0-9_]+$/.test(reference);
const notStripe = (reference: string) => `'${reference}' is not a Stripe PaymentIntent`;
const isStripeError = (error: unknown): error is Stripe.errors.StripeError =>
  error instanceof Stripe.errors.StripeError;
const messageOf = (error: unknown) =>
  isStripeError(error) ? `Stripe: ${error.message}` : error instanceof Error ? error.message : String(error);

/** Stripe refuses to move an intent that is already where we want it (a retry with another key): that is success. */
function alreadyInState(error: unknown, status: Stripe.PaymentIntent.Status): boolean {
  return (
    isStripeError(error) && error.code === 'payment_intent_unexpected_state' && error.payment_intent?.status === status
  );
}

function authorizeFailure(error: unknown): AuthorizeOutcome {
  // A card error's message is written for the shopper ("Your card has insufficient funds.").
  if (error instanceof Stripe.errors.StripeCardError)
    return { status: 'declined', message: error.message || STRIPE_MESSAGES.declined, field: 'payment' };
  // A PaymentMethod id that is unknown, used up or another account's: the card must be entered again.
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.param === 'payment_method') {
    return { status: 'declined', message: STRIPE_MESSAGES.cardNotUsable, field: 'payment' };
  }
  // Unreachable, timed out, 5xx, rate limited, bad key, an idempotency clash: nothing is known to be charged.
  return { status: 'failed', message: messageOf(error) };
}
