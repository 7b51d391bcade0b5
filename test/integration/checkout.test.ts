/**
 * Checkout through the API on SQLite and PostgreSQL: the quote, placing an order (stock, cart, order rows, e-mails in
 * the outbox), each refusal leaving nothing behind, the idempotency key, and the races the issue names — 50 shoppers
 * for the last unit, 50 for a one-use coupon, 20 copies of one request — each repeated.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { paymentProviderFor } from '../../src/modules/payments';
import { beginAttempt, findAttempt, rememberReference } from '../../src/modules/payments/attempts';
import { releaseAbandonedPayments } from '../../src/modules/payments/reconcile';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { smtpTransport } from '../../src/platform/mail/transport';
import { startSmtpServer } from '../support/smtpServer';
import type { PaymentProvider } from '../../src/modules/payments/provider';
import { forEachEngine } from '../support/engines';
import { checkoutSite, DECLINED_CARD, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const QUOTE_API = '/api/commerce/checkout/quote';
const ORDERS_API = '/api/commerce/checkout/orders';
const OUT_OF_STOCK = 'Sorry, we do not have enough of that item available.';

/** The test provider, counting what it is asked to do. */
function countingProvider() {
  const inner = paymentProviderFor({ provider: 'test', manualInstructions: '' }, {});
  const calls = { authorize: 0, capture: 0, void: 0, refund: 0 };
  const provider: PaymentProvider = {
    name: inner.name,
    notice: inner.notice,
    authorize: (req) => (calls.authorize++, inner.authorize(req)),
    capture: (ref, amount, key) => (calls.capture++, inner.capture(ref, amount, key)),
    void: (ref, key) => (calls.void++, inner.void(ref, key)),
    refund: (ref, amount, key) => (calls.refund++, inner.refund(ref, amount, key)),
  };
  return { provider, calls, reset: () => Object.assign(calls, { authorize: 0, capture: 0, void: 0, refund: 0 }) };
}

