/**
 * Analytics (issue 11) on SQLite and PostgreSQL: the census, events, error and performance endpoints (validation,
 * 202, the crumb where the spec asks for it), the buffer's batched writes, the daily roll-up and retention, and the
 * report's figures from known events — a purchase included.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { analyticsRecorderOf } from '../../src/modules/analytics/routes';
import { AnalyticsBuffer } from '../../src/modules/analytics/buffer';
import { analyticsReport } from '../../src/modules/analytics/report';
import { applyRetention, percentile75, rollupDay } from '../../src/modules/analytics/rollup';
import { dayOf } from '../../src/modules/analytics/visitorHash';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { sendCrumbs, TEST_CRUMB, withCrumb } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const VISITOR = '11111111-2222-4333-8444-555555555555';
const form = { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': CHROME };
const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const visitCookie = (id: string, start: number, count = 1) => `${id}|${start}|${start}|${start}|${count}`;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await analyticsRecorderOf(app)!.buffer.flush();
    await getDb().deleteFrom('analytics_events').execute();
    await getDb().deleteFrom('analytics_daily').execute();
  });

  const flush = () => analyticsRecorderOf(app)!.buffer.flush();
  const events = async () => getDb().selectFrom('analytics_events').selectAll().orderBy('id').execute();
  const hit = (path: string, cookie?: string, extra: Record<string, unknown> = {}, ua = CHROME) =>
    app.inject({
      method: 'POST',
      url: '/api/census/RecordHit',
      headers: { ...form, 'user-agent': ua },
      payload: encode({
        event: 'RecordHit',
        data: JSON.stringify({ pagePath: path, websiteId: 'ignored', ...extra }),
        ...(cookie ? { ss_cvr: cookie } : {}),
      }),
    });
  const commerce = (event: string, data: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/events/RecordEvent',
      headers: { ...form, cookie: `crumb=${TEST_CRUMB}`, ...headers },
      payload: encode({ event, crumb: TEST_CRUMB, data: JSON.stringify(data) }),
    });

  describe('RecordHit', () => {
    it('answers 202 without the crumb (a beacon) and stores no IP or user agent: a browser family, a device class, salted hashes', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/census/RecordHit',
        headers: { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': IPHONE },
        payload: encode({
          event: 'RecordHit',
          data: JSON.stringify({ pagePath: '/shop?x=1', pageType: 1 }),
          ss_cvr: visitCookie(VISITOR, 1_700_000_000_000),
        }),
      });
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe('');
      await flush();
      const [row] = await events();
      expect(row).toMatchObject({
        site_id: 'shop',
        kind: 'hit',
        name: 'RecordHit',
        path: '/shop',
        page_type: 1,
        browser: 'Safari',
        device: 'mobile',
        country: null,
      });
      expect(row!.visitor_hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(JSON.stringify(row)).not.toContain(VISITOR);
      expect(JSON.stringify(row)).not.toContain('127.0.0.1');
      expect(JSON.stringify(row)).not.toContain('iPhone');
    });

    it('refuses a body that is not the census payload with a clear 400, and another website with 403', async () => {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/census/RecordHit',
        headers: form,
        payload: encode({ event: 'RecordHit', data: '{nope' }),
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain("'data'");
      const json = await app.inject({
        method: 'POST',
        url: '/api/census/RecordHit',
        headers: { host: SHOP_HOST, 'content-type': 'application/json' },
        payload: '[]',
      });
      expect(json.statusCode).toBe(400);
      const cross = await app.inject({
        method: 'POST',
        url: '/api/census/RecordHit',
        headers: { ...form, origin: 'https://evil.test' },
        payload: encode({ data: '{}' }),
      });
      expect(cross.statusCode).toBe(403);
      const big = await app.inject({
        method: 'POST',
        url: '/api/census/RecordHit',
        headers: form,
        payload: encode({ data: JSON.stringify({ pageTitle: 'x'.repeat(40_000) }) }),
      });
      expect(big.statusCode).toBe(413);
      await flush();
      expect(await events()).toEqual([]);
    });

    it('does not count bots', async () => {
      expect((await hit('/', undefined, {}, 'Googlebot/2.1 (+http://www.google.com/bot.html)')).statusCode).toBe(202);
      await flush();
      expect(await events()).toEqual([]);
    });
  });

  describe('the other census calls', () => {
    it('take button clicks, form renders and quick views (202)', async () => {
      for (const call of ['button-click', 'button-render', 'form-render', 'overlay']) {
        const r = await app.inject({
          method: 'POST',
          url: `/api/census/${call}`,
          headers: form,
          payload: encode({ formId: 'contact', data: JSON.stringify({ pagePath: '/contact' }) }),
        });
        expect(r.statusCode, call).toBe(202);
      }
      const quick = await app.inject({
        method: 'POST',
        url: '/api/census/RecordQuickView/tee',
        headers: { host: SHOP_HOST, 'user-agent': CHROME, referer: `http://${SHOP_HOST}/shop` },
      });
      expect(quick.statusCode).toBe(202);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/census/RecordQuickView/%3Cscript%3E',
            headers: { host: SHOP_HOST, 'user-agent': CHROME },
          })
        ).statusCode,
      ).toBe(400);
      await flush();
      expect((await events()).map((e) => [e.name, e.path, e.ref])).toEqual([
        ['button-click', '/contact', 'contact'],
        ['button-render', '/contact', 'contact'],
        ['form-render', '/contact', 'contact'],
        ['overlay', '/contact', 'contact'],
        ['RecordQuickView', '/shop', 'tee'],
      ]);
    });
  });

  describe('the events endpoint', () => {
    it('takes a §7 event with the crumb as a form field (202); 403 without it; 400 for an unknown event', async () => {
      expect(
        (await commerce('CommerceShopping_VisitPDP', { itemId: 'tee', pagePath: '/shop/p/tee', value: 25 })).statusCode,
      ).toBe(202);
      const noCrumb = await app.inject({
        method: 'POST',
        url: '/api/events/RecordEvent',
        headers: { ...form, 'x-csrf-token': 'wrong-crumb-xxxxxxxxxxx' },
        payload: encode({ event: 'CommerceShopping_VisitPDP', data: '{}' }),
      });
      expect(noCrumb.statusCode).toBe(403);
      const unknown = await commerce('Nope', {});
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toContain("'event'");
      const fakePurchase = await commerce('CommerceShopping_CheckoutConfirmed', { id: 'no-such-order', value: 1e6 });
      expect(fakePurchase.statusCode).toBe(400);
      await flush();
      expect((await events()).map((e) => [e.kind, e.name, e.ref, e.value])).toEqual([
        ['commerce', 'CommerceShopping_VisitPDP', 'tee', 25],
      ]);
    });
  });

  describe('the error reporter', () => {
    const report = (body: unknown, headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/events/RecordJavascriptErrors',
        headers: { host: SHOP_HOST, 'content-type': 'application/json', 'user-agent': CHROME, ...headers },
        payload: JSON.stringify(body),
      });

    it('needs the crumb header (403 without), bounds the batch and the stacks', async () => {
      const refused = await report([{ message: 'boom' }], {
        cookie: `crumb=${TEST_CRUMB}`,
        'x-csrf-token': 'AAAAAAAAAAAAAAAAAAAAAA',
      });
      expect(refused.statusCode).toBe(403);
      expect((await report([{ message: 'x' }], { 'x-csrf-token': '' })).statusCode).toBe(403);
      expect((await report([], withCrumb())).statusCode).toBe(400);
      expect(
        (
          await report(
            Array.from({ length: 11 }, () => ({ message: 'x' })),
            withCrumb(),
          )
        ).statusCode,
      ).toBe(400);
      const ok = await report(
        [
          {
            message: 'TypeError: a is undefined',
            stack: 'at f (main.js:1:2)\n'.repeat(600),
            url: `http://${SHOP_HOST}/shop/p/tee?q=1`,
          },
        ],
        withCrumb(),
      );
      expect(ok.statusCode).toBe(202);
      await flush();
      const [row] = await events();
      expect(row).toMatchObject({ kind: 'error', name: 'TypeError: a is undefined', path: '/shop/p/tee' });
      expect(row!.detail!.length).toBe(5000);
    });
  });

  describe('performance records', () => {
    it('take a text/plain batch without the crumb; ratings are computed here; bad records are skipped', async () => {
      const batch = [
        { name: 'LCP', value: 2000, rating: 'poor', path: '/', element: 'img.hero'.repeat(40) },
        { name: 'CLS', value: 0.3, path: '/' },
        { name: 'TTFB', value: 120, path: '/' },
        { name: 'XYZ', value: 1, path: '/' },
        { name: 'INP', value: -1, path: '/' },
      ];
      const r = await app.inject({
        method: 'POST',
        url: '/api/1/performance/records',
        headers: { host: SHOP_HOST, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME },
        payload: JSON.stringify(batch),
      });
      expect(r.statusCode).toBe(202);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/1/performance/records',
            headers: { host: SHOP_HOST, 'content-type': 'text/plain', 'user-agent': CHROME },
            payload: 'nope',
          })
        ).statusCode,
      ).toBe(400);
      await flush();
      const rows = await events();
      expect(rows.map((e) => [e.name, e.value, e.rating])).toEqual([
        ['LCP', 2000, 'good'],
        ['CLS', 0.3, 'poor'],
        ['TTFB', 120, null],
      ]);
      expect(rows[0]!.detail!.length).toBe(200);
    });
  });

  describe('the buffer', () => {
    it('writes in batches: nothing before a flush, everything at maxBatch or on the timer', async () => {
      const buffer = new AnalyticsBuffer(getDb(), { flushIntervalMs: 60_000, maxBatch: 5 });
      const row = (n: number) => ({
        site_id: 'shop',
        day: '2026-01-01',
        created_at: '2026-01-01T00:00:00Z',
        kind: 'hit',
        name: 'RecordHit',
        path: `/p${n}`,
        visitor_hash: 'v',
        browser: 'Chrome',
        device: 'desktop',
      });
      buffer.push(row(1), row(2), row(3), row(4));
      expect(await events()).toEqual([]);
      buffer.push(row(5));
      await buffer.flush();
      expect((await events()).length).toBe(5);
      buffer.push(row(6));
      await buffer.close();
      expect((await events()).length).toBe(6);
      expect(buffer.written).toBe(6);

      const timed = new AnalyticsBuffer(getDb(), { flushIntervalMs: 50, maxBatch: 1000, maxBuffered: 2 });
      timed.push(row(7), row(8), row(9));
      expect(timed.dropped).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await events()).length).toBe(8);
      await timed.close();
    });
  });

  describe('roll-up, retention and the report', () => {
    it('computes visits, visitors, top pages, the funnel with a real purchase, sales, p75s and top errors', async () => {
      const start = Date.now() - 60_000;
      const a = visitCookie(VISITOR, start);
      const b = visitCookie('99999999-2222-4333-8444-555555555555', start);
      await hit('/', a);
      await hit('/shop/p/tee', a, { pageType: 50, itemId: 'tee' });
      await hit('/shop/p/tee', b, { pageType: 50 });
      await hit('/checkout', a, { pageType: 201 });
      // A second visit of A (a new session start).
      await hit('/', `${VISITOR}|${start}|${start}|${start + 1}|2`);

      const cookieA = `ss_cvr=${encodeURIComponent(a)}`;
      await commerce('CommerceShopping_VisitPDP', { itemId: 'tee' }, { cookie: `crumb=${TEST_CRUMB}; ${cookieA}` });
      await commerce(
        'CommerceShopping_VisitPDP',
        { itemId: 'tee' },
        { cookie: `crumb=${TEST_CRUMB}; ss_cvr=${encodeURIComponent(b)}` },
      );
      await commerce(
        'CommerceShopping_AddToCart',
        { itemId: 'tee', value: 19.99 },
        { cookie: `crumb=${TEST_CRUMB}; ${cookieA}` },
      );

      // A real order, then its confirmation page's purchase event, sent twice (a reload): one purchase.
      const added = await app.inject({
        method: 'POST',
        url: '/api/commerce/shopping-cart/entries',
        headers: { host: SHOP_HOST, 'content-type': 'application/json' },
        payload: JSON.stringify({ itemId: 'tee', sku: 'tee-s-blue', quantity: 2, additionalFields: '' }),
      });
      expect(added.statusCode, added.body).toBe(200);
      const cart = `CART=${added.cookies.find((c) => c.name === 'CART')!.value}`;
      const placed = await app.inject({
        method: 'POST',
        url: '/api/commerce/checkout/orders',
        headers: { host: SHOP_HOST, 'content-type': 'application/json', cookie: cart },
        payload: JSON.stringify({
          idempotencyKey: 'analytics-test-order-0001',
          email: 'ada@example.com',
          shippingAddress: NEW_YORK,
          shippingOptionId: 'standard',
          payment: TEST_CARD,
        }),
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const orderId = await getDb().selectFrom('orders').select(['id', 'grand_total']).executeTakeFirstOrThrow();
      for (let i = 0; i < 2; i++) {
        expect(
          (
            await commerce(
              'CommerceShopping_CheckoutConfirmed',
              { id: orderId.id, value: 99999 },
              { cookie: `crumb=${TEST_CRUMB}; ${cookieA}` },
            )
          ).statusCode,
        ).toBe(202);
      }

      const vitals = [1000, 2000, 3000, 5000].map((value) => ({ name: 'LCP', value, path: '/shop/p/tee' }));
      await app.inject({
        method: 'POST',
        url: '/api/1/performance/records',
        headers: { host: SHOP_HOST, 'content-type': 'text/plain', 'user-agent': CHROME },
        payload: JSON.stringify(vitals),
      });
      for (let i = 0; i < 3; i++) {
        await app.inject({
          method: 'POST',
          url: '/api/events/RecordJavascriptErrors',
          headers: withCrumb({ host: SHOP_HOST, 'content-type': 'application/json', 'user-agent': CHROME }),
          payload: JSON.stringify([{ message: 'boom', stack: 'at x' }]),
        });
      }
      await flush();

      const report = await analyticsReport(getDb(), { siteId: 'shop', currency: 'USD', days: 30, now: new Date() });
      expect(report).toMatchObject({ pageViews: 5, uniqueVisitors: 2, visits: 3 });
      expect(report.topPages).toEqual([
        { path: '/', pageViews: 2, visitors: 1 },
        { path: '/shop/p/tee', pageViews: 2, visitors: 2 },
      ]);
      // The checkout page is private: counted, never listed.
      expect(report.privatePageViews).toBe(1);
      expect(report.funnel.steps.map((s) => s.visitors)).toEqual([2, 1, 1, 1]);
      expect(report.funnel.conversion).toBe(0.5);
      // Sales come from the orders table, whatever the page claimed (value 99999).
      expect(report.sales).toMatchObject({
        orders: 1,
        grossSales: Number(orderId.grand_total),
        netSales: Number(orderId.grand_total),
        currency: 'USD',
      });
      expect(report.vitals).toEqual([
        {
          path: '/shop/p/tee',
          metric: 'LCP',
          p75: 3000,
          rating: 'needs-improvement',
          samples: 4,
          shares: { good: 0.5, needsImprovement: 0.25, poor: 0.25 },
        },
      ]);
      expect(report.errors).toEqual([{ message: 'boom', count: 3, visitors: 1, sampleStack: 'at x' }]);

      // Rolling up again changes nothing.
      const before = await getDb().selectFrom('analytics_daily').selectAll().execute();
      await rollupDay(getDb(), dayOf(new Date()));
      expect((await getDb().selectFrom('analytics_daily').selectAll().execute()).length).toBe(before.length);
    });

    it('retention rolls up and deletes raw events older than the kept days, and old salts; the report still reads the roll-up', async () => {
      const old = '2026-01-01';
      const row = (n: number) => ({
        site_id: 'shop',
        day: old,
        created_at: `${old}T10:00:00Z`,
        kind: 'hit',
        name: 'RecordHit',
        path: '/',
        page_type: 1,
        visitor_hash: `v${n}`,
        visit_hash: `s${n}`,
        browser: 'Chrome',
        device: 'desktop',
      });
      await getDb()
        .insertInto('analytics_events')
        .values([row(1), row(2), row(2)])
        .execute();
      await getDb()
        .insertInto('analytics_salts')
        .values({ day: old, salt: 'old' })
        .onConflict((oc) => oc.column('day').doNothing())
        .execute();
      const now = new Date('2026-02-15T12:00:00Z');
      expect(await applyRetention(getDb(), now, 30)).toEqual({ days: 1, events: 3 });
      expect(await events()).toEqual([]);
      expect(await getDb().selectFrom('analytics_salts').select('day').where('day', '=', old).execute()).toEqual([]);
      const report = await analyticsReport(getDb(), { siteId: 'shop', currency: 'USD', days: 60, now });
      expect(report).toMatchObject({ pageViews: 3, uniqueVisitors: 2, visits: 2 });
    });
  });
});

describe('percentile75', () => {
  it('is the nearest-rank 75th percentile', () => {
    expect(percentile75([])).toBeNull();
    expect(percentile75([5])).toBe(5);
    expect(percentile75([4, 1, 3, 2])).toBe(3);
    expect(percentile75([1, 2, 3, 4, 5, 6, 7, 8])).toBe(6);
  });
});
