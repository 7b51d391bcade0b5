/**
 * The Stripe adapter against a local stand-in for Stripe's API (node:http on 127.0.0.1; no outside host is called):
 * what the adapter sends (form-encoded params, Idempotency-Key), how it reads Stripe's answers and errors, and that a
 * retried call with the same key never makes a second charge; saved methods for subscriptions (a customer, then
 * off-session charges, declines). Then the webhook route on both engines: signed events
 * move the payments row (and a refund the order), bad or missing signatures change nothing.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentStatus } from '../../src/modules/payments/tables';
import { registerJsonBodyParser } from '../../src/platform/http/jsonBody';
import { registerPaymentWebhookRoutes, STRIPE_WEBHOOK_PATH } from '../../src/modules/payments/routes';
import { paymentProviderFor } from '../../src/modules/payments';
import type { AuthorizeRequest, PaymentProvider } from '../../src/modules/payments/provider';
import { stripeProvider } from '../../src/modules/payments/stripeProvider';
import { verifyStripeWebhook } from '../../src/modules/payments/stripeWebhook';
import { seedSite, shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';

// ---------------------------------------------------------------- a local stand-in for Stripe's API

interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  params: Record<string, string>;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  capture_method: string;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * Answers the endpoints the adapter uses (PaymentIntents: create, capture, cancel; refunds; customers, which attach
 * the PaymentMethod they are created with), the way Stripe does: a request with an Idempotency-Key seen before gets
 * the first answer again (and does nothing), errors have Stripe's `{ error: { type, code, message, … } }` shape.
 * The payment method chooses the card's fate, like Stripe's test PaymentMethods.
 */
class FakeStripe {
  readonly requests: SeenRequest[] = [];
  readonly intents = new Map<string, Intent>();
  /** Customers (POST /v1/customers), and which customer each PaymentMethod is attached to. */
  readonly customers = new Map<string, { id: string; object: 'customer'; email: string | null }>();
  readonly attachedTo = new Map<string, string>();
  private readonly replies = new Map<string, Answer>();
  private flakyLeft = 0;
  /** Paths that never answer (a timeout). */
  readonly silent = new Set<string>();
  refunds = 0;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  reset(): void {
    this.requests.length = 0;
    this.intents.clear();
    this.customers.clear();
    this.attachedTo.clear();
    this.replies.clear();
    this.silent.clear();
    this.flakyLeft = 0;
    this.refunds = 0;
  }

  /** The next `n` requests fail with a 500 that Stripe marks as safe to retry. */
  failNext(n: number): void {
    this.flakyLeft = n;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const seen: SeenRequest = {
      method: req.method ?? '',
      path,
      headers: req.headers,
      params: Object.fromEntries(new URLSearchParams(text)),
    };
    this.requests.push(seen);
    if (this.silent.has(path)) return; // never answered: the client times out
    if (this.flakyLeft > 0) {
      this.flakyLeft -= 1;
      return send(res, {
        status: 500,
        body: stripeError('api_error', 'An unknown error occurred'),
        headers: { 'stripe-should-retry': 'true' },
      });
    }
    const key = req.headers['idempotency-key'];
    const replayKey = typeof key === 'string' ? `${req.method} ${path} ${key}` : undefined;
    const replayed = replayKey !== undefined ? this.replies.get(replayKey) : undefined;
    if (replayed) return send(res, { ...replayed, headers: { ...replayed.headers, 'idempotent-replayed': 'true' } });
    const answer = this.answer(seen);
    if (replayKey !== undefined) this.replies.set(replayKey, answer);
    send(res, answer);
  }

