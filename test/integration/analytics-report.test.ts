/**
 * The merchant's report (issue 25) on SQLite and PostgreSQL: sales read from real orders placed through the checkout
 * route (a refund, a payment still awaited), a funnel of visitors that repeat their events and skip steps (never over
 * 100 %), and private pages (order pages, checkout, account, per-visitor links) never stored nor listed — rows
 * written before that rule included.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRIVATE_PAGES } from '../../src/core/privatePath';
import { analyticsReport } from '../../src/modules/analytics/report';
import { money, reportHtml, reportText } from '../../src/modules/analytics/reportPage';
import { createReportToken } from '../../src/modules/analytics/reportTokens';
import { analyticsRecorderOf } from '../../src/modules/analytics/routes';
import { dayOf, daysBefore } from '../../src/modules/analytics/visitorHash';
import { refundOrder } from '../../src/modules/orders/refunds';
import { testProvider } from '../../src/modules/payments/testProvider';
import { buildApp } from '../../src/server/app';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { sendCrumbs, TEST_CRUMB, withCrumb } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const form = { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': CHROME };
const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const visitor = (n: number) => {
  const start = Date.now() - 60_000;
  return `${n}1111111-2222-4333-8444-555555555555|${start}|${start}|${start}|1`;
};

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  const orders: { id: string; number: number; total: number }[] = [];

  const placeOrder = async (lines: { itemId: string; sku: string; quantity: number }[], key: string) => {
    let cart = '';
    for (const line of lines) {
      const added = await app.inject({
        method: 'POST',
        url: '/api/commerce/shopping-cart/entries',
        headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cart ? { cookie: cart } : {}) },
        payload: JSON.stringify({ ...line, additionalFields: '' }),
      });
      expect(added.statusCode, added.body).toBe(200);
      const cookie = added.cookies.find((c) => c.name === 'CART');
      if (cookie) cart = `CART=${cookie.value}`;
    }
    const placed = await app.inject({
      method: 'POST',
      url: '/api/commerce/checkout/orders',
      headers: { host: SHOP_HOST, 'content-type': 'application/json', cookie: cart },
      payload: JSON.stringify({
        idempotencyKey: `report-test-order-${key}`,
        email: 'ada@example.com',
        shippingAddress: NEW_YORK,
        shippingOptionId: 'standard',
        payment: TEST_CARD,
      }),
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const row = await getDb()
      .selectFrom('orders')
      .select(['id', 'number', 'grand_total'])
      .orderBy('number', 'desc')
      .executeTakeFirstOrThrow();
    const order = { id: row.id, number: row.number, total: Number(row.grand_total) };
    orders.push(order);
    return order;
  };

  const flush = () => analyticsRecorderOf(app)!.buffer.flush();
  const hit = (cookie: string, path: string, pageType?: number) =>
    app.inject({
      method: 'POST',
      url: '/api/census/RecordHit',
      headers: form,
      payload: encode({
        event: 'RecordHit',
        data: JSON.stringify({ pagePath: path, ...(pageType ? { pageType } : {}) }),
        ss_cvr: cookie,
      }),
    });
  const commerce = (cookie: string, event: string, data: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/events/RecordEvent',
      headers: { ...form, cookie: `crumb=${TEST_CRUMB}; ss_cvr=${encodeURIComponent(cookie)}` },
      payload: encode({ event, crumb: TEST_CRUMB, data: JSON.stringify(data) }),
    });
  const report = () => analyticsReport(getDb(), { siteId: 'shop', currency: 'USD', days: 30, now: new Date() });

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await flush();
    await getDb().deleteFrom('analytics_events').execute();
    await getDb().deleteFrom('analytics_daily').execute();
  });

  describe('sales', () => {
    it('are the orders: paid ones are revenue, a refund is a refund, a payment still awaited is not revenue', async () => {
      const a = await placeOrder([{ itemId: 'tee', sku: 'tee-s-blue', quantity: 2 }], 'a');
      const b = await placeOrder(
        [
          { itemId: 'kit', sku: 'kit-1', quantity: 1 },
          { itemId: 'tee', sku: 'tee-s-blue', quantity: 1 },
        ],
        'b',
      );
      const c = await placeOrder([{ itemId: 'limited', sku: 'limited-1', quantity: 1 }], 'c');
      const d = await placeOrder([{ itemId: 'limited', sku: 'limited-1', quantity: 2 }], 'd');
      // C is refunded by the owner (`vitrine orders refund`'s function, through the test provider).
      const refunded = await refundOrder(getDb(), 'shop', c.number, testProvider());
      expect(refunded.ok).toBe(true);
      // D waits for a manual payment (bank transfer): the status the manual provider gives an order.
      await getDb().updateTable('orders').set({ status: 'awaiting-payment' }).where('id', '=', d.id).execute();

      const teeLines = await getDb()
        .selectFrom('order_lines')
        .select('line_total')
        .where('item_id', '=', 'tee')
        .where('order_id', 'in', [a.id, b.id])
        .execute();
      const { sales } = await report();
      const gross = a.total + b.total + c.total;
      expect(sales).toEqual({
        currency: 'USD',
        from: daysBefore(dayOf(new Date()), 29),
        to: dayOf(new Date()),
        orders: 3,
        grossSales: gross,
        refunds: { orders: 1, amount: c.total },
        netSales: a.total + b.total,
        averageOrder: Math.round(gross / 3),
        awaitingPayment: { orders: 1, amount: d.total },
        daily: [
          { day: dayOf(new Date()), orders: 3, grossSales: gross, refunds: c.total, netSales: a.total + b.total },
        ],
        topProducts: [
          { itemId: 'kit', title: 'Kit', units: 1, sales: 9900 },
          { itemId: 'tee', title: 'Tee', units: 3, sales: teeLines.reduce((n, l) => n + Number(l.line_total), 0) },
        ],
        otherCurrencyOrders: 0,
      });

      // The same figures in the terminal, the HTML document and the token page.
      const full = await report();
      const text = reportText(full).join('\n');
      expect(text).toContain(`Net sales        ${money(a.total + b.total, 'USD')}`);
      expect(text).toContain(`Orders           3   Average order ${money(Math.round(gross / 3), 'USD')}`);
      expect(text).toContain(`Refunds          1 order, ${money(c.total, 'USD')}`);
      expect(text).toContain(`Awaiting payment 1 order, ${money(d.total, 'USD')} (not counted until paid)`);
      const html = reportHtml(full);
      expect(html).toContain(money(a.total + b.total, 'USD'));
      expect(html).toContain('<caption>Top products (paid orders)</caption>');
      const token = await createReportToken(getDb(), 'shop');
      const page = await app.inject({
        method: 'GET',
        url: `/analytics/report?token=${token}`,
        headers: { host: SHOP_HOST },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(money(a.total + b.total, 'USD'));
      // The page's one style element is allowed by its hash; nothing else is.
      expect(page.headers['content-security-policy']).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
      expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(page.headers['x-robots-tag']).toBe('noindex');
    });
  });

  describe('the funnel', () => {
    it('counts visitors, not events: repeated events count once, a step skipped leaves the later ones out', async () => {
      const order = orders[0] ?? (await placeOrder([{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }], 'f'));
      const [a, b, c] = [visitor(1), visitor(2), visitor(3)];
      // A: every step, most of them several times (reloads, a second checkout page).
      for (let i = 0; i < 3; i++) await commerce(a, 'CommerceShopping_VisitPDP', { itemId: 'tee' });
      for (let i = 0; i < 2; i++) await commerce(a, 'CommerceShopping_AddToCart', { itemId: 'tee', value: 25 });
      for (let i = 0; i < 4; i++) await hit(a, '/checkout', 201);
      await hit(a, '/checkout/giftcard', 201);
      for (let i = 0; i < 2; i++) await commerce(a, 'CommerceShopping_CheckoutConfirmed', { id: order.id });
      // B: straight to the checkout and a purchase (no product page view that day): not in the funnel's later steps.
      for (let i = 0; i < 4; i++) await hit(b, '/checkout', 201);
      await commerce(b, 'CommerceShopping_CheckoutConfirmed', { id: order.id });
      // C: looks at the product only.
      await commerce(c, 'CommerceShopping_VisitPDP', { itemId: 'tee' });
      await flush();

      const { funnel } = await report();
      expect(funnel.steps.map((s) => [s.step, s.visitors])).toEqual([
        ['product-view', 2],
        ['add-to-cart', 1],
        ['checkout', 1],
        ['purchase', 1],
      ]);
      expect(funnel.steps.map((s) => s.fromPrevious)).toEqual([null, 0.5, 1, 1]);
      expect(funnel.conversion).toBe(0.5);
    });

    it('stays at most 100 % on days rolled up before the funnel rows: each step capped at the one before', async () => {
      const old = daysBefore(dayOf(new Date()), 3);
      const row = (kind: string, name: string, path: string, pageType: number, visitors: number) => ({
        site_id: 'shop',
        day: old,
        kind,
        name,
        path,
        page_type: pageType,
        events: visitors * 2,
        visitors,
        visits: visitors,
        refs: 0,
        value_sum: 0,
        good: 0,
        needs_improvement: 0,
        poor: 0,
        p75: null,
        sample: null,
      });
      // The figures: 2 at 'add to cart', 4 at 'checkout' (one visitor's pages summed), 1 purchase.
      await getDb()
        .insertInto('analytics_daily')
        .values([
          row('commerce', 'CommerceShopping_VisitPDP', '*', -1, 3),
          row('commerce', 'CommerceShopping_AddToCart', '*', -1, 2),
          row('hit', 'RecordHit', '/checkout', 201, 2),
          row('hit', 'RecordHit', '/checkout/order/Q2xhdWRlIGlzIGdyZWF0IQ', 201, 2),
          row('commerce', 'CommerceShopping_CheckoutConfirmed', '*', -1, 1),
        ])
        .execute();
      const { funnel } = await report();
      expect(funnel.steps.map((s) => s.visitors)).toEqual([3, 2, 2, 1]);
      for (const step of funnel.steps) expect(step.fromPrevious ?? 0).toBeLessThanOrEqual(1);
    });
  });

  describe('private pages', () => {
    it('are never stored by their address, and never listed — rows stored before the rule included', async () => {
      const order = orders[0] ?? (await placeOrder([{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }], 'p'));
      const cancelToken = 'Xy3kQ9pLm2Rt7vWz8aBc4dEf';
      const a = visitor(4);
      await hit(a, '/shop');
      await hit(a, `/checkout/order/${order.id}`, 202);
      await hit(a, '/account/orders');
      await hit(a, `/subscriptions/cancel/${cancelToken}`);
      await commerce(a, 'CommerceShopping_CheckoutConfirmed', {
        id: order.id,
        pagePath: `/checkout/order/${order.id}`,
      });
      await app.inject({
        method: 'POST',
        url: '/api/1/performance/records',
        headers: { host: SHOP_HOST, 'content-type': 'text/plain', 'user-agent': CHROME },
        payload: JSON.stringify([{ name: 'LCP', value: 1800, path: `/checkout/order/${order.id}` }]),
      });
      await app.inject({
        method: 'POST',
        url: '/api/events/RecordJavascriptErrors',
        headers: withCrumb({ host: SHOP_HOST, 'content-type': 'application/json', 'user-agent': CHROME }),
        payload: JSON.stringify([
          {
            message: `Failed to load https://${SHOP_HOST}/checkout/order/${order.id}`,
            stack: `at show (https://${SHOP_HOST}/checkout/order/${order.id}:1:2)`,
            url: `https://${SHOP_HOST}/checkout/order/${order.id}`,
          },
        ]),
      });
      await flush();

      const stored = JSON.stringify(await getDb().selectFrom('analytics_events').selectAll().execute());
      expect(stored).not.toContain(`/checkout/order/${order.id}`);
      expect(stored).not.toContain('/account/orders');
      expect(stored).not.toContain(cancelToken);

      // A roll-up row written before the rule, with an order page's address (issue 25's report listed these).
      const old = daysBefore(dayOf(new Date()), 2);
      const legacy = {
        site_id: 'shop',
        day: old,
        kind: 'hit',
        name: 'RecordHit',
        path: '/checkout/order/Q2xhdWRlIGlzIGdyZWF0IQ',
        page_type: 202,
        events: 5,
        visitors: 1,
        visits: 1,
        refs: 0,
        value_sum: 0,
        good: 0,
        needs_improvement: 0,
        poor: 0,
        p75: null,
        sample: null,
      };
      await getDb()
        .insertInto('analytics_daily')
        .values([
          legacy,
          { ...legacy, page_type: -1, path: '*' },
          { ...legacy, kind: 'vital', name: 'LCP', events: 1, p75: 2600, needs_improvement: 1 },
        ])
        .execute();

      const full = await report();
      expect(full.topPages).toEqual([{ path: '/shop', pageViews: 1, visitors: 1 }]);
      expect(full.privatePageViews).toBe(3 + 5);
      expect(full.vitals.map((v) => v.path)).toEqual([PRIVATE_PAGES]);
      expect(full.vitals[0]).toMatchObject({ metric: 'LCP', samples: 2 });
      expect(full.errors[0]!.message).toBe(`Failed to load https://${SHOP_HOST}${PRIVATE_PAGES}`);
      for (const shown of [JSON.stringify(full), reportHtml(full), reportText(full).join('\n')]) {
        expect(shown).not.toContain(order.id);
        expect(shown).not.toContain('Q2xhdWRlIGlzIGdyZWF0IQ');
        expect(shown).not.toContain('/checkout/order');
        expect(shown).not.toContain('/account');
        expect(shown).not.toContain(cancelToken);
      }
    });
  });
});
