/**
 * The owner's home (/admin, GET /api/admin/home) on SQLite and PostgreSQL: its figures are those of the orders placed,
 * fulfilled and canceled (to fulfil, today's and the week's net sales, the latest orders), of the stock (the
 * inventory's own low and sold-out lists) and of the restock sign-ups waiting; each role sees only what it may
 * (a viewer every figure, the reporting role only the sales, a role outside /admin nothing); nobody signed in is
 * sent to the sign-in with no data.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { money } from '../../src/ui/admin/Orders';
import { buildApp } from '../../src/server/app';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { placeOrder, type PlacedOrder } from '../support/placeOrder';
import { signInAs } from '../support/siteUsers';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  /** pending + paid, fulfilled, canceled, pending + paid (newest). */
  const orders: PlacedOrder[] = [];
  const cookies = new Map<ContributorRole, string>();
  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const post = (url: string, cookie: string, body: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const as = async (role: ContributorRole): Promise<string> => {
    const known = cookies.get(role);
    if (known) return known;
    const cookie = await signInAs(app, getDb(), SHOP_HOST, role);
    cookies.set(role, cookie);
    return cookie;
  };

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
    orders.push(await placeOrder(app, getDb(), [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 2 }], { key: 'h1' }));
    orders.push(await placeOrder(app, getDb(), [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }], { key: 'h2' }));
    orders.push(await placeOrder(app, getDb(), [{ itemId: 'tee', sku: 'tee-s-red', quantity: 1 }], { key: 'h3' }));
    orders.push(
      await placeOrder(app, getDb(), [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 3 }], {
        key: 'h4',
        email: 'grace@example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
      }),
    );
    const admin = await as(ContributorRole.ADMIN);
    expect((await post(`/api/admin/orders/${orders[1]!.number}/fulfil`, admin, { notify: false })).statusCode).toBe(
      200,
    );
    const canceled = await post(`/api/admin/orders/${orders[2]!.number}/cancel`, admin, {
      idempotencyKey: 'admin-home-cancel-0001',
      reason: 'Changed their mind',
    });
    expect(canceled.statusCode, canceled.body).toBe(201);
    // Three shoppers wait for the sold-out red tee (M); one was e-mailed already.
    const site = await getDb().selectFrom('sites').select('id').where('id', '=', 'shop').executeTakeFirstOrThrow();
    await getDb()
      .insertInto('restock_sign_ups')
      .values(
        Array.from({ length: 4 }, (_, i) => ({
          id: `home-rs-${i}`,
          site_id: site.id,
          product_id: 'tee',
          sku: 'tee-m-red',
          email: `waiting${i}@example.com`,
          joined_mailing_list: 0,
          base_url: 'http://shop.test',
          created_at: `2026-05-01T00:00:0${i}.000Z`,
          notified_at: i === 3 ? '2026-05-02T00:00:00.000Z' : null,
          unsubscribe_token_hash: null,
        })),
      )
      .execute();
  });
  afterAll(async () => app?.close());

  describe('the figures', () => {
    it('counts the paid orders pending fulfilment, and the sales less the canceled order, today and in 7 days', async () => {
      const answer = await get('/api/admin/home', await as(ContributorRole.ADMIN));
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      const home = answer.json();
      const today = new Date().toISOString().slice(0, 10);
      expect(home.today).toBe(today);
      expect(home.currency).toBe('USD');
      expect(home.ordersToFulfil).toBe(2);
      const all = orders.reduce((n, o) => n + o.total, 0);
      const net = all - orders[2]!.total;
      expect(home.sales.today).toEqual({
        from: today,
        to: today,
        orders: 4,
        grossSales: all,
        refunds: orders[2]!.total,
        netSales: net,
      });
      expect(home.sales.last7Days).toMatchObject({ to: today, orders: 4, netSales: net });
      expect(Date.parse(home.sales.last7Days.to) - Date.parse(home.sales.last7Days.from)).toBe(6 * 86_400_000);
    });

    it('lists the 5 latest orders, newest first, with their payment and fulfilment', async () => {
      const home = (await get('/api/admin/home', await as(ContributorRole.ADMIN))).json();
      expect(
        home.latestOrders.map((o: { number: number; paymentLabel: string; fulfilmentLabel: string }) => [
          o.number,
          o.paymentLabel,
          o.fulfilmentLabel,
        ]),
      ).toEqual([
        [orders[3]!.number, 'Paid', 'Pending'],
        [orders[2]!.number, 'Refunded', 'Canceled'],
        [orders[1]!.number, 'Paid', 'Fulfilled'],
        [orders[0]!.number, 'Paid', 'Pending'],
      ]);
      expect(home.latestOrders[0]).toMatchObject({ customer: 'Grace Hopper', totalCents: orders[3]!.total });
    });

    it('counts the variants low on stock and sold out as the inventory lists them, and the sign-ups waiting', async () => {
      const admin = await as(ContributorRole.ADMIN);
      const home = (await get('/api/admin/home', admin)).json();
      const low = (await get('/api/admin/inventory?filter=low', admin)).json();
      const soldOut = (await get('/api/admin/inventory?filter=sold-out', admin)).json();
      // Each list on one page (no next page): the counts are its lengths.
      expect([low.hasNextPage, soldOut.hasNextPage]).toEqual([false, false]);
      expect(home.stock).toEqual({ lowStockThreshold: 5, low: low.items.length, soldOut: soldOut.items.length });
      // The red tee S (3 left: the canceled order put its unit back), the kit and the engraved mug (5 each), the print (1).
      expect(low.items.map((i: { sku: string }) => i.sku).sort()).toEqual([
        'engraved-1',
        'kit-1',
        'ooak-1',
        'tee-s-red',
      ]);
      expect(home.stock.soldOut).toBeGreaterThanOrEqual(1);
      expect(home.restockWaiting).toBe(3);
    });

    it('shows them on the page, each linking to its list', async () => {
      const page = await get('/admin', await as(ContributorRole.ADMIN));
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      const html = page.body;
      expect(html).toContain(
        '<a href="/admin/orders?to-fulfil=1"><span class="admin-home-count">2</span> <span>orders to fulfil</span></a>',
      );
      expect(html).toContain('<span>variants low on stock</span>');
      expect(html).toContain('href="/admin/inventory?filter=low"');
      expect(html).toContain('href="/admin/inventory?filter=sold-out"');
      expect(html).toContain(
        '<a href="/admin/gathered/restock"><span class="admin-home-count">3</span> <span>restock sign-ups waiting</span></a>',
      );
      const net = orders.reduce((n, o) => n + o.total, 0) - orders[2]!.total;
      expect(html).toContain(`<dt>Net sales today</dt><dd>${money('USD', net)}</dd>`);
      expect(html).toContain('<dt>Orders, last 7 days</dt><dd>4</dd>');
      expect(html).toContain(`<a href="/admin/orders/${orders[3]!.number}">#${orders[3]!.number}</a>`);
      expect(html).toContain('<span class="admin-badge admin-badge-canceled">Canceled</span>');
      expect(html).toContain('<a href="/admin/audit">Audit log</a>');
    });
  });

  describe('what each role sees', () => {
    it('shows a viewer every figure and no staff or audit section', async () => {
      const cookie = await as(ContributorRole.VIEWER);
      const home = (await get('/api/admin/home', cookie)).json();
      expect(home.ordersToFulfil).toBe(2);
      expect(home.sales.today.orders).toBe(4);
      expect(home.stock.low).toBe(4);
      expect(home.restockWaiting).toBe(3);
      expect(home.latestOrders).toHaveLength(4);
      expect(home.sections.map((s: { label: string }) => s.label)).toEqual([
        'Orders',
        'Inventory',
        'Customers',
        'Gathered',
        'Report',
        'Products',
        'Media',
        'Pages',
        'Blog posts',
        'Settings',
        'Versions',
      ]);
      const page = await get('/admin', cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<span>orders to fulfil</span>');
      expect(page.body).not.toContain('href="/admin/staff"');
      // Read-only: no form in the page's content (the header's sign-out aside).
      expect(page.body.slice(page.body.indexOf('<main'))).not.toContain('<form');
    });

    it('shows a store manager every figure too', async () => {
      const home = (await get('/api/admin/home', await as(ContributorRole.STORE_MANAGER))).json();
      expect(home).toMatchObject({ ordersToFulfil: 2, restockWaiting: 3 });
      expect(home.sections.map((s: { label: string }) => s.label)).not.toContain('Staff');
    });

    it('shows the reporting role the sales only', async () => {
      const cookie = await as(ContributorRole.REPORTING);
      const home = (await get('/api/admin/home', cookie)).json();
      expect(home).toMatchObject({ ordersToFulfil: null, stock: null, restockWaiting: null, latestOrders: null });
      expect(home.sales.today.orders).toBe(4);
      expect(home.sections).toEqual([{ path: '/admin/report', label: 'Report' }]);
      const page = (await get('/admin', cookie)).body;
      expect(page).toContain('<dt>Net sales today</dt>');
      for (const hidden of ['to fulfil', 'low on stock', 'sold out', 'sign-ups waiting', 'Latest orders', 'Grace'])
        expect(page).not.toContain(hidden);
      expect(page).not.toContain(`#${orders[0]!.number}<`);
    });

    it('refuses a role outside /admin, with no figures', async () => {
      const cookie = await as(ContributorRole.COMMENTER);
      const page = await get('/admin', cookie);
      expect(page.statusCode).toBe(403);
      expect(page.body).not.toContain('Net sales');
      expect(page.body).not.toContain('to fulfil');
      const api = await get('/api/admin/home', cookie);
      expect(api.statusCode).toBe(403);
      expect(api.body).not.toContain('netSales');
    });

    it('sends nobody signed in to the sign-in, with no data', async () => {
      const page = await get('/admin');
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toMatch(/^\/account\/sign-in\?next=(%2F|\/)admin$/);
      expect(page.body).not.toContain('to fulfil');
      const api = await get('/api/admin/home');
      expect(api.statusCode).toBe(401);
      expect(api.body).not.toContain('netSales');
    });
  });
});