  private answer({ method, path, params }: SeenRequest): Answer {
    if (method !== 'POST')
      return {
        status: 404,
        body: stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path})`),
      };
    if (path === '/v1/payment_intents') return this.create(params);
    if (path === '/v1/customers') return this.createCustomer(params);
    const action = /^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/.exec(path);
    if (action) {
      const intent = this.intents.get(action[1] ?? '');
      if (!intent)
        return {
          status: 404,
          body: stripeError('invalid_request_error', `No such payment_intent: '${action[1]}'`, {
            code: 'resource_missing',
            param: 'intent',
          }),
        };
      const [from, to] =
        action[2] === 'capture'
          ? [['requires_capture'], 'succeeded']
          : [['requires_capture', 'requires_action', 'requires_payment_method'], 'canceled'];
      if (!from.includes(intent.status)) {
        return {
          status: 400,
          body: stripeError('invalid_request_error', `This PaymentIntent's status is ${intent.status}.`, {
            code: 'payment_intent_unexpected_state',
            payment_intent: intent,
          }),
        };
      }
      intent.status = to;
      return { status: 200, body: intent };
    }
    if (path === '/v1/refunds') {
      const intent = this.intents.get(params.payment_intent ?? '');
      if (!intent || intent.status !== 'succeeded')
        return {
          status: 400,
          body: stripeError('invalid_request_error', 'This PaymentIntent has no charge to refund.'),
        };
      if (this.refunds > 0)
        return {
          status: 400,
          body: stripeError('invalid_request_error', 'Charge ch_1 has already been refunded.', {
            code: 'charge_already_refunded',
          }),
        };
      this.refunds += 1;
      return {
        status: 200,
        body: {
          id: `re_${this.refunds}`,
          object: 'refund',
          amount: Number(params.amount),
          payment_intent: intent.id,
          status: 'succeeded',
        },
      };
    }
    return { status: 404, body: stripeError('invalid_request_error', `Unrecognized request URL (POST: ${path})`) };
  }

  /**
   * A customer, with `payment_method` attached to it as Stripe does on creation: an unknown method is a resource_missing
   * error, a card Stripe refuses to attach a card_error (then no customer exists).
   */
  private createCustomer(params: Record<string, string>): Answer {
    const method = params.payment_method;
    if (method !== undefined) {
      if (method === 'pm_card_chargeDeclined') {
        return {
          status: 402,
          body: stripeError('card_error', 'Your card was declined.', {
            code: 'card_declined',
            decline_code: 'generic_decline',
            param: '',
          }),
        };
      }
      if (!KNOWN_METHODS.has(method)) {
        return {
          status: 400,
          body: stripeError('invalid_request_error', `No such PaymentMethod: '${method}'`, {
            code: 'resource_missing',
            param: 'payment_method',
          }),
        };
      }
    }
    const customer = { id: `cus_${this.customers.size + 1}`, object: 'customer' as const, email: params.email ?? null };
    this.customers.set(customer.id, customer);
    if (method !== undefined) this.attachedTo.set(method, customer.id);
    return { status: 200, body: customer };
  }

  private create(params: Record<string, string>): Answer {
    const id = `pi_${this.intents.size + 1}`;
    const intent: Intent = {
      id,
      object: 'payment_intent',
      amount: Number(params.amount),
      currency: params.currency ?? '',
      status: 'requires_capture',
      capture_method: params.capture_method ?? '',
    };
    // A customer's payment: the method must be attached to that customer (Stripe refuses it otherwise).
    if (params.customer !== undefined) {
      if (!this.customers.has(params.customer)) {
        return {
          status: 400,
          body: stripeError('invalid_request_error', `No such customer: '${params.customer}'`, {
            code: 'resource_missing',
            param: 'customer',
          }),
        };
      }
      if (params.payment_method !== undefined && this.attachedTo.get(params.payment_method) !== params.customer) {
        return {
          status: 400,
          body: stripeError(
            'invalid_request_error',
            `The provided PaymentMethod ${params.payment_method} does not belong to the Customer ${params.customer}.`,
            {
              param: 'payment_method',
            },
          ),
        };
      }
    }
    const offSession = params.off_session === 'true';
    if (offSession && (params.confirm !== 'true' || params.customer === undefined)) {
      return {
        status: 400,
        body: stripeError('invalid_request_error', 'off_session can only be used with confirm=true and a customer.', {
          param: 'off_session',
        }),
      };
    }
    // Off-session (a renewal) nobody is there to authenticate; and a card that attaches but never pays is declined.
    if (
      (offSession && params.payment_method === 'pm_card_authenticationRequired') ||
      params.payment_method === 'pm_card_chargeCustomerFail'
    ) {
      const failed = { ...intent, status: 'requires_payment_method' };
      this.intents.set(id, failed);
      const [code, message] =
        params.payment_method === 'pm_card_authenticationRequired'
          ? ['authentication_required', 'Your card was declined. This transaction requires authentication.']
          : ['card_declined', 'Your card was declined.'];
      return {
        status: 402,
        body: stripeError('card_error', message, {
          code,
          decline_code: code === 'card_declined' ? 'generic_decline' : code,
          payment_intent: failed,
        }),
      };
    }
    switch (params.payment_method) {
      case 'pm_card_visa':
        break;
      case 'pm_card_authenticationRequired':
        intent.status = 'requires_action';
        break;
      case 'pm_card_visa_chargeDeclinedInsufficientFunds':
        this.intents.set(id, { ...intent, status: 'requires_payment_method' });
        return {
          status: 402,
          body: stripeError('card_error', 'Your card has insufficient funds.', {
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            payment_intent: { ...intent, status: 'requires_payment_method' },
          }),
        };
      default:
        return {
          status: 400,
          body: stripeError('invalid_request_error', `No such PaymentMethod: '${params.payment_method}'`, {
            code: 'resource_missing',
            param: 'payment_method',
          }),
        };
    }
    this.intents.set(id, intent);
    return { status: 200, body: intent };
  }
}

