/**
 * Refunds and cancel in the owner's area on SQLite and PostgreSQL: by line with restock (stock back, payment state),
 * by amount, an over-refund refused with a clear message, the same key twice (one refund), 20 refunds of one order at
 * once never exceeding it, a viewer refused (nothing changed), cancel, and the refund page's form.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { buildApp } from '../../src/server/app';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { TEST_CRUMB, sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { signInAs } from '../support/siteUsers';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const ORDERS_API = '/api/commerce/checkout/orders';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let manager: string;
  let keyCounter = 0;

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    app = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        cartRateLimitPerMinute: 1_000_000,
        accountRoutes: { signInsPerMinute: 1_000_000 },
      }),
    );
    manager = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER);
  });
  afterAll(async () => app?.close());

  const post = (url: string, payload: unknown, cookie?: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
      payload: JSON.stringify(payload),
    });
  const cartCookieOf = (response: LightMyRequestResponse) =>
    `CART=${response.cookies.find((c) => c.name === 'CART')!.value}`;
  /** Places an order (New York, standard shipping) of these lines; its number. */
  const placeOrder = async (lines: { itemId: string; sku: string; quantity: number }[]): Promise<number> => {
    let cookie: string | undefined;
    for (const line of lines) {
      const added = await post(ENTRIES_API, { additionalFields: '', ...line }, cookie);
      expect(added.statusCode, added.body).toBe(200);
      cookie ??= cartCookieOf(added);
    }
    const placed = await post(
      ORDERS_API,
      {
        idempotencyKey: `refunds-${engine}-${(keyCounter++).toString().padStart(6, '0')}`,
        payment: TEST_CARD,
        email: 'ada@example.com',
        shippingAddress: NEW_YORK,
        shippingOptionId: 'standard',
      },
      cookie,
    );
    expect(placed.statusCode, placed.body).toBe(201);
    return (placed.json() as { order: { number: number } }).order.number;
  };
  const stockOf = async (sku: string) =>
    Number(
      (await getDb().selectFrom('variants').select('qty_in_stock').where('sku', '=', sku).executeTakeFirstOrThrow())
        .qty_in_stock,
    );
  const orderRow = (number: number) =>
    getDb()
      .selectFrom('orders')
      .selectAll()
      .where('site_id', '=', 'shop')
      .where('number', '=', number)
      .executeTakeFirstOrThrow();
  const refund = (number: number, body: Record<string, unknown>, key: string, cookie = manager) =>
    post(`/api/admin/orders/${number}/refunds`, body, cookie, { 'idempotency-key': key });

  it('refunds a line with restock: stock back, partially refunded, the e-mail and the audit entry', async () => {
    const before = await stockOf('tee-s-blue');
    const number = await placeOrder([
      { itemId: 'tee', sku: 'tee-s-blue', quantity: 3 },
      { itemId: 'limited', sku: 'limited-1', quantity: 1 },
    ]);
    expect(await stockOf('tee-s-blue')).toBe(before - 3);
    const answer = await refund(
      number,
      { lines: [{ position: 0, quantity: 2 }], reason: 'Wrong size', restock: true },
      'k-line',
    );
    expect(answer.statusCode, answer.body).toBe(201);
    const outcome = answer.json();
    expect(outcome.paymentState).toBe('partially-refunded');
    expect(outcome.refund.amountCents).toBeGreaterThan(0);
    expect(outcome.repeated).toBe(false);
    expect(await stockOf('tee-s-blue')).toBe(before - 1);
    const row = await orderRow(number);
    expect(row.status).toBe('paid');
    expect(Number(row.refunded_total)).toBe(outcome.refund.amountCents);
    const mail = await getDb()
      .selectFrom('outbox')
      .selectAll()
      .where('order_id', '=', row.id)
      .where('kind', '=', 'order-refund')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toContain(`for order #${number}`);
    expect(mail.text_body).toContain('Reason: Wrong size');
    const audit = await getDb()
      .selectFrom('audit_log')
      .selectAll()
      .where('subject_id', '=', row.id)
      .where('action', '=', 'order.refunded')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.summary).toContain('Wrong size');

    // More units than are left of the line: refused, nothing changed.
    const tooMany = await refund(number, { lines: [{ position: 0, quantity: 2 }], reason: 'Again' }, 'k-line-2');
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().message).toContain('Only 1 of');
    expect(Number((await orderRow(number)).refunded_total)).toBe(outcome.refund.amountCents);

    // The orders list says so, and its payment filter finds it there and only there.
    const list = async (payment: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/admin/orders?payment=${payment}`,
          headers: { host: SHOP_HOST, cookie: manager },
        })
      ).json() as { orders: { number: number; paymentLabel: string }[] };
    const partial = (await list('partially-refunded')).orders.find((o) => o.number === number);
    expect(partial?.paymentLabel).toBe('Partially refunded');
    expect((await list('paid')).orders.map((o) => o.number)).not.toContain(number);
    expect((await list('refunded')).orders.map((o) => o.number)).not.toContain(number);
  });

  it('refunds an amount, refuses more than is left with a clear message, and refunds the rest to Refunded', async () => {
    const number = await placeOrder([{ itemId: 'limited', sku: 'limited-1', quantity: 1 }]);
    const total = Number((await orderRow(number)).grand_total);
    const part = await refund(number, { amountCents: 600, reason: 'Shipping was late' }, 'k-amount');
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json()).toMatchObject({ paymentState: 'partially-refunded', refundedTotalCents: 600 });
    const over = await refund(number, { amountCents: total, reason: 'Too much' }, 'k-over');
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toMatch(/^Order #\d+ has only \$[\d.]+ left to refund; \$[\d.]+ is more\.$/);
    expect(Number((await orderRow(number)).refunded_total)).toBe(600);
    const rest = await refund(number, { amountCents: total - 600, reason: 'Customer changed their mind' }, 'k-rest');
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().paymentState).toBe('refunded');
    expect((await orderRow(number)).status).toBe('refunded');
    const none = await refund(number, { amountCents: 1, reason: 'More' }, 'k-none');
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(`Order #${number} is already refunded.`);
  });

  it('asks for a reason and for something to refund', async () => {
    const number = await placeOrder([{ itemId: 'limited', sku: 'limited-1', quantity: 1 }]);
    const noReason = await refund(number, { amountCents: 100, reason: ' ' }, 'k-no-reason');
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().message).toBe('Please say why you are refunding.');
    const nothing = await refund(number, { reason: 'x' }, 'k-nothing');
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().message).toBe('Choose the units to refund, or enter an amount.');
    const noKey = await post(`/api/admin/orders/${number}/refunds`, { amountCents: 100, reason: 'x' }, manager);
    expect(noKey.statusCode).toBe(400);
  });

  it('answers the same key twice with the same refund, not two', async () => {
    const number = await placeOrder([{ itemId: 'limited', sku: 'limited-1', quantity: 1 }]);
    const body = { amountCents: 250, reason: 'Scratched' };
    const [a, b] = await Promise.all([refund(number, body, 'k-twice'), refund(number, body, 'k-twice')]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().refund.id).toBe(b.json().refund.id);
    expect([a.json().repeated, b.json().repeated].sort()).toEqual([false, true]);
    const again = await refund(number, body, 'k-twice');
    expect(again.json()).toMatchObject({ repeated: true, refundedTotalCents: 250 });
    expect(Number((await orderRow(number)).refunded_total)).toBe(250);
    const other = await refund(number, { amountCents: 999, reason: 'Scratched' }, 'k-twice');
    expect(other.statusCode).toBe(409);
  });

  it('never refunds more than the order when 20 refunds come at once', { timeout: 60_000 }, async () => {
    const number = await placeOrder([{ itemId: 'limited', sku: 'limited-1', quantity: 1 }]);
    const total = Number((await orderRow(number)).grand_total);
    const each = Math.ceil(total / 7);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refund(number, { amountCents: each, reason: `Race ${i}` }, `k-race-${i}`)),
    );
    const made = answers.filter((a) => a.statusCode === 201);
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThanOrEqual(Math.floor(total / each));
    for (const a of answers) if (a.statusCode !== 201) expect(a.statusCode).toBe(409);
    const row = await orderRow(number);
    expect(Number(row.refunded_total)).toBe(made.length * each);
    expect(Number(row.refunded_total)).toBeLessThanOrEqual(total);
    const sum = await getDb()
      .selectFrom('refunds')
      .select('amount')
      .where('order_id', '=', row.id)
      .where('status', '=', 'succeeded')
      .execute();
    expect(sum.reduce((s, r) => s + Number(r.amount), 0)).toBe(Number(row.refunded_total));
  });

  it('does not let a viewer refund or cancel (403, nothing changed)', async () => {
    const number = await placeOrder([{ itemId: 'limited', sku: 'limited-1', quantity: 1 }]);
    const viewer = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
    const answer = await refund(number, { amountCents: 100, reason: 'x' }, 'k-viewer', viewer);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ code: 'role-not-allowed' });
    expect((await post(`/api/admin/orders/${number}/cancel`, {}, viewer)).statusCode).toBe(403);
    const page = await app.inject({
      method: 'GET',
      url: `/admin/orders/${number}/refund`,
      headers: { host: SHOP_HOST, cookie: viewer },
    });
    expect(page.statusCode).toBe(403);
    expect(page.body).not.toContain('ada@example.com');
    expect(Number((await orderRow(number)).refunded_total)).toBe(0);
    const anonymous = await refund(number, { amountCents: 100, reason: 'x' }, 'k-anon', '');
    expect(anonymous.statusCode).toBe(401);
  });

  it('cancels an order: refunds what is left and puts every unit back', async () => {
    const before = await stockOf('kit-1');
    const number = await placeOrder([{ itemId: 'kit', sku: 'kit-1', quantity: 2 }]);
    expect(await stockOf('kit-1')).toBe(before - 2);
    const part = await refund(number, { amountCents: 500, reason: 'Goodwill' }, 'k-cancel-part');
    expect(part.statusCode).toBe(201);
    const canceled = await post(
      `/api/admin/orders/${number}/cancel`,
      { reason: 'Out of stock at the warehouse' },
      manager,
    );
    expect(canceled.statusCode, canceled.body).toBe(201);
    expect(canceled.json()).toMatchObject({ paymentState: 'refunded', refund: { cancel: true } });
    expect(await stockOf('kit-1')).toBe(before);
    const row = await orderRow(number);
    expect(row.status).toBe('refunded');
    expect(row.fulfilment).toBe('canceled');
    expect(Number(row.refunded_total)).toBe(Number(row.grand_total));
    const payment = await getDb()
      .selectFrom('payments')
      .select('status')
      .where('order_id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe('refunded');
  });

  it('does not cancel a fulfilled order (409, nothing refunded), and a cancel is not fulfilled after', async () => {
    const before = await stockOf('kit-1');
    const shipped = await placeOrder([{ itemId: 'kit', sku: 'kit-1', quantity: 1 }]);
    expect((await post(`/api/admin/orders/${shipped}/fulfil`, { notify: false }, manager)).statusCode).toBe(200);
    const refused = await post(`/api/admin/orders/${shipped}/cancel`, {}, manager);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `Order #${shipped} is not pending (it was fulfilled or canceled): refund it instead. Nothing was changed.`,
    );
    const row = await orderRow(shipped);
    expect([row.status, row.fulfilment, Number(row.refunded_total)]).toEqual(['paid', 'fulfilled', 0]);
    expect(await stockOf('kit-1')).toBe(before - 1);

    const canceled = await placeOrder([{ itemId: 'kit', sku: 'kit-1', quantity: 1 }]);
    expect((await post(`/api/admin/orders/${canceled}/cancel`, {}, manager)).statusCode).toBe(201);
    const fulfil = await post(`/api/admin/orders/${canceled}/fulfil`, { notify: false }, manager);
    expect(fulfil.statusCode).toBe(409);
    expect((await orderRow(canceled)).fulfilment).toBe('canceled');
  });

  it('of a cancel and a fulfil of one order at once, exactly one wins, and the other is told', async () => {
    for (let round = 0; round < 5; round++) {
      const before = await stockOf('tee-s-blue');
      const number = await placeOrder([{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }]);
      const [canceled, fulfilled] = await Promise.all([
        post(`/api/admin/orders/${number}/cancel`, {}, manager),
        post(`/api/admin/orders/${number}/fulfil`, { notify: false }, manager),
      ]);
      const row = await orderRow(number);
      if (canceled.statusCode === 201) {
        expect(fulfilled.statusCode).toBe(409);
        expect([row.fulfilment, row.status]).toEqual(['canceled', 'refunded']);
        expect(await stockOf('tee-s-blue')).toBe(before);
      } else {
        expect([canceled.statusCode, fulfilled.statusCode]).toEqual([409, 200]);
        expect([row.fulfilment, row.status, Number(row.refunded_total)]).toEqual(['fulfilled', 'paid', 0]);
        expect(await stockOf('tee-s-blue')).toBe(before - 1);
      }
    }
  });

  it('cancels through the order page: the box ticked, 303 to the order, Canceled', async () => {
    const before = await stockOf('kit-1');
    const number = await placeOrder([{ itemId: 'kit', sku: 'kit-1', quantity: 2 }]);
    const form = (extra: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `/admin/orders/${number}/cancel`,
        headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ crumb: TEST_CRUMB, reason: 'Customer asked', ...extra }).toString(),
      });
    const unconfirmed = await form({});
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.body).toContain(`Please tick the box to cancel order ${number}.`);
    expect((await orderRow(number)).fulfilment).toBe('pending');
    const done = await form({ confirm: 'yes' });
    expect(done.statusCode, done.body.slice(0, 500)).toBe(303);
    expect(decodeURIComponent(done.headers.location as string)).toMatch(
      new RegExp(`^/admin/orders/${number}\\?done=Canceled order ${number}: refunded .+ and put the stock back\\.$`),
    );
    expect(await stockOf('kit-1')).toBe(before);
    const page = await app.inject({
      method: 'GET',
      url: `/admin/orders/${number}`,
      headers: { host: SHOP_HOST, cookie: manager },
    });
    expect(page.body).toContain('Fulfilment: Canceled');
    expect(page.body).toContain('Payment: Refunded');
    expect(page.body).toContain('Customer asked (order canceled)');
    expect(page.body).not.toContain('Cancel order');
    // Pressed twice: the same cancel, nothing more.
    expect((await form({ confirm: 'yes' })).statusCode).toBe(303);
    expect(await stockOf('kit-1')).toBe(before);
  });

  it('refunds through the page: a line with restock, then 303 to the order', async () => {
    const before = await stockOf('tee-s-blue');
    const number = await placeOrder([{ itemId: 'tee', sku: 'tee-s-blue', quantity: 2 }]);
    const page = await app.inject({
      method: 'GET',
      url: `/admin/orders/${number}/refund`,
      headers: { host: SHOP_HOST, cookie: manager },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Put the units back in stock');
    expect(page.body).toContain(`href="/admin/orders/${number}"`);
    const key = /name="key" value="([^"]+)"/.exec(page.body)![1]!;
    const form = (extra: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `/admin/orders/${number}/refund`,
        headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          crumb: TEST_CRUMB,
          key,
          'qty-0': '1',
          reason: 'Damaged',
          restock: 'yes',
          ...extra,
        }).toString(),
      });
    const unconfirmed = await form({});
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.body).toContain('Please tick the box to confirm the refund.');
    const done = await form({ confirm: 'yes' });
    expect(done.statusCode, done.body.slice(0, 500)).toBe(303);
    expect(done.headers.location).toMatch(new RegExp(`^/admin/orders/${number}\\?done=Refunded%20`));
    expect(await stockOf('tee-s-blue')).toBe(before - 1);
    // Pressed twice: the same refund.
    expect((await form({ confirm: 'yes' })).statusCode).toBe(303);
    expect(await stockOf('tee-s-blue')).toBe(before - 1);
    const after = await app.inject({
      method: 'GET',
      url: `/admin/orders/${number}/refund`,
      headers: { host: SHOP_HOST, cookie: manager },
    });
    expect(after.body).toContain('Partially refunded');
    expect(after.body).toContain('Damaged');
  });
});
