/**
 * The owner's customers on SQLite and PostgreSQL: orders grouped by lower-cased e-mail (latest shipping name, count,
 * paid total, last order), newest last order first, searched by e-mail or name, a customer's page with links to their
 * orders, the CSV (formula-safe), the JSON, who may read them, and that the lookups use the index of migration 021.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { buildApp } from '../../src/server/app';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { placeOrder, type PlacedOrder } from '../support/placeOrder';
import { signInAs } from '../support/siteUsers';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let viewer: string;
  const placed: PlacedOrder[] = [];
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
    const tee = [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }];
    placed.push(await placeOrder(app, getDb(), tee, { key: 'c1', email: 'Ada@Example.com', firstName: 'Ada' }));
    placed.push(await placeOrder(app, getDb(), tee, { key: 'c2', email: 'bob@example.com', firstName: '=Bob' }));
    placed.push(
      await placeOrder(app, getDb(), tee, {
        key: 'c3',
        email: 'ada@example.com',
        firstName: 'Augusta',
        lastName: 'King',
      }),
    );
    // Orders keep their place in time: c1, c2, c3 a minute apart.
    for (const [i, o] of placed.entries())
      await getDb()
        .updateTable('orders')
        .set({ created_at: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString() })
        .where('id', '=', o.id)
        .execute();
    viewer = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
  });
  afterAll(async () => app?.close());

  it('keeps out nobody and roles without customers.read', async () => {
    expect((await get('/admin/customers')).statusCode).toBe(303);
    expect((await get('/admin/customers.csv')).statusCode).toBe(303);
    expect((await get('/api/admin/customers')).statusCode).toBe(401);
    const reporting = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.REPORTING);
    const page = await get('/admin/customers', reporting);
    expect(page.statusCode).toBe(403);
    expect(page.body).not.toContain('bob@example.com');
    expect((await get('/admin/customers.csv', reporting)).statusCode).toBe(403);
    expect((await get('/api/admin/customers', reporting)).statusCode).toBe(403);
    expect((await get('/api/admin/customers/bob%40example.com', reporting)).statusCode).toBe(403);
  });

  it('groups the orders by lower-cased e-mail, newest last order first', async () => {
    const answer = await get('/api/admin/customers', viewer);
    expect(answer.statusCode).toBe(200);
    const total = (...orders: PlacedOrder[]) => orders.reduce((n, o) => n + o.total, 0);
    expect(answer.json()).toEqual({
      page: 1,
      hasNextPage: false,
      customers: [
        {
          email: 'ada@example.com',
          name: 'Augusta King',
          orders: 2,
          totalSpent: total(placed[0]!, placed[2]!),
          lastOrderAt: '2026-01-01T10:02:00.000Z',
        },
        {
          email: 'bob@example.com',
          name: '=Bob Lovelace',
          orders: 1,
          totalSpent: total(placed[1]!),
          lastOrderAt: '2026-01-01T10:01:00.000Z',
        },
      ],
    });
  });

  it('searches by e-mail or name, and pages', async () => {
    const emails = async (q: string) =>
      (
        (await get(`/api/admin/customers?q=${encodeURIComponent(q)}`, viewer)).json() as {
          customers: { email: string }[];
        }
      ).customers.map((c) => c.email);
    expect(await emails('BOB@')).toEqual(['bob@example.com']);
    expect(await emails('augusta king')).toEqual(['ada@example.com']);
    // LIKE's and FTS5's own characters are searched as such; a search of fewer than 3 characters is refused, said why.
    expect(await emails('%_"')).toEqual([]);
    expect(await emails('a"b')).toEqual([]);
    const short = await get('/api/admin/customers?q=%25', viewer);
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Type at least 3 characters to search.');
    const shortPage = await get('/admin/customers?q=ad', viewer);
    expect(shortPage.statusCode).toBe(200);
    expect(shortPage.body).toContain('Type at least 3 characters to search.');
    expect(shortPage.body).not.toContain('ada@example.com</a>');
    const page = await get('/admin/customers?q=augusta', viewer);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/admin/customers/ada%40example.com">ada@example.com</a>');
    expect(page.body).not.toContain('bob@example.com');
    expect((await get('/api/admin/customers?page=2', viewer)).json()).toMatchObject({ customers: [], page: 2 });
    expect((await get('/api/admin/customers?page=0', viewer)).statusCode).toBe(400);
  });

  it("shows a customer's orders with links to them", async () => {
    const page = await get('/admin/customers/ADA%40example.com', viewer);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<a href="/admin/orders/${placed[2]!.number}">#${placed[2]!.number}</a>`);
    expect(page.body).toContain(`<a href="/admin/orders/${placed[0]!.number}">#${placed[0]!.number}</a>`);
    // Each order's payment and fulfilment as the orders list shows them.
    expect(page.body).toContain('<span class="admin-badge admin-badge-paid">Paid</span>');
    expect(page.body).toContain('<span class="admin-badge admin-badge-pending">Pending</span>');
    expect(page.body).not.toContain(`/admin/orders/${placed[1]!.number}"`);
    expect((await get('/admin/customers/nobody%40example.com', viewer)).statusCode).toBe(404);
    const api = await get('/api/admin/customers/ada%40example.com', viewer);
    expect(api.json().orders.map((o: { number: number }) => o.number)).toEqual([placed[2]!.number, placed[0]!.number]);
    expect(api.json().orders[0]).toMatchObject({ payment: 'paid', fulfilment: 'pending' });
    expect((await get('/api/admin/customers/nobody%40example.com', viewer)).statusCode).toBe(404);
  });

  it('exports CSV that a spreadsheet cannot read as a formula', async () => {
    const csv = await get('/admin/customers.csv', viewer);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('email,name,orders,total_spent,currency,last_order');
    expect(lines[1]).toMatch(/^ada@example\.com,Augusta King,2,\d+\.\d\d,USD,2026-01-01T10:02:00\.000Z$/);
    expect(lines[2]).toMatch(/^bob@example\.com,'=Bob Lovelace,1,/);
  });

  it('looks a customer up through the index on (site_id, lower(email))', async () => {
    const plan =
      engine === 'sqlite'
        ? await sql<{
            detail: string;
          }>`EXPLAIN QUERY PLAN SELECT id FROM orders WHERE site_id = 'shop' AND lower(email) = 'ada@example.com'`.execute(
            getDb(),
          )
        : await sql<{
            'QUERY PLAN': string;
          }>`EXPLAIN SELECT id FROM orders WHERE site_id = 'shop' AND lower(email) = 'ada@example.com'`.execute(
            getDb(),
          );
    const text = JSON.stringify(plan.rows);
    if (engine === 'sqlite') expect(text).toContain('orders_by_site_email');
    else expect(text).toMatch(/orders_by_site_email|Seq Scan/);
  });

  // Last: it adds orders. A customer with more orders than one read of the list takes (500) comes first once, and the
  // customers after them follow in order on the same page and the next.
  it('pages past a customer of many orders, newest last order first', async () => {
    const model = await getDb()
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', placed[0]!.id)
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: 620 }, (_, i) => ({
      ...model,
      id: `many-${i}`,
      number: 10_000 + i,
      cart_id: `many-cart-${i}`,
      email: 'Many@example.com',
      created_at: new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 100)
      await getDb()
        .insertInto('orders')
        .values(rows.slice(i, i + 100))
        .execute();
    const first = (await get('/api/admin/customers', viewer)).json();
    expect(first.customers.map((c: { email: string; orders: number }) => [c.email, c.orders])).toEqual([
      ['many@example.com', 620],
      ['ada@example.com', 2],
      ['bob@example.com', 1],
    ]);
    expect(first.hasNextPage).toBe(false);
  });
});
