/**
 * The owner's report in /admin on SQLite and PostgreSQL: who may read it (report.read: page and API), the period
 * choice (7 / 30 / 90 days), net sales equal to the orders placed, the charts each with its table, and the JSON.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { money } from '../../src/modules/analytics/reportPage';
import { buildApp } from '../../src/server/app';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { placeOrder, type PlacedOrder } from '../support/placeOrder';
import { signInAs } from '../support/siteUsers';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  const orders: PlacedOrder[] = [];
  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });

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
    orders.push(await placeOrder(app, getDb(), [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 2 }], { key: 'r1' }));
    orders.push(await placeOrder(app, getDb(), [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }], { key: 'r2' }));
  });
  afterAll(async () => app?.close());

  describe('who may read it', () => {
    it('sends nobody to the sign-in and refuses the API', async () => {
      expect((await get('/admin/report')).statusCode).toBe(303);
      expect((await get('/api/admin/report')).statusCode).toBe(401);
    });

    it('refuses a role without report.read, showing no figures', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.COMMENTER);
      const page = await get('/admin/report', cookie);
      expect(page.statusCode).toBe(403);
      expect(page.body).not.toContain('Net sales');
      expect((await get('/api/admin/report', cookie)).statusCode).toBe(403);
    });

    it('shows the reporting role the report and the section in the navigation', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.REPORTING);
      const page = await get('/admin/report', cookie);
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toMatch(/<a href="\/admin\/report" aria-current="page">Report<\/a>/);
    });
  });

  describe('the page', () => {
    it('shows net sales equal to the orders placed, and each chart with its table', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
      const page = await get('/admin/report', cookie);
      expect(page.statusCode).toBe(200);
      const total = orders.reduce((n, o) => n + o.total, 0);
      expect(page.body).toContain(`<dt>Net sales</dt><dd>${money(total, 'USD')}`);
      expect(page.body).toContain('<dt>Orders</dt><dd>2</dd>');
      expect(page.body).toContain(
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="sales-chart-title"',
      );
      expect(page.body).toContain('<caption>Sales by day</caption>');
      expect(page.body).toContain('aria-labelledby="visits-chart-title"');
      expect(page.body).toContain('<caption>Visits by day</caption>');
      expect(page.body).toContain('<option value="30" selected="">Last 30 days</option>');
      expect(page.body).toContain('(30 days, UTC)');
    });

    it('takes a period of 7, 30 or 90 days, and refuses others', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
      const week = await get('/admin/report?days=7', cookie);
      expect(week.statusCode).toBe(200);
      expect(week.body).toContain('(7 days, UTC)');
      expect(week.body).toContain('<option value="7" selected="">Last 7 days</option>');
      expect((await get('/admin/report?days=90', cookie)).body).toContain('(90 days, UTC)');
      expect((await get('/admin/report?days=12', cookie)).statusCode).toBe(400);
    });
  });

  describe('the API', () => {
    it('answers the report as JSON for any whole number of days', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.REPORTING);
      const answer = await get('/api/admin/report?days=14', cookie);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      const report = answer.json();
      expect(report).toMatchObject({ siteId: 'shop', days: 14, currency: 'USD' });
      expect(report.sales.netSales).toBe(orders.reduce((n, o) => n + o.total, 0));
      expect(report.sales.orders).toBe(2);
      expect((await get('/api/admin/report?days=0', cookie)).statusCode).toBe(400);
      expect((await get('/api/admin/report?days=x', cookie)).statusCode).toBe(400);
    });
  });

  // Last: it refunds.
  describe('refunds', () => {
    it('takes each refund off net sales on the day it was made: a line in part, then the rest of the order', async () => {
      const manager = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER);
      const reporting = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.REPORTING);
      const refund = (body: Record<string, unknown>, key: string) =>
        app.inject({
          method: 'POST',
          url: `/api/admin/orders/${orders[0]!.number}/refunds`,
          headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/json', 'idempotency-key': key },
          payload: JSON.stringify(body),
        });
      const gross = orders.reduce((n, o) => n + o.total, 0);
      const first = await refund({ amountCents: 500, reason: 'Scuffed' }, 'report-refund-1');
      expect(first.statusCode, first.body).toBe(201);
      let sales = (await get('/api/admin/report?days=7', reporting)).json().sales;
      expect(sales).toMatchObject({ grossSales: gross, netSales: gross - 500, refunds: { orders: 1, amount: 500 } });
      const rest = await refund({ amountCents: orders[0]!.total - 500, reason: 'Returned' }, 'report-refund-2');
      expect(rest.statusCode, rest.body).toBe(201);
      sales = (await get('/api/admin/report?days=7', reporting)).json().sales;
      expect(sales).toMatchObject({
        grossSales: gross,
        netSales: gross - orders[0]!.total,
        refunds: { orders: 1, amount: orders[0]!.total },
      });
    });
  });
});