/** Stripe's test PaymentMethods this stand-in knows (pm_card_chargeCustomerFail attaches, then its charges fail). */
const KNOWN_METHODS = new Set([
  'pm_card_visa',
  'pm_card_authenticationRequired',
  'pm_card_visa_chargeDeclinedInsufficientFunds',
  'pm_card_chargeCustomerFail',
]);

const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra, doc_url: 'https://stripe.com/docs/error-codes' },
});

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_test', ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

// ---------------------------------------------------------------- the adapter

const SECRET_KEY = 'sk_test_vitrine_local';
const fake = new FakeStripe();
const now = new Date('2026-03-15T12:00:00Z');
const request = (overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  amount: 4250,
  currency: 'USD',
  idempotencyKey: 'attempt-1',
  method: { paymentMethodId: 'pm_card_visa' },
  email: 'ada@example.com',
  description: 'Shop — order',
  now,
  ...overrides,
});

describe('Stripe adapter', () => {
  let provider: PaymentProvider;

  beforeAll(async () => {
    await fake.start();
    provider = paymentProviderFor(
      { provider: 'stripe', manualInstructions: '' },
      { stripeSecretKey: SECRET_KEY, stripeApiUrl: fake.url },
    );
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('authorizes: a PaymentIntent confirmed with manual capture, form-encoded, under the idempotency key', async () => {
    expect(await provider.authorize(request())).toEqual({ status: 'authorized', reference: 'pi_1' });
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent?.path).toBe('/v1/payment_intents');
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent?.headers['idempotency-key']).toBe('attempt-1');
    expect(sent?.params).toEqual({
      amount: '4250',
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: 'true',
      capture_method: 'manual',
      receipt_email: 'ada@example.com',
      description: 'Shop — order',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
    });
  });

  it('sends JPY amounts as they are (whole yen: zero-decimal for us and for Stripe)', async () => {
    await provider.authorize(request({ amount: 1500, currency: 'JPY' }));
    expect(fake.requests[0]?.params).toMatchObject({ amount: '1500', currency: 'jpy' });
  });

  it('never charges twice for one key: a repeated call gets the first PaymentIntent again', async () => {
    const first = await provider.authorize(request());
    const again = await provider.authorize(request());
    expect(again).toEqual(first);
    expect(fake.intents.size).toBe(1);
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual(['attempt-1', 'attempt-1']);
  });

  it("retries Stripe's retryable failures itself, with the same idempotency key", async () => {
    fake.failNext(2);
    expect(await provider.authorize(request({ idempotencyKey: 'attempt-flaky' }))).toEqual({
      status: 'authorized',
      reference: 'pi_1',
    });
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      'attempt-flaky',
      'attempt-flaky',
      'attempt-flaky',
    ]);
    expect(fake.intents.size).toBe(1);
  });

  it("declines a card error with Stripe's message for the shopper", async () => {
    expect(
      await provider.authorize(
        request({ method: { paymentMethodId: 'pm_card_visa_chargeDeclinedInsufficientFunds' } }),
      ),
    ).toEqual({
      status: 'declined',
      message: 'Your card has insufficient funds.',
      field: 'payment',
    });
  });

  it('declines a card that needs 3-D Secure, and cancels its PaymentIntent', async () => {
    expect(
      await provider.authorize(request({ method: { paymentMethodId: 'pm_card_authenticationRequired' } })),
    ).toEqual({
      status: 'declined',
      message: 'This card needs extra authentication, which this store cannot do yet. Please use another card.',
      field: 'payment',
    });
    expect(fake.requests.map((r) => [r.path, r.headers['idempotency-key']])).toEqual([
      ['/v1/payment_intents', 'attempt-1'],
      ['/v1/payment_intents/pi_1/cancel', 'attempt-1:cancel'],
    ]);
    expect(fake.intents.get('pi_1')?.status).toBe('canceled');
  });

  it('asks for the card when no payment method came, and for it again when Stripe does not know it', async () => {
    for (const method of [{}, { paymentMethodId: '' }, { paymentMethodId: '   ' }] as Record<string, string>[]) {
      expect(await provider.authorize(request({ method }))).toEqual({
        status: 'declined',
        message: 'Enter your card details.',
        field: 'payment',
      });
    }
    expect(await provider.authorize(request({ method: { paymentMethodId: 'tok_visa&amount=1' } }))).toEqual({
      status: 'declined',
      message: 'Your card details could not be used. Please enter them again.',
      field: 'payment',
    });
    expect(fake.requests).toHaveLength(0);
    expect(await provider.authorize(request({ method: { paymentMethodId: 'pm_unknown' } }))).toEqual({
      status: 'declined',
      message: 'Your card details could not be used. Please enter them again.',
      field: 'payment',
    });
  });

  it('authorizes a zero amount without calling Stripe, and settles it without calling Stripe either', async () => {
    const free = await provider.authorize(request({ amount: 0, method: {} }));
    expect(free).toEqual({ status: 'authorized', reference: expect.stringMatching(/^free_[0-9a-f]{24}$/) });
    if (free.status !== 'authorized') throw new Error('not authorized');
    expect(await provider.capture(free.reference, 0, 'k:capture')).toEqual({ ok: true, value: undefined });
    expect(await provider.void(free.reference, 'k:void')).toEqual({ ok: true, value: undefined });
    expect(await provider.refund(free.reference, 0, 'k:refund')).toEqual({ ok: true, value: undefined });
    expect(fake.requests).toHaveLength(0);
  });

  it('captures the amount under its key; a retry, even with another key, is still success', async () => {
    await provider.authorize(request());
    expect(await provider.capture('pi_1', 4250, 'attempt-1:capture')).toEqual({ ok: true, value: undefined });
    const capture = fake.requests[1];
    expect([capture?.path, capture?.params, capture?.headers['idempotency-key']]).toEqual([
      '/v1/payment_intents/pi_1/capture',
      { amount_to_capture: '4250' },
      'attempt-1:capture',
    ]);
    expect(await provider.capture('pi_1', 4250, 'attempt-1:capture')).toEqual({ ok: true, value: undefined });
    expect(await provider.capture('pi_1', 4250, 'another-key')).toEqual({ ok: true, value: undefined });
    expect(fake.intents.get('pi_1')?.status).toBe('succeeded');
  });

  it('voids (cancels) an authorization, idempotently', async () => {
    await provider.authorize(request());
    expect(await provider.void('pi_1', 'attempt-1:void')).toEqual({ ok: true, value: undefined });
    expect(fake.requests[1]?.path).toBe('/v1/payment_intents/pi_1/cancel');
    expect(fake.requests[1]?.headers['idempotency-key']).toBe('attempt-1:void');
    expect(await provider.void('pi_1', 'another-key')).toEqual({ ok: true, value: undefined });
    expect(fake.intents.get('pi_1')?.status).toBe('canceled');
  });

  it('refunds a captured payment once, whatever the retries', async () => {
    await provider.authorize(request());
    await provider.capture('pi_1', 4250, 'attempt-1:capture');
    expect(await provider.refund('pi_1', 4250, 'pay-1:refund')).toEqual({ ok: true, value: undefined });
    const refund = fake.requests[2];
    expect([refund?.path, refund?.params, refund?.headers['idempotency-key']]).toEqual([
      '/v1/refunds',
      { payment_intent: 'pi_1', amount: '4250' },
      'pay-1:refund',
    ]);
    expect(await provider.refund('pi_1', 4250, 'pay-1:refund')).toEqual({ ok: true, value: undefined });
    expect(await provider.refund('pi_1', 4250, 'another-key')).toEqual({ ok: true, value: undefined });
    expect(fake.refunds).toBe(1);
  });

  describe('saved payment methods (subscriptions)', () => {
    const save = (paymentMethodId: string, idempotencyKey = 'sub-attempt-1') =>
      provider.savePaymentMethod!({ method: { paymentMethodId }, email: 'ada@example.com', idempotencyKey, now });
    const charge = (token: string, idempotencyKey = 'renewal:bill-1') =>
      provider.chargeSavedMethod!({
        amount: 1300,
        currency: 'USD',
        idempotencyKey,
        token,
        email: 'ada@example.com',
        description: 'Shop — subscription renewal',
        now,
      });

    it('saves a method: a customer created with it attached, once per key; the first payment is that customer’s, kept for later', async () => {
      const saved = await save('pm_card_visa');
      expect(saved).toEqual({
        status: 'saved',
        token: 'cus_1/pm_card_visa',
        firstPayment: { paymentMethodId: 'pm_card_visa', customerId: 'cus_1' },
      });
      const [sent] = fake.requests;
      expect([sent?.method, sent?.path, sent?.headers['idempotency-key'], sent?.headers.authorization]).toEqual([
        'POST',
        '/v1/customers',
        'sub-attempt-1:customer',
        `Bearer ${SECRET_KEY}`,
      ]);
      expect(sent?.params).toEqual({ email: 'ada@example.com', payment_method: 'pm_card_visa' });
      expect(fake.attachedTo.get('pm_card_visa')).toBe('cus_1');
      // A retried checkout: the same customer, not a second one.
      expect(await save('pm_card_visa')).toEqual(saved);
      expect(fake.customers.size).toBe(1);

      if (saved.status !== 'saved') throw new Error('not saved');
      expect(await provider.authorize(request({ method: saved.firstPayment }))).toEqual({
        status: 'authorized',
        reference: 'pi_1',
      });
      expect(fake.requests.at(-1)?.params).toMatchObject({
        customer: 'cus_1',
        payment_method: 'pm_card_visa',
        setup_future_usage: 'off_session',
        confirm: 'true',
      });
    });

    it('charges a saved method off-session: customer, payment_method, off_session=true, confirm=true, under the bill’s key; once per key', async () => {
      const saved = await save('pm_card_visa');
      if (saved.status !== 'saved') throw new Error('not saved');
      fake.requests.length = 0;
      expect(await charge(saved.token)).toEqual({ status: 'authorized', reference: 'pi_1' });
      expect(fake.requests).toHaveLength(1);
      const [sent] = fake.requests;
      expect([sent?.path, sent?.headers['idempotency-key'], sent?.headers['content-type']]).toEqual([
        '/v1/payment_intents',
        'renewal:bill-1',
        'application/x-www-form-urlencoded',
      ]);
      expect(sent?.params).toEqual({
        amount: '1300',
        currency: 'usd',
        customer: 'cus_1',
        payment_method: 'pm_card_visa',
        off_session: 'true',
        confirm: 'true',
        capture_method: 'manual',
        receipt_email: 'ada@example.com',
        description: 'Shop — subscription renewal',
      });
      // The same bill again (a run that died and is taken over): Stripe's first answer, no second charge.
      expect(await charge(saved.token)).toEqual({ status: 'authorized', reference: 'pi_1' });
      expect(fake.intents.size).toBe(1);
      // Captured like a checkout's authorization once the renewal's order is written.
      expect(await provider.capture('pi_1', 1300, 'renewal:bill-1:capture')).toEqual({ ok: true, value: undefined });
      expect(fake.intents.get('pi_1')?.status).toBe('succeeded');
    });

    it('maps a renewal the card no longer pays, or that wants the absent shopper, to declined with Stripe’s message', async () => {
      const failing = await save('pm_card_chargeCustomerFail', 'sub-attempt-2');
      expect(failing).toMatchObject({ status: 'saved', token: 'cus_1/pm_card_chargeCustomerFail' });
      if (failing.status !== 'saved') throw new Error('not saved');
      expect(await charge(failing.token, 'renewal:bill-2')).toEqual({
        status: 'declined',
        message: 'Your card was declined.',
        field: 'payment',
      });
      expect(fake.requests.at(-1)?.params).toMatchObject({ customer: 'cus_1', off_session: 'true', confirm: 'true' });

      const needs3ds = await save('pm_card_authenticationRequired', 'sub-attempt-3');
      if (needs3ds.status !== 'saved') throw new Error('not saved');
      expect(await charge(needs3ds.token, 'renewal:bill-3')).toEqual({
        status: 'declined',
        message: 'Your card was declined. This transaction requires authentication.',
        field: 'payment',
      });
      expect([...fake.intents.values()].map((i) => i.status)).toEqual([
        'requires_payment_method',
        'requires_payment_method',
      ]);
    });

    it('refuses what cannot be saved or charged: no card, a card Stripe declines, an unknown one, a token not its own', async () => {
      expect(await save('')).toEqual({ status: 'declined', message: 'Enter your card details.', field: 'payment' });
      expect(await save('tok_visa&customer=cus_9')).toEqual({
        status: 'declined',
        message: 'Your card details could not be used. Please enter them again.',
        field: 'payment',
      });
      expect(await charge('test_saved_abc')).toEqual({
        status: 'declined',
        message: 'Your card details could not be used. Please enter them again.',
        field: 'payment',
      });
      expect(fake.requests).toHaveLength(0);
      expect(await save('pm_card_chargeDeclined', 'sub-attempt-5')).toEqual({
        status: 'declined',
        message: 'Your card was declined.',
        field: 'payment',
      });
      expect(await save('pm_unknown', 'sub-attempt-6')).toEqual({
        status: 'declined',
        message: 'Your card details could not be used. Please enter them again.',
        field: 'payment',
      });
      expect(fake.customers.size).toBe(0);
      // A method that is not this customer's is Stripe's refusal: the card must be entered again, nothing charged.
      await save('pm_card_visa', 'sub-attempt-7');
      expect(await charge('cus_1/pm_card_authenticationRequired')).toEqual({
        status: 'declined',
        message: 'Your card details could not be used. Please enter them again.',
        field: 'payment',
      });
      expect(fake.intents.size).toBe(0);
    });

    it('fails (to be tried again) when Stripe cannot be reached', async () => {
      fake.silent.add('/v1/payment_intents');
      const quick = stripeProvider({ secretKey: SECRET_KEY, apiUrl: fake.url, timeoutMs: 300, maxNetworkRetries: 0 });
      const outcome = await quick.chargeSavedMethod!({
        amount: 1300,
        currency: 'USD',
        idempotencyKey: 'renewal:bill-4',
        token: 'cus_1/pm_card_visa',
        email: 'ada@example.com',
        description: 'x',
        now,
      });
      expect(outcome.status).toBe('failed');
    });
  });

  it("reports Stripe's refusals and references that are not its own", async () => {
    const captured = await provider.capture('pi_404', 100, 'k');
    expect(captured).toEqual({ ok: false, error: "Stripe: No such payment_intent: 'pi_404'" });
    await provider.authorize(request());
    expect(await provider.refund('pi_1', 4250, 'k:refund')).toEqual({
      ok: false,
      error: 'Stripe: This PaymentIntent has no charge to refund.',
    });
    expect(await provider.void('test_abc', 'k')).toEqual({
      ok: false,
      error: "'test_abc' is not a Stripe PaymentIntent",
    });
  });

  it('fails (nothing known to be charged) when Stripe cannot be reached or does not answer', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = stripeProvider({
      secretKey: SECRET_KEY,
      apiUrl: `http://127.0.0.1:${port}`,
      maxNetworkRetries: 0,
    });
    const outcome = await unreachable.authorize(request());
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringContaining('Stripe:') });

    fake.silent.add('/v1/payment_intents');
    const slow = stripeProvider({ secretKey: SECRET_KEY, apiUrl: fake.url, timeoutMs: 200, maxNetworkRetries: 1 });
    expect(await slow.authorize(request())).toMatchObject({ status: 'failed' });
    // The retry carried the same key: had Stripe taken the first one, it would have answered with it.
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual(['attempt-1', 'attempt-1']);
  });

  it('fails on a 5xx that outlasts the retries', async () => {
    fake.failNext(3);
    expect(await provider.authorize(request())).toEqual({
      status: 'failed',
      message: 'Stripe: An unknown error occurred',
    });
  });
});

