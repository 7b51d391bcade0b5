/**
 * Subscriptions on SQLite and PostgreSQL: the subscription cart call (shapes, the §5 refusals with their texts, bad
 * input), the subscription checkout posted as a plain form, renewals (stock, e-mail, declined → past due, sold out →
 * not charged, completed after its cycles), 20 billing runs at once → one order per period, and the cancel link.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { paymentProviderFor } from '../../src/modules/payments';
import type { PaymentProvider } from '../../src/modules/payments/provider';
import { billDueSubscriptions } from '../../src/modules/subscriptions/billing';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { newOrderEmail } from '../../src/modules/orders/mail';
import type { MailMessage } from '../../src/platform/mail/transport';
import { getOrder } from '../../src/modules/orders/orders';
import { getSite } from '../../src/modules/site/sites';
import { forEachEngine } from '../support/engines';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import {
  DECLINED_CARD,
  DECLINES_LATER_CARD,
  NEW_YORK,
  seedSite,
  SHOP_HOST,
  subscriptionSite,
  TEST_CARD,
} from '../support/subscriptionSite';

const API = '/api/3/commerce/cart/subscription';

function countingProvider() {
  const inner = paymentProviderFor({ provider: 'test', manualInstructions: '' }, {});
  const calls = { authorize: 0, charge: 0, capture: 0, void: 0 };
  const provider: PaymentProvider = {
    ...inner,
    authorize: (req) => (calls.authorize++, inner.authorize(req)),
    capture: (ref, amount, key) => (calls.capture++, inner.capture(ref, amount, key)),
    void: (ref, key) => (calls.void++, inner.void(ref, key)),
    chargeSavedMethod: (req) => (calls.charge++, inner.chargeSavedMethod!(req)),
  };
  return { provider, calls, reset: () => Object.assign(calls, { authorize: 0, charge: 0, capture: 0, void: 0 }) };
}

let keys = 0;
const newKey = () => `sub-key-${Date.now().toString(36)}-${(keys++).toString(36)}-abcdefgh`;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  const payments = countingProvider();
  const billing = (now: Date) => billDueSubscriptions(getDb(), { now, paymentsFor: () => payments.provider });

  beforeAll(async () => {
    await seedSite(getDb(), subscriptionSite);
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
      'subscription_links',
      'subscription_bills',
      'subscriptions',
      'subscription_carts',
      'outbox',
      'payments',
      'order_lines',
      'orders',
      'cart_entries',
      'carts',
    ] as const) {
      await db.deleteFrom(table).execute();
    }
    await db
      .updateTable('variants')
      .set({ qty_in_stock: 5 })
      .where('sku', 'in', ['beans-whole', 'beans-filter'])
      .execute();
    payments.reset();
  });

  const post = (payload: unknown) =>
    app.inject({
      method: 'POST',
      url: API,
      headers: { host: SHOP_HOST, 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const count = async (
    table:
      'carts' | 'cart_entries' | 'subscriptions' | 'orders' | 'subscription_bills' | 'outbox' | 'subscription_carts',
  ) =>
    Number(
      (
        await getDb()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const stockOf = async (sku: string) =>
    Number(
      (await getDb().selectFrom('variants').select('qty_in_stock').where('sku', '=', sku).executeTakeFirstOrThrow())
        .qty_in_stock,
    );
  const form = (url: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded', cookie: `crumb=${TEST_CRUMB}` },
      payload: new URLSearchParams({ crumb: TEST_CRUMB, ...fields }).toString(),
    });
  const cartFor = async (body: Record<string, unknown> = {}) => {
    const answer = await post({
      itemId: 'beans',
      sku: 'beans-whole',
      qty: 1,
      additionalFields: '',
      subscriptionOptionId: 'monthly',
      ...body,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().cartToken as string;
  };
  const subscribe = async (
    cartToken: string,
    card: Record<string, string> = TEST_CARD,
    email = 'ada@example.com',
  ): Promise<LightMyRequestResponse> =>
    form(`/checkout/subscribe?cartToken=${cartToken}`, {
      intent: 'place',
      idempotencyKey: newKey(),
      email,
      ...NEW_YORK,
      shippingOptionId: 'standard',
      ...card,
    });
  const theSubscription = async () => getDb().selectFrom('subscriptions').selectAll().executeTakeFirstOrThrow();
  const mails = async (kind: string) =>
    getDb().selectFrom('outbox').selectAll().where('kind', '=', kind).orderBy('created_at').execute();
  const cancelTokenOf = (text: string) => /\/subscriptions\/cancel\/([A-Za-z0-9_-]{22})/.exec(text)?.[1];

  describe('the product page', () => {
    it('shows the plan’s wording, the options and the Subscribe button; no quantity input', async () => {
      const page = await app.inject({ method: 'GET', url: '/shop/p/beans', headers: { host: SHOP_HOST } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('$12.00 every month for 3 months');
      expect(page.body).toContain('$13.00 every month for 3 months');
      expect(page.body).toContain('>Subscribe<');
      expect(page.body).not.toContain('type="number"');
    });
  });

  describe('the product list', () => {
    it('shows a subscription at its first option’s price in the plan’s wording, not its variants’ one-time prices', async () => {
      const list = await app.inject({ method: 'GET', url: '/shop', headers: { host: SHOP_HOST } });
      expect(list.statusCode).toBe(200);
      const card =
        /<li class="product-card">(?:(?!<\/li>).)*?Bean club(?:(?!<\/li>).)*<\/li>/s.exec(list.body)?.[0] ?? '';
      expect(card).toContain('<span class="price subscription-price">$12.00 every month for 3 months</span>');
      expect(card).not.toContain('$15.00');
    });
  });

  describe('the subscription cart call', () => {
    it('answers { cartToken } and leaves the shopper’s cart alone', async () => {
      const answer = await post({
        itemId: 'beans',
        sku: 'beans-whole',
        qty: 1,
        additionalFields: '',
        subscriptionOptionId: 'monthly',
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(Object.keys(answer.json())).toEqual(['cartToken']);
      expect(answer.json().cartToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(answer.cookies.find((c) => c.name === 'CART' || c.name === 'hasCart')).toBeUndefined();
      const entry = await getDb().selectFrom('cart_entries').selectAll().executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ cart_id: answer.json().cartToken, sku: 'beans-whole', quantity: 1 });
      expect(Number(entry.unit_price)).toBe(1200);
    });

    it('takes the option’s sale price and checks its form’s answers', async () => {
      const refused = await post({
        itemId: 'beans',
        sku: 'beans-filter',
        qty: 1,
        additionalFields: '{}',
        subscriptionOptionId: 'gift',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ type: 'SUB_WITH_FORM_FAILURE', fields: { to: 'Required' } });
      const token = await cartFor({
        sku: 'beans-filter',
        subscriptionOptionId: 'gift',
        additionalFields: JSON.stringify({ to: 'Grace' }),
      });
      const entry = await getDb()
        .selectFrom('cart_entries')
        .selectAll()
        .where('cart_id', '=', token)
        .executeTakeFirstOrThrow();
      expect(Number(entry.unit_price)).toBe(1300);
      expect(JSON.parse(entry.additional_fields)).toEqual({ to: 'Grace' });
    });

    it('refuses with the §5 texts and tracked types, storing nothing', async () => {
      const cases: [Record<string, unknown>, number, string, string][] = [
        [{ sku: '' }, 400, 'Please select the Grind option.', 'NO_VARIANT_SELECTED'],
        [
          { sku: 'beans-decaf' },
          400,
          'Sorry, that item variant is unavailable. Please select another variant.',
          'VARIANT_UNAVAILABLE',
        ],
        [{ qty: 6 }, 409, 'Sorry, we do not have enough of that item available.', 'OUT_OF_STOCK'],
        [{ qty: 1.5 }, 400, 'Quantity must be a whole number', 'SUB_QUANTITY_NOT_A_WHOLE_NUMBER'],
        [{ qty: 'two' }, 400, 'Quantity must be a number.', 'QUANTITY_NOT_A_NUMBER'],
        [
          { subscriptionOptionId: 'weekly' },
          400,
          'Sorry, that subscription option is no longer available. Please choose another.',
          'SUB_API_FAILURE',
        ],
        [
          { itemId: 'limited', sku: 'limited-1' },
          400,
          'This product is not sold as a subscription.',
          'SUB_API_FAILURE',
        ],
        [{ itemId: 'nothing' }, 404, 'Sorry, that item is no longer available.', 'SUB_API_FAILURE'],
      ];
      for (const [body, status, message, type] of cases) {
        const answer = await post({
          itemId: 'beans',
          sku: 'beans-whole',
          qty: 1,
          additionalFields: '',
          subscriptionOptionId: 'monthly',
          ...body,
        });
        expect(answer.statusCode, JSON.stringify(body)).toBe(status);
        expect(answer.json()).toMatchObject({ message, type });
      }
      for (const bad of [
        '{',
        '[]',
        JSON.stringify({ itemId: 7 }),
        JSON.stringify({ itemId: 'beans', additionalFields: 'not json' }),
        JSON.stringify({ itemId: 'a\u0000b' }),
      ]) {
        const answer = await post(bad);
        expect(answer.statusCode, bad).toBe(400);
        expect(typeof answer.json().message).toBe('string');
      }
      expect(await count('carts')).toBe(0);
      expect(await count('subscription_carts')).toBe(0);
    });

    it('a subscription without options costs its variant’s price', async () => {
      const answer = await post({ itemId: 'tea', sku: 'tea-1', qty: 2, additionalFields: '' });
      expect(answer.statusCode, answer.body).toBe(200);
      const entry = await getDb().selectFrom('cart_entries').selectAll().executeTakeFirstOrThrow();
      expect([Number(entry.unit_price), entry.quantity]).toEqual([900, 2]);
    });
  });

  describe('the subscription checkout', () => {
    it('shows the plan, subscribes without JavaScript, and charges and fulfils the first period at once', async () => {
      const token = await cartFor();
      const page = await app.inject({
        method: 'GET',
        url: `/checkout/subscribe?cartToken=${token}`,
        headers: { host: SHOP_HOST },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toContain('no-store');
      expect(page.body).toContain('$12.00 every month for 3 months');
      expect(page.body).toContain('name="crumb"');

      const before = new Date();
      const placed = await subscribe(token);
      expect(placed.statusCode, placed.body).toBe(303);
      expect(placed.headers.location).toMatch(/^\/checkout\/order\/[A-Za-z0-9_-]{22}$/);
      expect(await stockOf('beans-whole')).toBe(4);
      const sub = await theSubscription();
      expect(sub).toMatchObject({
        status: 'active',
        email: 'ada@example.com',
        sku: 'beans-whole',
        billing_unit: 'MONTH',
        num_billing_cycles: 3,
        subscription_option_id: 'monthly',
      });
      expect(Number(sub.periods_billed)).toBe(1);
      expect(sub.payment_method).toMatch(/^testpm_4242_/);
      const next = new Date(sub.next_billing_at!);
      expect(next.getTime() - before.getTime()).toBeGreaterThan(27 * 86_400_000);
      expect(next.getTime() - before.getTime()).toBeLessThan(32 * 86_400_000);
      const [started] = await mails('subscription-started');
      expect(started?.to_address).toBe('ada@example.com');
      expect(started?.text_body).toContain('Plan: $12.00 every month for 3 months');
      expect(cancelTokenOf(started!.text_body)).toBeDefined();
      expect(await mails('order-confirmation')).toHaveLength(1);

      // The token is spent: the page says so, and a second subscribe makes nothing.
      const again = await app.inject({
        method: 'GET',
        url: `/checkout/subscribe?cartToken=${token}`,
        headers: { host: SHOP_HOST },
      });
      expect(again.statusCode).toBe(404);
      expect((await subscribe(token)).statusCode).toBe(404);
      expect(await count('subscriptions')).toBe(1);
      expect(await count('orders')).toBe(1);
    });

    it('never charges a total the page did not show: a dearer choice posted straight to Subscribe shows the new total first', async () => {
      const token = await cartFor();
      const page = await app.inject({
        method: 'GET',
        url: `/checkout/subscribe?cartToken=${token}`,
        headers: { host: SHOP_HOST },
      });
      // No address yet: the first period with standard shipping and no tax.
      const shown = /name="shownTotal" value="(\d+)"/.exec(page.body)?.[1];
      expect(shown).toBe(String(1200 + 600));
      // The New York address adds tax: the shopper never saw that total.
      const changed = await form(`/checkout/subscribe?cartToken=${token}`, {
        intent: 'place',
        idempotencyKey: newKey(),
        email: 'ada@example.com',
        ...NEW_YORK,
        shippingOptionId: 'standard',
        ...TEST_CARD,
        shownTotal: shown!,
      });
      expect(changed.statusCode).toBe(409);
      const total = 1200 + 600 + Math.round(1200 * 0.08875);
      expect(changed.body).toContain(
        `Your total is now $${(total / 100).toFixed(2)} with the details you entered. Please check it and your card details, then press Subscribe again.`,
      );
      expect(changed.body).toContain(`name="shownTotal" value="${total}"`);
      expect(await count('subscriptions')).toBe(0);
      expect(payments.calls.capture).toBe(0);

      const placed = await form(`/checkout/subscribe?cartToken=${token}`, {
        intent: 'place',
        idempotencyKey: newKey(),
        email: 'ada@example.com',
        ...NEW_YORK,
        shippingOptionId: 'standard',
        ...TEST_CARD,
        shownTotal: String(total),
      });
      expect(placed.statusCode, placed.body).toBe(303);
      const order = await getDb().selectFrom('orders').select('grand_total').executeTakeFirstOrThrow();
      expect(Number(order.grand_total)).toBe(total);
    });

    it('the live totals call: the quote of the token’s subscription cart for the address typed; bad input is a 400, an unknown token a 404', async () => {
      const token = await cartFor();
      const quote = (payload: unknown) =>
        app.inject({
          method: 'POST',
          url: '/api/commerce/checkout/subscription-quote',
          headers: { host: SHOP_HOST, 'content-type': 'application/json' },
          payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        });
      const noAddress = await quote({ cartToken: token });
      expect(noAddress.statusCode, noAddress.body).toBe(200);
      expect(noAddress.headers['cache-control']).toContain('no-store');
      expect(noAddress.json().totals.grandTotalCents).toBe(1200 + 600);
      const taxed = await quote({
        cartToken: token,
        email: 'ada@example.com',
        shippingAddress: NEW_YORK,
        shippingOptionId: 'standard',
        couponCode: 'WELCOME10',
      });
      expect(taxed.statusCode, taxed.body).toBe(200);
      // Tax for New York; a coupon never applies to a subscription.
      expect(taxed.json().totals.grandTotalCents).toBe(1200 + 600 + Math.round(1200 * 0.08875));
      expect(taxed.json().coupon).toBeNull();
      expect(taxed.json().cart.entries).toHaveLength(1);

      expect((await quote({ cartToken: 'AAAAAAAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
      for (const bad of [
        {},
        { cartToken: 5 },
        { cartToken: token, shippingAddress: 'x' },
        { cartToken: token, extra: 1 },
        { cartToken: 'a\u0000' },
        { cartToken: 'x'.repeat(1000) },
        '[',
        'null',
        '[]',
      ]) {
        const answer = await quote(bad);
        expect(answer.statusCode, `${JSON.stringify(bad)} → ${answer.body}`).toBe(400);
      }
      // Asking writes nothing.
      expect(await count('subscriptions')).toBe(0);
      expect(await count('orders')).toBe(0);
    });

    it('a refusal keeps nothing: declined card, bad details, unknown token', async () => {
      const token = await cartFor();
      const declined = await subscribe(token, DECLINED_CARD);
      expect(declined.statusCode).toBe(402);
      expect(declined.body).toContain('Your card was declined.');
      const badEmail = await subscribe(token, TEST_CARD, 'not-an-email');
      expect(badEmail.statusCode).toBe(400);
      expect(badEmail.body).toContain('Please check the details marked below.');
      expect((await subscribe('AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
      expect(await count('subscriptions')).toBe(0);
      expect(await count('orders')).toBe(0);
      expect(await count('subscription_bills')).toBe(0);
      expect(await stockOf('beans-whole')).toBe(5);
      expect(payments.calls.capture).toBe(0);
    });
  });

  describe('renewals', () => {
    it('bills each due period as an order that takes stock and e-mails the shopper, then completes after 3 cycles', async () => {
      expect((await subscribe(await cartFor())).statusCode).toBe(303);
      const due = new Date((await theSubscription()).next_billing_at!);
      expect((await billing(new Date(due.getTime() - 1000))).paid).toBe(0);

      const second = await billing(due);
      expect(second).toMatchObject({ paid: 1, declined: 0, soldOut: 0 });
      expect(await stockOf('beans-whole')).toBe(3);
      expect(await count('orders')).toBe(2);
      const renewed = await mails('subscription-renewed');
      expect(renewed).toHaveLength(1);
      expect(renewed[0]!.text_body).toContain('$12.00 every month for 3 months');
      expect(cancelTokenOf(renewed[0]!.text_body)).toBeDefined();
      const order = await getDb()
        .selectFrom('orders')
        .selectAll()
        .where('id', '=', second.orderIds[0]!)
        .executeTakeFirstOrThrow();
      expect(order).toMatchObject({ status: 'paid', email: 'ada@example.com' });
      expect(Number(order.subtotal)).toBe(1200);
      expect(Number(order.grand_total)).toBe(1200 + 600 + Math.round(1200 * 0.08875));
      // The shop's notice of the renewal order: written as render data, rendered when it is sent, from the stored order.
      const [notice] = (await mails('new-order')).filter((m) => m.order_id === order.id);
      expect(notice).toMatchObject({ to_address: 'orders@shop.test', text_body: '', html_body: '', status: 'pending' });
      const site = (await getSite(getDb(), order.site_id))!;
      const stored = (await getOrder(getDb(), order.site_id, order.id))!;
      const expected = newOrderEmail(stored, {
        siteTitle: site.title,
        orderUrl: `http://${SHOP_HOST}/checkout/order/${order.id}`,
      });
      expect(expected.text).toContain(`#${order.number}`);
      const transport = {
        sent: [] as MailMessage[],
        send: async (message: MailMessage) => void transport.sent.push(message),
      };
      expect(await drainOutbox(getDb(), transport)).toMatchObject({ failed: 0, retried: 0 });
      expect(transport.sent.find((m) => m.to === 'orders@shop.test' && m.subject === expected.subject)).toEqual({
        to: 'orders@shop.test',
        subject: expected.subject,
        text: expected.text,
        html: expected.html,
      });

      const third = await billing(new Date((await theSubscription()).next_billing_at!));
      expect(third.paid).toBe(1);
      const done = await theSubscription();
      expect(done).toMatchObject({ status: 'completed', next_billing_at: null });
      expect(Number(done.periods_billed)).toBe(3);
      expect((await billing(new Date('2100-01-01T00:00:00Z'))).paid).toBe(0);
      expect(await count('orders')).toBe(3);
      expect(await stockOf('beans-whole')).toBe(2);
    });

    it('a declined renewal makes it past due and tells the shopper; no order', async () => {
      expect((await subscribe(await cartFor(), DECLINES_LATER_CARD)).statusCode).toBe(303);
      const result = await billing(new Date((await theSubscription()).next_billing_at!));
      expect(result).toMatchObject({ paid: 0, declined: 1 });
      expect((await theSubscription()).status).toBe('past_due');
      expect(await count('orders')).toBe(1);
      expect(await stockOf('beans-whole')).toBe(4);
      const [mail] = await mails('subscription-declined');
      expect(mail?.text_body).toContain('declined');
      expect(cancelTokenOf(mail!.text_body)).toBeDefined();
      // Past due is not billed again.
      expect((await billing(new Date('2100-01-01T00:00:00Z'))).declined).toBe(0);
    });

    it('a sold-out renewal is not charged and says so; the next period is still billed', async () => {
      expect((await subscribe(await cartFor())).statusCode).toBe(303);
      await getDb().updateTable('variants').set({ qty_in_stock: 0 }).where('sku', '=', 'beans-whole').execute();
      payments.reset();
      const result = await billing(new Date((await theSubscription()).next_billing_at!));
      expect(result).toMatchObject({ paid: 0, soldOut: 1 });
      expect(payments.calls.charge).toBe(0);
      expect(await count('orders')).toBe(1);
      const [mail] = await mails('subscription-sold-out');
      expect(mail?.text_body).toContain('You have not been charged');
      const sub = await theSubscription();
      expect(sub.status).toBe('active');
      expect(Number(sub.periods_billed)).toBe(2);
    });

    it('20 billing runs at once make one order per period', async () => {
      expect((await subscribe(await cartFor())).statusCode).toBe(303);
      expect(
        (
          await subscribe(
            await cartFor({ itemId: 'tea', sku: 'tea-1', subscriptionOptionId: null }),
            TEST_CARD,
            'grace@example.com',
          )
        ).statusCode,
      ).toBe(303);
      const latest = await getDb()
        .selectFrom('subscriptions')
        .select('next_billing_at')
        .orderBy('next_billing_at', 'desc')
        .executeTakeFirstOrThrow();
      const now = new Date(latest.next_billing_at!);
      payments.reset();
      const runs = await Promise.all(Array.from({ length: 20 }, () => billing(now)));
      // Due by then: the beans' 2nd month, and the fortnightly tea's 2nd and 3rd periods (4 weeks ≤ 1 month).
      expect(runs.reduce((n, r) => n + r.paid, 0)).toBe(3);
      expect(runs.flatMap((r) => r.errors)).toEqual([]);
      expect(await count('orders')).toBe(5);
      expect(payments.calls.charge).toBe(3);
      const perPeriod = await getDb()
        .selectFrom('subscription_bills')
        .select(['subscription_id', 'period_number'])
        .execute();
      expect(new Set(perPeriod.map((b) => `${b.subscription_id}:${b.period_number}`)).size).toBe(perPeriod.length);
      expect(await stockOf('beans-whole')).toBe(3);
    });
  });

  describe('the cancel link', () => {
    it('cancels from the e-mail’s link; forged or missing crumbs change nothing', async () => {
      expect((await subscribe(await cartFor())).statusCode).toBe(303);
      const token = cancelTokenOf((await mails('subscription-started'))[0]!.text_body)!;
      const url = `/subscriptions/cancel/${token}`;
      const page = await app.inject({ method: 'GET', url, headers: { host: SHOP_HOST } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Cancel subscription');
      expect(page.body).toContain('$12.00 every month for 3 months');

      expect(
        (
          await app.inject({
            method: 'GET',
            url: '/subscriptions/cancel/AAAAAAAAAAAAAAAAAAAAAA',
            headers: { host: SHOP_HOST },
          })
        ).statusCode,
      ).toBe(404);
      expect((await form('/subscriptions/cancel/AAAAAAAAAAAAAAAAAAAAAA', {})).statusCode).toBe(404);
      expect((await form('/subscriptions/cancel/not-a-token', {})).statusCode).toBe(404);
      const noCrumb = await app.inject({
        method: 'POST',
        url,
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `crumb=${TEST_CRUMB}`,
          'x-csrf-token': 'AAAAAAAAAAAAAAAAAAAAAA',
        },
        payload: '',
      });
      expect(noCrumb.statusCode).toBe(403);
      expect((await theSubscription()).status).toBe('active');

      const done = await form(url, {});
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Your subscription is cancelled');
      expect(await theSubscription()).toMatchObject({ status: 'cancelled', next_billing_at: null });
      expect((await billing(new Date('2100-01-01T00:00:00Z'))).paid).toBe(0);
      expect(await count('orders')).toBe(1);
    });
  });
});
