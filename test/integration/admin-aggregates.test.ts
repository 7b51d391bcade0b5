/**
 * The owner's area's kept figures (migration 027) on SQLite and PostgreSQL: the customers' orders, total spent and last
 * order, and the forms' submission counts, kept by the database in each write's own transaction — orders placed at once
 * by the same e-mail all count (on SQLite a moment after the order, before anything reads them: migration 032), a
 * refund takes the refunded order out of the total spent as the page showed before,
 * submissions made at once all count — and the customers' figures always equal the orders grouped by e-mail.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { countPendingOrders, pendingOrdersJob } from '../../src/modules/orders';
import { findSiteByHost } from '../../src/modules/site/sites';
import { trigramIndexJob } from '../../src/platform/db/trigramJob';
import { buildApp } from '../../src/server/app';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { placeOrder } from '../support/placeOrder';
import { signInAs } from '../support/siteUsers';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let manager: string;
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, cookie: manager } });
  const customer = async (email: string) =>
    (await get(`/api/admin/customers/${encodeURIComponent(email)}`)).json().customer as {
      orders: number;
      totalSpent: number;
      name: string;
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
    manager = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER);
  });
  afterAll(async () => app?.close());

  it('counts every order of an e-mail placed at once (8 checkouts together)', { timeout: 60_000 }, async () => {
    const tee = [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }];
    const placed = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        placeOrder(app, getDb(), tee, {
          key: `rush-${i}`,
          email: i % 2 ? 'Rush@Example.com' : 'rush@example.com',
          firstName: 'Rush',
          lastName: 'Hour',
        }),
      ),
    );
    expect(await customer('rush@example.com')).toMatchObject({
      orders: 8,
      totalSpent: placed.reduce((n, o) => n + o.total, 0),
      name: 'Rush Hour',
    });
    const listed = (await get('/api/admin/customers?q=rush%40')).json().customers;
    expect(listed).toMatchObject([{ email: 'rush@example.com', orders: 8 }]);
  });

  it('takes a wholly refunded order out of the total spent; a partial refund leaves it (as the page showed)', async () => {
    const tee = [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }];
    const first = await placeOrder(app, getDb(), tee, { key: 'refund-1', email: 'refunded@example.com' });
    const second = await placeOrder(app, getDb(), tee, { key: 'refund-2', email: 'refunded@example.com' });
    expect(await customer('refunded@example.com')).toMatchObject({ orders: 2, totalSpent: first.total + second.total });
    const refund = (number: number, amountCents: number, key: string) =>
      app.inject({
        method: 'POST',
        url: `/api/admin/orders/${number}/refunds`,
        headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/json', 'idempotency-key': key },
        payload: JSON.stringify({ amountCents, reason: 'Test' }),
      });
    expect((await refund(first.number, 100, 'agg-partial')).statusCode).toBe(201);
    expect(await customer('refunded@example.com')).toMatchObject({ orders: 2, totalSpent: first.total + second.total });
    expect((await refund(second.number, second.total, 'agg-whole')).statusCode).toBe(201);
    expect(await customer('refunded@example.com')).toMatchObject({ orders: 2, totalSpent: first.total });
  });

  it('counts an order refunded or removed before anything read its customer as it then is', async () => {
    // SQLite counts an order in its customer's row a moment after it is placed (migration 032): a refund or a removal
    // in between must be counted once, as the order then is; PostgreSQL counts it at once. Nothing reads the
    // customers between these steps.
    const tee = [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }];
    const kept = await placeOrder(app, getDb(), tee, { key: 'later-1', email: 'later@example.com' });
    const refunded = await placeOrder(app, getDb(), tee, { key: 'later-2', email: 'later@example.com' });
    const removed = await placeOrder(app, getDb(), tee, { key: 'later-3', email: 'Later@example.com' });
    const refund = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${refunded.number}/refunds`,
      headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/json', 'idempotency-key': 'later-r' },
      payload: JSON.stringify({ amountCents: refunded.total, reason: 'Test' }),
    });
    expect(refund.statusCode).toBe(201);
    for (const table of ['order_lines', 'payments', 'stock_movements', 'outbox'] as const)
      await getDb().deleteFrom(table).where('order_id', '=', removed.id).execute();
    await getDb().deleteFrom('orders').where('id', '=', removed.id).execute();
    if (engine === 'sqlite')
      expect(
        Number((await sql<{ n: number }>`SELECT count(*) AS n FROM orders_pending`.execute(getDb())).rows[0]!.n),
      ).toBe(2);
    expect(await customer('later@example.com')).toMatchObject({ orders: 2, totalSpent: kept.total });
    // Counted now (every engine): a later refund is a change of a counted order, as before.
    const again = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${kept.number}/refunds`,
      headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/json', 'idempotency-key': 'later-k' },
      payload: JSON.stringify({ amountCents: kept.total, reason: 'Test' }),
    });
    expect(again.statusCode).toBe(201);
    expect(await customer('later@example.com')).toMatchObject({ orders: 2, totalSpent: 0 });
    // The minute's job counts what waits between reads.
    await placeOrder(app, getDb(), tee, { key: 'later-4', email: 'later@example.com' });
    await pendingOrdersJob(getDb()).run();
    const kept2 = await getDb()
      .selectFrom('customers')
      .select('orders_count')
      .where('email', '=', 'later@example.com')
      .executeTakeFirstOrThrow();
    expect(Number(kept2.orders_count)).toBe(3);
  });

  it('counts every submission of a form made at once', async () => {
    const db = getDb();
    const siteId = (await findSiteByHost(db, SHOP_HOST))!.id;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db
          .insertInto('form_submissions')
          .values({
            id: `agg-sub-${i}`,
            site_id: siteId,
            form_id: 'note',
            form_name: 'Gift note',
            fields: '{}',
            answers: '[]',
            page_path: null,
            created_at: new Date(Date.UTC(2026, 4, 1, 10, i)).toISOString(),
          })
          .execute(),
      ),
    );
    const forms = (await get('/api/admin/gathered/forms')).json().forms as { id: string; submissions: number }[];
    expect(forms.find((f) => f.id === 'note')).toMatchObject({
      submissions: 10,
      lastAt: '2026-05-01T10:09:00.000Z',
    });
  });

  it("keeps each customer's figures equal to their orders grouped by e-mail", async () => {
    const db = getDb();
    await countPendingOrders(db);
    const kept = await db
      .selectFrom('customers')
      .select(['email', 'orders_count', 'total_spent', 'last_order_at'])
      .orderBy('email')
      .execute();
    const grouped = await db
      .selectFrom('orders')
      .select([
        sql<string>`lower(email)`.as('email'),
        sql<number>`count(*)`.as('orders_count'),
        sql<number>`sum(case when status = 'paid' then grand_total else 0 end)`.as('total_spent'),
        sql<string>`max(created_at)`.as('last_order_at'),
      ])
      .groupBy(sql`lower(email)`)
      .orderBy(sql`lower(email)`)
      .execute();
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.map((r) => [r.email, Number(r.orders_count), Number(r.total_spent), r.last_order_at])).toEqual(
      grouped.map((r) => [r.email, Number(r.orders_count), Number(r.total_spent), r.last_order_at]),
    );
  });

  it(
    'pages a search of many orders newest first with cursors, and finds one among them',
    { timeout: 60_000 },
    async () => {
      const db = getDb();
      const siteId = (await findSiteByHost(db, SHOP_HOST))!.id;
      const count = 1_050; // more than COMMON_MATCHES: SQLite walks the newest orders for this search's pages
      const orders = Array.from({ length: count }, (_, i) => ({
        id: `many-order-${i}`,
        site_id: siteId,
        number: 10_000 + i,
        cart_id: `many-cart-${i}`,
        email: `common${i}@many.test`,
        status: 'paid' as const,
        currency: 'USD',
        subtotal: 1000,
        shipping: 0,
        tax: 0,
        discount: 0,
        grand_total: 1000,
        prices_include_tax: 0 as const,
        tax_name: 'Sales tax',
        shipping_address: JSON.stringify({ firstName: 'Common', lastName: 'Person' }),
        shipping_option: null,
        coupon_code: null,
        payment_provider: 'test',
        fulfilment: 'pending' as const,
        created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
        updated_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
      }));
      for (let i = 0; i < count; i += 200)
        await db
          .insertInto('orders')
          .values(orders.slice(i, i + 200))
          .execute();
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = (
          await get(`/api/admin/orders?q=many.test${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        ).json() as { orders: { number: number }[]; next: string | null };
        seen.push(...page.orders.map((o) => o.number));
        cursor = page.next;
      } while (cursor !== null && seen.length <= count);
      expect(seen).toEqual(Array.from({ length: count }, (_, i) => 10_000 + count - 1 - i));
      expect(
        (await get('/api/admin/orders?q=common1042%40')).json().orders.map((o: { number: number }) => o.number),
      ).toEqual([11_042]);
      expect(
        (await get('/api/admin/orders?q=person%20common')).json().orders.map((o: { number: number }) => o.number),
      ).toHaveLength(50);
    },
  );

  it('finds an order and its customer by e-mail and name after each change: placed, renamed, renamed again, removed', async () => {
    // SQLite indexes these texts when they are searched (migration 029); each search must see every change before it.
    const numbers = async (q: string) =>
      (await get(`/api/admin/orders?q=${encodeURIComponent(q)}`))
        .json()
        .orders.map((o: { number: number }) => o.number);
    const customers = async (q: string) =>
      (await get(`/api/admin/customers?q=${encodeURIComponent(q)}`))
        .json()
        .customers.map((c: { email: string }) => c.email);
    const tee = [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }];
    expect(await numbers('quill')).toEqual([]);
    const placed = await placeOrder(app, getDb(), tee, {
      key: 'quill-1',
      email: 'qq@ink.test',
      firstName: 'Quentin',
      lastName: 'Quill',
    });
    expect(await numbers('qq@ink')).toEqual([placed.number]);
    expect(await numbers('quentin')).toEqual([placed.number]);
    expect(await customers('quentin')).toEqual(['qq@ink.test']);
    const rename = (lastName: string) =>
      getDb()
        .updateTable('orders')
        .set({ shipping_address: JSON.stringify({ firstName: 'Quentin', lastName }) })
        .where('id', '=', placed.id)
        .execute();
    await rename('Inkwell');
    expect(await numbers('inkwell')).toEqual([placed.number]);
    expect(await numbers('quentin quill')).toEqual([]);
    expect(await customers('inkwell')).toEqual(['qq@ink.test']);
    // Changed before any search has indexed it: found by the new name only.
    const second = await placeOrder(app, getDb(), tee, {
      key: 'quill-2',
      email: 'nn@ink.test',
      firstName: 'Nora',
      lastName: 'Nib',
    });
    await getDb()
      .updateTable('orders')
      .set({ shipping_address: JSON.stringify({ firstName: 'Nora', lastName: 'Feather' }) })
      .where('id', '=', second.id)
      .execute();
    expect(await numbers('feather')).toEqual([second.number]);
    // The job indexes what waits between searches (SQLite; PostgreSQL has nothing waiting).
    await placeOrder(app, getDb(), tee, { key: 'quill-3', email: 'ww@ink.test', firstName: 'Wanda', lastName: 'Well' });
    await trigramIndexJob(getDb()).run();
    const waiting = engine === 'sqlite' ? await sql`SELECT count(*) AS n FROM trigram_pending`.execute(getDb()) : null;
    expect(waiting ? Number((waiting.rows[0] as { n: number }).n) : 0).toBe(0);
    expect(await customers('wanda')).toEqual(['ww@ink.test']);
    expect(await numbers('nora nib')).toEqual([]);
    await getDb().deleteFrom('order_lines').where('order_id', 'in', [placed.id, second.id]).execute();
    await getDb().deleteFrom('payments').where('order_id', 'in', [placed.id, second.id]).execute();
    await getDb().deleteFrom('stock_movements').where('order_id', 'in', [placed.id, second.id]).execute();
    await getDb().deleteFrom('outbox').where('order_id', 'in', [placed.id, second.id]).execute();
    await getDb().deleteFrom('orders').where('id', 'in', [placed.id, second.id]).execute();
    expect(await numbers('inkwell')).toEqual([]);
    expect(await numbers('feather')).toEqual([]);
    expect(await customers('@ink.test')).toEqual(['ww@ink.test']);
  });
});