// ---------------------------------------------------------------- the webhook

const WEBHOOK_SECRET = 'whsec_vitrine_test';

const intentEvent = (type: string, intentId: string, id = `evt_${Math.random().toString(36).slice(2)}`) =>
  JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2025-01-01',
    data: { object: { id: intentId, object: 'payment_intent', status: 'x' } },
  });
const refundEvent = (intentId: string, refunded = true) =>
  JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'charge.refunded',
    data: {
      object: {
        id: 'ch_1',
        object: 'charge',
        payment_intent: intentId,
        refunded,
        amount_refunded: refunded ? 4250 : 100,
      },
    },
  });
const signed = (payload: string, secret = WEBHOOK_SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

describe('verifyStripeWebhook', () => {
  const payload = intentEvent('payment_intent.succeeded', 'pi_1', 'evt_1');

  it('gives the event of a body signed with the secret', () => {
    const verified = verifyStripeWebhook(Buffer.from(payload), signed(payload), WEBHOOK_SECRET);
    expect(verified.ok && [verified.value.id, verified.value.type]).toEqual(['evt_1', 'payment_intent.succeeded']);
  });

  it('refuses a missing, unreadable, wrong or stale signature, and a body that was changed', () => {
    const body = Buffer.from(payload);
    expect(verifyStripeWebhook(body, undefined, WEBHOOK_SECRET)).toEqual({
      ok: false,
      error: 'The Stripe-Signature header is missing.',
    });
    expect(verifyStripeWebhook(body, '', WEBHOOK_SECRET)).toEqual({
      ok: false,
      error: 'The Stripe-Signature header is missing.',
    });
    expect(verifyStripeWebhook(body, 'garbage', WEBHOOK_SECRET)).toEqual({
      ok: false,
      error: 'The Stripe-Signature header cannot be read.',
    });
    const mismatch = {
      ok: false,
      error: 'The Stripe-Signature header does not match the request body and the webhook secret.',
    };
    expect(verifyStripeWebhook(body, signed(payload, 'whsec_other'), WEBHOOK_SECRET)).toEqual(mismatch);
    expect(verifyStripeWebhook(Buffer.from(payload.replace('pi_1', 'pi_2')), signed(payload), WEBHOOK_SECRET)).toEqual(
      mismatch,
    );
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(verifyStripeWebhook(body, stale, WEBHOOK_SECRET)).toEqual({
      ok: false,
      error: 'The Stripe-Signature header is too old (its timestamp is more than 5 minutes from now).',
    });
  });

  it('refuses a signed body that is not a JSON event', () => {
    expect(verifyStripeWebhook(Buffer.from('{nope'), signed('{nope'), WEBHOOK_SECRET)).toEqual({
      ok: false,
      error: 'The webhook body is not valid JSON.',
    });
    expect(verifyStripeWebhook(Buffer.from('{"id":1}'), signed('{"id":1}'), WEBHOOK_SECRET)).toEqual({
      ok: false,
      error: 'The webhook body is not a Stripe event.',
    });
  });
});

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  const ORDER_ID = 'order_0123456789abcdefgh';

  async function buildTestApp(secret: string | undefined): Promise<FastifyInstance> {
    const built = Fastify();
    // The app's own JSON parser, as buildApp sets it: the webhook's raw parser must not replace it elsewhere.
    registerJsonBodyParser(built);
    built.post('/echo', async (request) => ({ body: request.body }));
    registerPaymentWebhookRoutes(built, { db: getDb() }, { stripeWebhookSecret: secret });
    await built.ready();
    return built;
  }

  beforeAll(async () => {
    app = await buildTestApp(WEBHOOK_SECRET);
  });
  afterAll(() => app.close());

  beforeEach(async () => {
    const db = getDb();
    await db.deleteFrom('payments').execute();
    await db.deleteFrom('order_lines').execute();
    await db.deleteFrom('orders').execute();
    await seedSite(db, shopSite);
  });

  const T0 = '2026-01-01T00:00:00.000Z';

  async function insertPayment(
    status: PaymentStatus,
    reference = 'pi_1',
    options: { provider?: string; orderId?: string | null; id?: string } = {},
  ) {
    await getDb()
      .insertInto('payments')
      .values({
        id: options.id ?? `pay_${reference}_${options.provider ?? 'stripe'}`,
        site_id: 'shop',
        idempotency_key: `key-${reference}-${options.provider ?? 'stripe'}`,
        request_hash: 'hash',
        cart_id: 'cart-1',
        order_id: options.orderId ?? null,
        provider: options.provider ?? 'stripe',
        status,
        amount: 8000,
        currency: 'USD',
        provider_reference: reference,
        failure: null,
        created_at: T0,
        updated_at: T0,
      })
      .execute();
  }

  async function insertOrder() {
    await getDb()
      .insertInto('orders')
      .values({
        id: ORDER_ID,
        site_id: 'shop',
        number: 1,
        cart_id: 'cart-1',
        email: 'ada@example.com',
        status: 'paid',
        currency: 'USD',
        subtotal: 8000,
        shipping: 0,
        tax: 0,
        discount: 0,
        grand_total: 8000,
        prices_include_tax: 0,
        tax_name: 'Tax',
        shipping_address: null,
        shipping_option: null,
        coupon_code: null,
        payment_provider: 'stripe',
        created_at: T0,
        updated_at: T0,
      })
      .execute();
    const line = {
      order_id: ORDER_ID,
      item_id: 'limited',
      title: 'Limited print',
      attributes: '{}',
      additional_fields: '',
      additional_fields_summary: '[]',
      image: null,
    };
    await getDb()
      .insertInto('order_lines')
      .values([
        { ...line, position: 0, sku: 'limited-1', product_type: 1, quantity: 2, unit_price: 4000, line_total: 8000 },
        {
          ...line,
          position: 1,
          item_id: 'ebook',
          sku: 'ebook-1',
          title: 'E-book',
          product_type: 2,
          quantity: 1,
          unit_price: 0,
          line_total: 0,
        },
      ])
      .execute();
  }

  const post = (
    payload: string,
    signature: string | null = signed(payload),
    contentType = 'application/json; charset=utf-8',
    target = app,
  ) =>
    target.inject({
      method: 'POST',
      url: STRIPE_WEBHOOK_PATH,
      headers: { 'content-type': contentType, ...(signature !== null ? { 'stripe-signature': signature } : {}) },
      payload,
    });
  const payment = (id = 'pay_pi_1_stripe') =>
    getDb().selectFrom('payments').select(['status', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const order = () =>
    getDb().selectFrom('orders').select(['status']).where('id', '=', ORDER_ID).executeTakeFirstOrThrow();
  const stockOf = async (sku: string) =>
    (
      await getDb()
        .selectFrom('variants')
        .select('qty_in_stock')
        .where('site_id', '=', 'shop')
        .where('sku', '=', sku)
        .executeTakeFirstOrThrow()
    ).qty_in_stock;

  it(`${engine}: payment_intent.succeeded marks the payment captured; a replay changes nothing`, async () => {
    await insertPayment('authorized');
    const payload = intentEvent('payment_intent.succeeded', 'pi_1');
    const answer = await post(payload);
    expect([answer.statusCode, answer.json()]).toEqual([200, { received: true }]);
    const after = await payment();
    expect(after.status).toBe('captured');
    expect(after.updated_at).not.toBe(T0);
    expect(Date.now() - Date.parse(after.updated_at)).toBeLessThan(60_000);

    expect((await post(payload)).statusCode).toBe(200);
    expect(await payment()).toEqual(after);
  });

  it(`${engine}: a bad or missing signature is a 400 with a clear message, and nothing changes`, async () => {
    await insertPayment('authorized');
    const payload = intentEvent('payment_intent.succeeded', 'pi_1');
    const bad = await post(payload, signed(payload, 'whsec_wrong'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'The Stripe-Signature header does not match the request body and the webhook secret.',
    );
    const missing = await post(payload, null);
    expect([missing.statusCode, missing.json().message]).toEqual([400, 'The Stripe-Signature header is missing.']);
    // The body was re-serialized on the way (a proxy that parsed it): the bytes differ, so does the signature.
    const reformatted = await post(JSON.stringify(JSON.parse(payload), null, 2), signed(payload));
    expect(reformatted.statusCode).toBe(400);
    expect(await payment()).toEqual({ status: 'authorized', updated_at: T0 });
  });

  it(`${engine}: answers 404 'Stripe is not configured.' without a webhook secret`, async () => {
    const bare = await buildTestApp(undefined);
    try {
      await insertPayment('authorized');
      const payload = intentEvent('payment_intent.succeeded', 'pi_1');
      const answer = await post(payload, signed(payload), 'application/json', bare);
      expect([answer.statusCode, answer.json().message]).toEqual([404, 'Stripe is not configured.']);
      expect((await payment()).status).toBe('authorized');
    } finally {
      await bare.close();
    }
  });

  it(`${engine}: unknown events, and events for payments we do not have, answer 200 and change nothing`, async () => {
    await insertPayment('authorized');
    await insertPayment('authorized', 'pi_1', { provider: 'test', id: 'pay_test' });
    for (const payload of [
      intentEvent('customer.created', 'pi_1'),
      intentEvent('payment_intent.created', 'pi_1'),
      intentEvent('payment_intent.succeeded', 'pi_unknown'),
      refundEvent('pi_1', false), // a partial refund
    ]) {
      const answer = await post(payload);
      expect([answer.statusCode, answer.json()]).toEqual([200, { received: true }]);
    }
    expect(await payment()).toEqual({ status: 'authorized', updated_at: T0 });
    // Only Stripe's own payments are touched, even by a matching reference.
    await post(intentEvent('payment_intent.succeeded', 'pi_1'));
    expect((await payment('pay_test')).status).toBe('authorized');
  });

  it(`${engine}: payment_intent.canceled voids, payment_intent.payment_failed fails a pending one`, async () => {
    await insertPayment('authorized', 'pi_1');
    await insertPayment('pending', 'pi_2');
    await insertPayment('captured', 'pi_3');
    await post(intentEvent('payment_intent.canceled', 'pi_1'));
    await post(intentEvent('payment_intent.payment_failed', 'pi_2'));
    await post(intentEvent('payment_intent.payment_failed', 'pi_3'));
    expect((await payment('pay_pi_1_stripe')).status).toBe('voided');
    expect((await payment('pay_pi_2_stripe')).status).toBe('failed');
    expect((await payment('pay_pi_3_stripe')).status).toBe('captured');
  });

  it(`${engine}: charge.refunded refunds the payment and its order, putting the stock back once`, async () => {
    await insertOrder();
    await insertPayment('captured', 'pi_1', { orderId: ORDER_ID });
    const limited = await stockOf('limited-1');
    const payload = refundEvent('pi_1');
    expect((await post(payload)).json()).toEqual({ received: true });
    expect((await payment()).status).toBe('refunded');
    expect((await order()).status).toBe('refunded');
    expect(await stockOf('limited-1')).toBe(limited + 2);
    expect(await stockOf('ebook-1')).toBe(0); // unlimited: untouched

    // Replayed, or arriving late and out of order: nothing moves back, nothing is restocked twice.
    await post(payload);
    await post(intentEvent('payment_intent.succeeded', 'pi_1'));
    await post(intentEvent('payment_intent.canceled', 'pi_1'));
    expect((await payment()).status).toBe('refunded');
    expect(await stockOf('limited-1')).toBe(limited + 2);
  });

  it(`${engine}: the app's JSON parser still serves every other route`, async () => {
    const echoed = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":[1,2]}',
    });
    expect(echoed.json()).toEqual({ body: { a: [1, 2] } });
    const poisoned = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"x":1}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });

  it(`${engine}: another media type is refused (415)`, async () => {
    const payload = intentEvent('payment_intent.succeeded', 'pi_1');
    await insertPayment('authorized');
    const answer = await post(payload, signed(payload), 'text/plain');
    expect(answer.statusCode).toBe(415);
    expect((await payment()).status).toBe('authorized');
  });
});