let keyCounter = 0;
const newKey = () => `key-${Date.now().toString(36)}-${(keyCounter++).toString(36)}-abcdefgh`;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  const payments = countingProvider();

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    app = sendCrumbs(
      await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000, paymentsFor: () => payments.provider }),
    );
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    const db = getDb();
    for (const table of [
      'outbox',
      'coupon_email_uses',
      'coupon_usage',
      'payments',
      'order_lines',
      'orders',
      'cart_entries',
      'carts',
    ] as const) {
      await db.deleteFrom(table).execute();
    }
    await db.updateTable('variants').set({ qty_in_stock: 1 }).where('sku', '=', 'ooak-1').execute();
    await db.updateTable('variants').set({ qty_in_stock: 7 }).where('sku', '=', 'limited-1').execute();
    payments.reset();
  });

  const json = (method: 'POST' | 'GET', url: string, payload?: unknown, cookie?: string) =>
    app.inject({
      method,
      url,
      headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const cartCookieOf = (response: LightMyRequestResponse) =>
    `CART=${response.cookies.find((c) => c.name === 'CART')!.value}`;
  /** A new cart holding these lines; its cookie. */
  const cartWith = async (...lines: { itemId: string; sku: string; quantity: number }[]) => {
    let cookie: string | undefined;
    for (const line of lines) {
      const added = await json('POST', ENTRIES_API, { ...line, additionalFields: '' }, cookie);
      expect(added.statusCode, added.body).toBe(200);
      cookie ??= cartCookieOf(added);
    }
    return cookie!;
  };
  const order = (cookie: string, overrides: Record<string, unknown> = {}) =>
    json(
      'POST',
      ORDERS_API,
      {
        idempotencyKey: newKey(),
        email: 'ada@example.com',
        shippingAddress: NEW_YORK,
        shippingOptionId: 'standard',
        payment: TEST_CARD,
        ...overrides,
      },
      cookie,
    );
  const stockOf = async (sku: string) =>
    (await getDb().selectFrom('variants').select('qty_in_stock').where('sku', '=', sku).executeTakeFirstOrThrow())
      .qty_in_stock;
  const count = async (table: 'orders' | 'order_lines' | 'payments' | 'outbox' | 'coupon_usage') =>
    Number(
      (
        await getDb()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('the quote', () => {
    it('prices the cart for the choices: shipping by country and threshold, New York tax, a coupon', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 }); // $40.00
      const plain = (await json('POST', QUOTE_API, {}, cookie)).json();
      expect(plain.cart.entries).toHaveLength(1);
      expect(plain.requiresShipping).toBe(true);
      expect(plain.shippingOptions.map((o: { id: string }) => o.id)).toEqual(['standard', 'express', 'canada-post']);
      expect(plain.totals).toMatchObject({
        subtotalCents: 4000,
        shippingCents: 600,
        taxCents: 0,
        discountCents: 0,
        grandTotalCents: 4600,
      });

      const ny = (
        await json(
          'POST',
          QUOTE_API,
          { shippingAddress: { country: 'US', region: 'NY' }, shippingOptionId: 'express', couponCode: 'welcome10' },
          cookie,
        )
      ).json();
      expect(ny.shippingOptions.map((o: { id: string }) => o.id)).toEqual(['standard', 'express']);
      expect(ny.selectedShippingOptionId).toBe('express');
      expect(ny.coupon).toEqual({ code: 'WELCOME10', discountCents: 400 });
      // Tax on the discounted subtotal: 8.875 % of $36.00 = $3.195 → $3.20.
      expect(ny.totals).toMatchObject({
        subtotalCents: 4000,
        discountCents: 400,
        shippingCents: 1500,
        taxCents: 320,
        grandTotalCents: 5420,
        taxName: 'Sales tax',
      });

      const expired = (await json('POST', QUOTE_API, { couponCode: 'OLD' }, cookie)).json();
      expect(expired.coupon).toBeNull();
      expect(typeof expired.couponError).toBe('string');
      expect(expired.totals.discountCents).toBe(0);
    });

    it('answers the empty cart without a cookie, and refuses unknown keys and over-long values', async () => {
      const empty = await json('POST', QUOTE_API, {});
      expect(empty.statusCode).toBe(200);
      expect(empty.json().cart.entries).toEqual([]);
      const unknown = await json('POST', QUOTE_API, { emial: 'x' });
      expect(unknown.statusCode).toBe(400);
      const long = await json('POST', QUOTE_API, { couponCode: 'x'.repeat(65) });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe('couponCode must be at most 64 characters.');
    });
  });

  describe('placing an order', () => {
    it('takes the payment and the stock, writes the order and its e-mails, and closes the cart', async () => {
      const cookie = await cartWith(
        { itemId: 'limited', sku: 'limited-1', quantity: 2 },
        { itemId: 'ebook', sku: 'ebook-1', quantity: 1 },
      );
      const placed = await order(cookie);
      expect(placed.statusCode, placed.body).toBe(201);
      const body = placed.json();
      expect(body.order.number).toBe(1);
      expect(body.orderUrl).toBe(`/checkout/order/${body.order.id}`);
      expect(body.order.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      // The cart is forgotten by the browser…
      expect(placed.cookies.find((c) => c.name === 'CART')?.value).toBe('');
      // …and bought on the server: the old cookie names no open cart any more.
      const after = (await json('GET', '/api/commerce/shopping-cart', undefined, cookie)).json();
      expect(after.entries).toEqual([]);
      const cart = await getDb().selectFrom('carts').selectAll().executeTakeFirstOrThrow();
      expect(cart).toMatchObject({ is_purchased: 1, order_id: body.order.id });

      expect(await stockOf('limited-1')).toBe(5);
      const row = await getDb().selectFrom('orders').selectAll().executeTakeFirstOrThrow();
      // $80.00 + $9.99 = $89.99 ≥ $75: standard shipping is free; NY tax 8.875 % of $89.99 = $7.99.
      expect(row).toMatchObject({
        status: 'paid',
        email: 'ada@example.com',
        subtotal: 8999,
        shipping: 0,
        tax: 799,
        discount: 0,
        grand_total: 9798,
        tax_name: 'Sales tax',
      });
      expect(await count('order_lines')).toBe(2);
      const payment = await getDb().selectFrom('payments').selectAll().executeTakeFirstOrThrow();
      expect(payment).toMatchObject({ status: 'captured', amount: 9798, order_id: body.order.id });
      expect(payments.calls).toMatchObject({ authorize: 1, capture: 1, void: 0 });
      const mails = await getDb()
        .selectFrom('outbox')
        .select(['kind', 'to_address', 'status'])
        .orderBy('kind')
        .execute();
      expect(mails).toEqual([
        { kind: 'new-order', to_address: 'orders@shop.test', status: 'pending' },
        { kind: 'order-confirmation', to_address: 'ada@example.com', status: 'pending' },
      ]);
    });

    it('delivers the confirmation to the shopper and the new-order notice to the shop through a real SMTP server, with the page’s totals', async () => {
      const smtp = await startSmtpServer();
      try {
        const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
        const placed = await order(cookie, { couponCode: 'WELCOME10', email: 'grace@example.com' });
        expect(placed.statusCode, placed.body).toBe(201);
        const { number, id } = placed.json().order;
        expect(await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'))).toMatchObject({
          sent: 2,
          failed: 0,
        });
        const toShopper = smtp.received.find((m) => m.envelopeTo.includes('grace@example.com'))!;
        const toShop = smtp.received.find((m) => m.envelopeTo.includes('orders@shop.test'))!;
        expect(toShopper.headers.get('subject')).toContain(`#${number}`);
        // $40.00 − $4.00 + $6.00 shipping + 8.875 % of $36.00 ($3.20) = $45.20: the quote's, the order's and the mail's total.
        expect(toShopper.text).toContain('$45.20');
        expect(toShopper.text).toContain(`/checkout/order/${id}`);
        expect(toShopper.html).toContain('Limited print');
        expect(toShop.text).toContain('grace@example.com');
        expect(toShop.text).toContain('$45.20');
        const row = await getDb()
          .selectFrom('orders')
          .select('grand_total')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row.grand_total).toBe(4520);
      } finally {
        await smtp.close();
      }
    });

    it('numbers orders placed at once uniquely, in the order they were taken; on PostgreSQL an order refused in its transaction leaves its number unused', async () => {
      const numbersOf = (answers: { statusCode: number; json: () => { order: { number: number } } }[]) =>
        answers.filter((a) => a.statusCode === 201).map((a) => a.json().order.number);
      const carts: string[] = [];
      for (let i = 0; i < 5; i++) carts.push(await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 }));
      const together = numbersOf(await Promise.all(carts.map((cookie) => order(cookie))));
      expect(together).toHaveLength(5);
      expect(new Set(together).size).toBe(5);
      // Five shoppers race for the last unit: one order; the others are refused, some inside their transaction.
      const racing: string[] = [];
      for (let i = 0; i < 5; i++) racing.push(await cartWith({ itemId: 'one-of-a-kind', sku: 'ooak-1', quantity: 1 }));
      const race = await Promise.all(racing.map((cookie) => order(cookie)));
      const won = numbersOf(race);
      expect(won).toHaveLength(1);
      const before = Math.max(...together, ...won);
      const next = numbersOf([await order(await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 }))])[0]!;
      if (engine === 'sqlite') expect(next).toBe(before + 1);
      else {
        // The numbers the refused orders took are not given again: at most one per refused shopper.
        expect(next).toBeGreaterThan(before);
        expect(next - before - 1).toBeLessThanOrEqual(race.filter((a) => a.statusCode !== 201).length);
      }
      expect(new Set([...together, ...won, next]).size).toBe(7);
    });

    it('refuses a declined card next to the card field, and nothing remains', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const declined = await order(cookie, { payment: DECLINED_CARD });
      expect(declined.statusCode).toBe(402);
      expect(declined.json()).toMatchObject({
        code: 'payment-declined',
        message: 'Your card was declined.',
        fields: { cardNumber: 'Your card was declined.' },
      });
      expect(await stockOf('limited-1')).toBe(7);
      expect(await count('orders')).toBe(0);
      expect(await count('outbox')).toBe(0);
      // The cart is still there to pay with another card.
      expect((await order(cookie)).statusCode).toBe(201);
    });

    it('refuses a line that sold out since it was added, naming the line, without charging', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 3 });
      await getDb().updateTable('variants').set({ qty_in_stock: 2 }).where('sku', '=', 'limited-1').execute();
      const refused = await order(cookie);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'out-of-stock',
        message: OUT_OF_STOCK,
        lines: [{ sku: 'limited-1', message: OUT_OF_STOCK }],
      });
      expect(payments.calls.authorize).toBe(0);
      expect(await stockOf('limited-1')).toBe(2);
      expect(await count('orders')).toBe(0);
    });

    it('refuses invalid details field by field, and an invalid coupon next to the coupon', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const bad = await order(cookie, {
        email: 'not-an-email',
        shippingAddress: { ...NEW_YORK, city: '', postalCode: '1234' },
      });
      expect(bad.statusCode).toBe(400);
      const body = bad.json();
      expect(body.code).toBe('checkout-refused');
      expect(body.fields.email).toBe('Email is not valid. Email addresses should follow the format email@example.com.');
      expect(body.fields.city).toBe('Required');
      expect(body.fields.postalCode).toBe('ZIP Codes need to be 5 digits.');
      const coupon = await order(cookie, { couponCode: 'NOPE' });
      expect(coupon.statusCode).toBe(400);
      expect(Object.keys(coupon.json().fields)).toEqual(['couponCode']);
      expect(payments.calls.authorize).toBe(0);
      expect(await count('orders')).toBe(0);
      expect(await count('payments')).toBe(0);
    });

    it('refuses an empty cart, a missing cookie and a missing idempotency key', async () => {
      const none = await order('CART=AAAAAAAAAAAAAAAAAAAAAA');
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe('You have nothing in your shopping cart.');
      // A cart that is there but whose lines were all removed: read (PostgreSQL: with its lines, in one statement) as empty.
      const emptied = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      await getDb().deleteFrom('cart_entries').where('cart_id', '=', emptied.slice('CART='.length)).execute();
      const quote = await json('POST', QUOTE_API, { email: 'ada@example.com' }, emptied);
      expect(quote.statusCode, quote.body).toBe(200);
      expect(quote.json().cart.entries).toEqual([]);
      expect(quote.json().cart.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const empty = await order(emptied);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('You have nothing in your shopping cart.');
      const noKey = await json('POST', ORDERS_API, { email: 'a@b.co' });
      expect(noKey.statusCode).toBe(400);
      expect(noKey.json().message).toBe('idempotencyKey is required.');
    });

    it('counts a once-per-e-mail coupon per address', async () => {
      const first = await order(await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 }), {
        couponCode: 'PEREMAIL',
      });
      expect(first.statusCode, first.body).toBe(201);
      const again = await order(await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 }), {
        couponCode: 'peremail',
        email: 'ADA@example.com',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().fields.couponCode).toBe('You have already used this coupon.');
      const other = await order(await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 }), {
        couponCode: 'PEREMAIL',
        email: 'grace@example.com',
      });
      expect(other.statusCode).toBe(201);
    });
  });

  describe('a shop whose payments are not set up', () => {
    it('answers 503 with a plain message when the site pays with Stripe but no key is set, and stores nothing', async () => {
      const stripeSite = {
        ...checkoutSite,
        website: {
          ...checkoutSite.website,
          id: 'stripe-shop',
          domains: ['stripe.test'],
          default: false,
          store: { checkout: { ...checkoutSite.website.store!.checkout, payments: { provider: 'stripe' as const } } },
        },
        products: checkoutSite.products!.map((p) => ({
          ...p,
          variants: p.variants.map((v) => ({ ...v, sku: `s-${v.sku}` })),
        })),
      };
      await seedSite(getDb(), stripeSite);
      const plain = sendCrumbs(await buildApp({ db: getDb(), engine }));
      try {
        const headers = { host: 'stripe.test', 'content-type': 'application/json' };
        const added = await plain.inject({
          method: 'POST',
          url: ENTRIES_API,
          headers,
          payload: JSON.stringify({ itemId: 'ebook', sku: 's-ebook-1', quantity: 1 }),
        });
        const cookie = cartCookieOf(added);
        const placed = await plain.inject({
          method: 'POST',
          url: ORDERS_API,
          headers: { ...headers, cookie },
          payload: JSON.stringify({
            idempotencyKey: newKey(),
            email: 'ada@example.com',
            payment: { paymentMethodId: 'pm_card_visa' },
          }),
        });
        expect(placed.statusCode).toBe(503);
        expect(placed.json().message).toBe('This shop cannot take payments right now. Please try again later.');
        expect(await count('orders')).toBe(0);
        expect(await count('payments')).toBe(0);
      } finally {
        await plain.close();
      }
    });
  });

  describe('checkouts that never finished', () => {
    it('voids an authorization whose process died before the order was written, and closes the attempt', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const cartId = cookie.slice('CART='.length);
      const started = new Date(Date.now() - 11 * 60_000);
      const base = {
        siteId: 'shop',
        requestHash: 'h',
        cartId,
        provider: 'test',
        amount: 4600,
        currency: 'USD',
        now: started,
      };
      const held = await beginAttempt(getDb(), { ...base, idempotencyKey: 'died-after-authorize-0001' });
      await rememberReference(getDb(), held.attempt.id, 'test_abc');
      const lost = await beginAttempt(getDb(), { ...base, idempotencyKey: 'died-before-answer-00001' });
      const recent = await beginAttempt(getDb(), {
        ...base,
        idempotencyKey: 'still-running-0000000001',
        now: new Date(),
      });

      const { released } = await releaseAbandonedPayments(getDb(), async () => payments.provider);
      expect(released).toBe(2);
      expect(payments.calls.void).toBe(1);
      expect((await findAttempt(getDb(), 'shop', 'died-after-authorize-0001'))?.status).toBe('voided');
      expect((await findAttempt(getDb(), 'shop', 'died-before-answer-00001'))?.status).toBe('failed');
      expect((await findAttempt(getDb(), 'shop', 'still-running-0000000001'))?.status).toBe('pending');
      // The shopper's retry with the dead attempt's key is told to try again, not left waiting.
      expect(lost.created && recent.created).toBe(true);
      const retried = await order(cookie, { idempotencyKey: 'died-after-authorize-0001' });
      expect(retried.statusCode).toBe(422); // other details than the attempt's (request hash 'h')
      expect(await count('orders')).toBe(0);
    });
  });

  describe('idempotency and races', () => {
    it('makes one order and one charge from 20 copies of one request sent at once', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const key = newKey();
      const answers = await Promise.all(Array.from({ length: 20 }, () => order(cookie, { idempotencyKey: key })));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => a.json().order.id)).size).toBe(1);
      expect(await count('orders')).toBe(1);
      expect(await count('payments')).toBe(1);
      expect(payments.calls).toMatchObject({ authorize: 1, capture: 1 });
      expect(await stockOf('limited-1')).toBe(6);
      // The same key with other details is refused, not taken for the first order.
      const reused = await order(cookie, { idempotencyKey: key, email: 'someone@example.com' });
      expect(reused.statusCode).toBe(422);
    });

    it('answers a key used before with its first outcome, whatever its cart has become since', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      payments.reset();
      const declinedKey = newKey();
      const declined = await order(cookie, { idempotencyKey: declinedKey, payment: DECLINED_CARD });
      expect(declined.statusCode).toBe(402);
      // Sold out since: the same key still answers the declined card, and asks the provider nothing.
      const stock = await stockOf('limited-1');
      await getDb().updateTable('variants').set({ qty_in_stock: 0 }).where('sku', '=', 'limited-1').execute();
      const retried = await order(cookie, { idempotencyKey: declinedKey, payment: DECLINED_CARD });
      expect(retried.statusCode).toBe(402);
      expect(retried.json()).toEqual(declined.json());
      await getDb().updateTable('variants').set({ qty_in_stock: stock }).where('sku', '=', 'limited-1').execute();
      // Placed: its cart is bought, and the same key answers the same order.
      const placedKey = newKey();
      const placed = await order(cookie, { idempotencyKey: placedKey });
      expect(placed.statusCode).toBe(201);
      const again = await order(cookie, { idempotencyKey: placedKey });
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual(placed.json());
      expect(payments.calls).toMatchObject({ authorize: 2, capture: 1 });
    });

    it(
      'sells the last unit to exactly one of 50 shoppers ordering at once, 20 times over',
      { timeout: 240_000 },
      async () => {
        for (let round = 0; round < 20; round++) {
          await getDb().updateTable('variants').set({ qty_in_stock: 1 }).where('sku', '=', 'ooak-1').execute();
          const carts: string[] = [];
          // Each shopper added it while it was in stock.
          for (let i = 0; i < 50; i++)
            carts.push(await cartWith({ itemId: 'one-of-a-kind', sku: 'ooak-1', quantity: 1 }));
          payments.reset();
          const answers = await Promise.all(carts.map((cookie) => order(cookie)));
          const statuses = answers.map((a) => a.statusCode);
          expect(statuses.filter((s) => s === 201)).toHaveLength(1);
          expect(statuses.filter((s) => s === 409)).toHaveLength(49);
          for (const refused of answers.filter((a) => a.statusCode === 409))
            expect(refused.json().message).toBe(OUT_OF_STOCK);
          expect(await stockOf('ooak-1')).toBe(0);
          expect(
            await getDb()
              .selectFrom('orders')
              .select('id')
              .where(
                'cart_id',
                'in',
                carts.map((c) => c.slice(5)),
              )
              .execute(),
          ).toHaveLength(1);
          // Every authorization that lost the race was voided; only the winner's was captured.
          expect(payments.calls.capture).toBe(1);
          expect(payments.calls.void).toBe(payments.calls.authorize - 1);
        }
      },
    );

    it('lets exactly one of 50 shoppers use a one-use coupon, 20 times over', { timeout: 240_000 }, async () => {
      for (let round = 0; round < 20; round++) {
        await getDb().deleteFrom('coupon_usage').execute();
        const carts: string[] = [];
        for (let i = 0; i < 50; i++) carts.push(await cartWith({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 }));
        const answers = await Promise.all(carts.map((cookie) => order(cookie, { couponCode: 'ONCE' })));
        const placed = answers.filter((a) => a.statusCode === 201);
        expect(placed).toHaveLength(1);
        for (const refused of answers.filter((a) => a.statusCode !== 201)) {
          expect(refused.statusCode).toBe(400);
          expect(refused.json().fields.couponCode).toBe('This coupon has been used up.');
        }
        const usage = await getDb()
          .selectFrom('coupon_usage')
          .select('uses')
          .where('code', '=', 'ONCE')
          .executeTakeFirstOrThrow();
        expect(usage.uses).toBe(1);
      }
    });

    it('takes the stock of its lines in SKU order, as an import locks them: the two wait for each other, never deadlock', async () => {
      // A cart whose lines are not in SKU order: the tee (t…) first, the print (l…) second.
      const cookie = await cartWith(
        { itemId: 'tee', sku: 'tee-s-blue', quantity: 1 },
        { itemId: 'limited', sku: 'limited-1', quantity: 1 },
      );
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let placing: Promise<LightMyRequestResponse> | undefined;
      // Another transaction taking the same rows in SKU order, as `vitrine import` does (src/modules/site/sites.ts).
      const other = getDb()
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('variants')
            .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '+', 0) }))
            .where('sku', '=', 'limited-1')
            .execute();
          placing = order(cookie);
          // On PostgreSQL the order now waits for 'limited-1' (taken first) and holds nothing the other needs.
          await released;
          await trx
            .updateTable('variants')
            .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '+', 0) }))
            .where('sku', '=', 'tee-s-blue')
            .execute();
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await expect(other).resolves.toBeUndefined();
      const placed = await placing!;
      expect(placed.statusCode, placed.body).toBe(201);
    });
  });

  describe('a cart written while its order waits for it', () => {
    /**
     * Another transaction writes the cart as an add does — the cart's row first (its lock), then, with `line`, a new
     * line — and commits while the order waits for the cart. The order's answer.
     */
    const orderDuringChange = async (cookie: string, line: boolean): Promise<LightMyRequestResponse> => {
      const token = cookie.slice('CART='.length);
      let placing: Promise<LightMyRequestResponse> | undefined;
      await getDb()
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('carts')
            .set({ updated_at: new Date().toISOString() })
            .where('id', '=', token)
            .execute();
          if (line) {
            await trx
              .insertInto('cart_entries')
              .values({
                id: 'added-while-placing',
                cart_id: token,
                item_id: 'tee',
                sku: 'tee-s-blue',
                quantity: 1,
                additional_fields: '',
                unit_price: 2500,
                // Later than the cart's first line even within the same millisecond (lines are ordered by creation,
                // then by their random ids).
                created_at: new Date(Date.now() + 1).toISOString(),
              })
              .execute();
          }
          placing = order(cookie);
          // On PostgreSQL the order now waits for the cart's row (its transaction's first statement).
          await new Promise((resolve) => setTimeout(resolve, 300));
        });
      return placing!;
    };
    const skusOf = async (orderId: string) =>
      (
        await getDb()
          .selectFrom('order_lines')
          .select('sku')
          .where('order_id', '=', orderId)
          .orderBy('position')
          .execute()
      ).map((l) => l.sku);

    it('refuses the order when a line was added meanwhile (the lines are read after the lock), and writes nothing', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const refused = await orderDuringChange(cookie, true);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toBe(
        'Your cart changed while you were checking out. Please review your order and place it again.',
      );
      expect(await count('orders')).toBe(0);
      expect(await stockOf('limited-1')).toBe(7);
      const cart = await getDb()
        .selectFrom('carts')
        .select(['is_purchased', 'order_id'])
        .where('id', '=', cookie.slice('CART='.length))
        .executeTakeFirstOrThrow();
      expect(cart).toEqual({ is_purchased: 0, order_id: null });
      expect(payments.calls).toMatchObject({ authorize: 1, capture: 0, void: 1 });
      // Placed again, the order has both lines.
      const placed = await order(cookie);
      expect(placed.statusCode, placed.body).toBe(201);
      expect(await skusOf(placed.json().order.id)).toEqual(['limited-1', 'tee-s-blue']);
    });

    it('places the order when the cart was written meanwhile but its lines are the same', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const placed = await orderDuringChange(cookie, false);
      expect(placed.statusCode, placed.body).toBe(201);
      expect(await skusOf(placed.json().order.id)).toEqual(['limited-1']);
      const cart = await getDb()
        .selectFrom('carts')
        .select(['is_purchased', 'order_id'])
        .where('id', '=', cookie.slice('CART='.length))
        .executeTakeFirstOrThrow();
      expect(cart).toEqual({ is_purchased: 1, order_id: placed.json().order.id });
      expect(await stockOf('limited-1')).toBe(6);
    });
  });

  describe('the checkout without JavaScript: the details, then the payment', () => {
    const formPost = (cookie: string, fields: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/checkout',
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `${cookie}; crumb=${TEST_CRUMB}`,
        },
        payload: new URLSearchParams({ crumb: TEST_CRUMB, ...fields }).toString(),
      });
    const shownTotalOf = (html: string) => /name="shownTotal" value="(\d*)"/.exec(html)?.[1];
    const details = { email: 'ada@example.com', ...NEW_YORK, shippingOptionId: 'express' };
    const taxed = 4000 + 1500 + Math.round(4000 * 0.08875);

    it('GET asks for the details first: no card field, no Place order', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const page = await app.inject({ method: 'GET', url: '/checkout', headers: { host: SHOP_HOST, cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Continue to payment');
      expect(page.body).not.toContain('name="cardNumber"');
      expect(page.body).not.toContain('>Place order<');
    });

    it('Continue to payment shows the taxed total with the card fields; one Place order with it pays', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 }); // $40.00
      const step = await formPost(cookie, { intent: 'details', ...details });
      expect(step.statusCode, step.body).toBe(200);
      expect(step.body).toContain('name="cardNumber"');
      expect(step.body).toContain('>Place order<');
      expect(step.body).toContain('name="step" value="payment"');
      expect(shownTotalOf(step.body)).toBe(String(taxed));
      // What was given comes back as hidden fields (the card never does).
      expect(step.body).toContain('<input type="hidden" name="postalCode" value="10001"/>');
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(step.body)![1]!;
      const placed = await formPost(cookie, {
        intent: 'place',
        step: 'payment',
        idempotencyKey: key,
        ...details,
        ...TEST_CARD,
        shownTotal: shownTotalOf(step.body)!,
      });
      expect(placed.statusCode, placed.body).toBe(303);
      const stored = await getDb().selectFrom('orders').select('grand_total').executeTakeFirstOrThrow();
      expect(Number(stored.grand_total)).toBe(taxed);
    });

    it('details that cannot be used stay on the details step, each message by its field; a bad coupon too', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const missing = await formPost(cookie, { intent: 'details', email: 'not-an-email', country: 'US' });
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain('Please check the details marked below.');
      expect(missing.body).toContain('id="checkout-email-error"');
      expect(missing.body).not.toContain('name="cardNumber"');
      const coupon = await formPost(cookie, { intent: 'details', ...details, couponCode: 'NOPE' });
      expect(coupon.statusCode).toBe(400);
      expect(coupon.body).toContain('id="checkout-couponCode-error"');
      expect(coupon.body).not.toContain('name="cardNumber"');
      expect(await count('orders')).toBe(0);
    });

    it('Change goes back to the details with what was given; Apply on the payment step stays there', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const back = await formPost(cookie, { intent: 'edit', ...details });
      expect(back.statusCode).toBe(200);
      expect(back.body).toContain('Continue to payment');
      expect(back.body).toContain('value="1 Main Street"');
      const applied = await formPost(cookie, { intent: 'quote', step: 'payment', ...details, couponCode: 'WELCOME10' });
      expect(applied.statusCode).toBe(200);
      expect(applied.body).toContain('name="cardNumber"');
      expect(applied.body).toContain('data-total="discount"');
      // A forged payment step with details that cannot be used goes back to them.
      const forged = await formPost(cookie, { intent: 'quote', step: 'payment', email: '' });
      expect(forged.statusCode).toBe(200);
      expect(forged.body).not.toContain('name="cardNumber"');
    });

    it('a refused card comes back to the payment step, the card empty; a change since the page (the cart) is a 409 with the new total', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const declined = await formPost(cookie, {
        intent: 'place',
        step: 'payment',
        idempotencyKey: newKey(),
        ...details,
        ...DECLINED_CARD,
        shownTotal: String(taxed),
      });
      expect(declined.statusCode).toBe(402);
      expect(declined.body).toContain('name="step" value="payment"');
      expect(declined.body).not.toContain(DECLINED_CARD.cardNumber);
      await json(
        'POST',
        ENTRIES_API,
        { itemId: 'limited', sku: 'limited-1', quantity: 1, additionalFields: '' },
        cookie,
      );
      const changed = await formPost(cookie, {
        intent: 'place',
        step: 'payment',
        idempotencyKey: newKey(),
        ...details,
        ...TEST_CARD,
        shownTotal: String(taxed),
      });
      expect(changed.statusCode).toBe(409);
      expect(changed.body).toContain('Your total is now $');
      expect(changed.body).toContain('name="step" value="payment"');
      expect(await count('orders')).toBe(0);
      expect(payments.calls.capture).toBe(0);
    });

    it('bad input to the steps is never a 500', async () => {
      const cookie = await cartWith({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const bad: Record<string, string>[] = [
        { intent: 'details' },
        { intent: 'details', email: 'a\u0000b' },
        { intent: 'details', couponCode: 'x'.repeat(5000) },
        { intent: 'edit', step: 'payment' },
        { intent: 'quote', step: 'nonsense' },
        { intent: 'details', step: 'payment', country: 'ZZ', shippingOptionId: 'nope' },
      ];
      for (const fields of bad) {
        const answer = await formPost(cookie, fields);
        expect(answer.statusCode, JSON.stringify(fields)).toBeLessThan(500);
      }
      const noCart = await app.inject({
        method: 'POST',
        url: '/checkout',
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `crumb=${TEST_CRUMB}`,
        },
        payload: new URLSearchParams({ crumb: TEST_CRUMB, intent: 'details', ...details }).toString(),
      });
      expect(noCart.statusCode).toBeLessThan(500);
      expect(await count('orders')).toBe(0);
    });
  });
});
