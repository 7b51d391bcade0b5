/**
 * The inventory at /admin on SQLite and PostgreSQL: the list and its filters, set and adjust (deltas in the database:
 * 20 concurrent +1 all count; below 0 refused, nothing changed), each variant's history (import, sale, refund, edit),
 * the audit entry, a viewer's refusal, and the storefront's cached page showing the change at once.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from '../../src/core/result';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import { putBack, takeStock } from '../../src/modules/catalog';
import { findSiteByHost } from '../../src/modules/site/sites';
import { inTransaction } from '../../src/platform/db/transaction';
import { buildApp } from '../../src/server/app';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { TEST_CRUMB } from '../support/crumb';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { forEachEngine } from '../support/engines';
import { signInAs } from '../support/siteUsers';

const WITHIN_MS = 2_000;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let siteId: string;
  let manager: string;
  let viewer: string;
  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const post = (sku: string, body: unknown, cookie: string) =>
    app.inject({
      method: 'POST',
      url: `/api/admin/inventory/${encodeURIComponent(sku)}`,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/json', [CRUMB_HEADER]: TEST_CRUMB },
      payload: JSON.stringify(body),
    });
  const stockOf = async (sku: string) =>
    (await getDb()
      .selectFrom('variants')
      .select(['qty_in_stock', 'unlimited'])
      .where('site_id', '=', siteId)
      .where('sku', '=', sku)
      .executeTakeFirstOrThrow()) as { qty_in_stock: number; unlimited: number };

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    siteId = (await findSiteByHost(getDb(), SHOP_HOST))!.id;
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    manager = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER);
    viewer = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
  });
  afterAll(async () => app?.close());

  it('lists every variant with its live stock, filtered and searched', async () => {
    const all = await get('/api/admin/inventory', viewer);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.lowStockThreshold).toBe(5);
    const count = Number(
      (
        await getDb()
          .selectFrom('variants')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('site_id', '=', siteId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    // One page holds them all (fewer than 50): in the catalog's order, no next page.
    expect(body.items).toHaveLength(count);
    expect(body.hasNextPage).toBe(false);
    expect(body.items.find((i: { sku: string }) => i.sku === 'ooak-1')).toMatchObject({
      productName: 'One of a kind',
      qtyInStock: 1,
      low: true,
      soldOut: false,
    });
    const low = (await get('/api/admin/inventory?filter=low', viewer)).json();
    expect(low.items.every((i: { low: boolean }) => i.low)).toBe(true);
    expect(low.items.map((i: { sku: string }) => i.sku)).toContain('ooak-1');
    const found = (await get('/api/admin/inventory?q=one%20of', viewer)).json();
    expect(found.items.map((i: { sku: string }) => i.sku)).toEqual(['ooak-1']);
    expect((await get('/api/admin/inventory?q=OOAK', viewer)).json().items).toHaveLength(1);

    const page = await get('/admin/inventory?filter=low', manager);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('One of a kind');
    expect(page.body).toContain('action="/admin/inventory/ooak-1"');
    expect(page.body).toMatch(/<a href="\/admin\/inventory" aria-current="page">Inventory<\/a>/);
  });

  it('sets, adjusts, refuses below 0, and writes the audit entry', async () => {
    const set = await post('ooak-1', { mode: 'set', quantity: 10, reason: 'Recount' }, manager);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ before: 1, after: 10, delta: 9 });
    const down = await post('ooak-1', { mode: 'adjust', quantity: '-3', reason: 'Damaged' }, manager);
    expect(down.json()).toMatchObject({ before: 10, after: 7, delta: -3 });
    const below = await post('ooak-1', { mode: 'adjust', quantity: -8 }, manager);
    expect(below.statusCode).toBe(409);
    expect(below.json()).toMatchObject({
      code: 'stock-change-refused',
      message: 'Stock cannot go below 0: ooak-1 has 7 in stock, so it can go down by 7 at most.',
    });
    expect((await stockOf('ooak-1')).qty_in_stock).toBe(7);
    expect((await post('nope', { mode: 'set', quantity: 1 }, manager)).statusCode).toBe(404);
    expect((await post('ooak-1', { mode: 'set', quantity: 'x' }, manager)).statusCode).toBe(400);
    const audit = await listAudit(getDb(), siteId, { subject: { type: 'variant', id: 'ooak-1' } });
    expect(audit.records.map((r) => r.summary)).toEqual([
      'Adjusted the stock of ooak-1 by -3 to 7 (Damaged)',
      'Set the stock of ooak-1 to 10 (Recount)',
    ]);
  });

  it('counts 20 concurrent adjustments of +1', async () => {
    const before = Number((await stockOf('ooak-1')).qty_in_stock);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('ooak-1', { mode: 'adjust', quantity: 1 }, manager)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(Number((await stockOf('ooak-1')).qty_in_stock)).toBe(before + 20);
    const history = (await get('/api/admin/inventory/ooak-1/history', viewer)).json();
    expect(
      history.movements.filter((m: { delta: number; reason: string }) => m.reason === 'edit' && m.delta === 1),
    ).toHaveLength(20);
    expect(history.item.qtyInStock).toBe(before + 20);
  });

  it('shows sales, refunds, imports and edits in the history, newest first', async () => {
    await post('ooak-1', { mode: 'set', quantity: 5 }, manager);
    await inTransaction(getDb(), async (trx) => ok(await takeStock(trx, siteId, 'ooak-1', 2, { orderId: 'order-1' })));
    await inTransaction(getDb(), async (trx) => ok(await putBack(trx, siteId, 'ooak-1', 1, { orderId: 'order-1' })));
    const { movements } = (await get('/api/admin/inventory/ooak-1/history', viewer)).json();
    expect(
      movements
        .slice(0, 3)
        .map((m: { reason: string; delta: number; qtyAfter: number }) => [m.reason, m.delta, m.qtyAfter]),
    ).toEqual([
      ['refund', 1, 4],
      ['sale', -2, 3],
      ['edit', expect.any(Number), 5],
    ]);
    expect(movements[0].orderId).toBe('order-1');
    expect(movements.at(-1)).toMatchObject({ reason: 'import', delta: 1, qtyAfter: 1 });
    const page = await get('/admin/inventory/ooak-1', viewer);
    expect(page.statusCode).toBe(200);
    for (const text of ['Refund', 'Sale', 'Edit', 'Import']) expect(page.body).toContain(`<td>${text}</td>`);
    expect(page.body).not.toContain('action="/admin/inventory/ooak-1"');
  });

  it('takes nothing and writes no history for a sale of more than is left (PostgreSQL: one statement does both)', async () => {
    const stockBefore = Number((await stockOf('ooak-1')).qty_in_stock);
    await post('ooak-1', { mode: 'set', quantity: 2 }, manager);
    const historyLength = async () =>
      (await get('/api/admin/inventory/ooak-1/history', viewer)).json().movements.length as number;
    const before = await historyLength();
    const taken = await inTransaction(getDb(), async (trx) =>
      ok(await takeStock(trx, siteId, 'ooak-1', 3, { orderId: 'order-2' })),
    );
    expect(taken).toEqual(ok(false));
    expect(Number((await stockOf('ooak-1')).qty_in_stock)).toBe(2);
    expect(await historyLength()).toBe(before);
    // Exactly what is left: taken, its history row says 0 after.
    const all = await inTransaction(getDb(), async (trx) =>
      ok(await takeStock(trx, siteId, 'ooak-1', 2, { orderId: 'order-3' })),
    );
    expect(all).toEqual(ok(true));
    const { movements } = (await get('/api/admin/inventory/ooak-1/history', viewer)).json();
    expect(movements[0]).toMatchObject({ reason: 'sale', delta: -2, qtyAfter: 0, orderId: 'order-3' });
    expect(movements).toHaveLength(before + 1);
    await post('ooak-1', { mode: 'set', quantity: stockBefore }, manager);
  });

  it('refuses a viewer: 403, nothing changes', async () => {
    const before = await stockOf('ooak-1');
    const api = await post('ooak-1', { mode: 'set', quantity: 99 }, viewer);
    expect(api.statusCode).toBe(403);
    const form = await app.inject({
      method: 'POST',
      url: '/admin/inventory/ooak-1',
      headers: { host: SHOP_HOST, cookie: viewer, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ mode: 'set', quantity: '99', [CRUMB_FIELD]: TEST_CRUMB }).toString(),
    });
    expect(form.statusCode).toBe(403);
    expect(form.body).toContain('Your account (viewer) may not do this.');
    expect(await stockOf('ooak-1')).toEqual(before);
    expect((await get('/api/admin/inventory')).statusCode).toBe(401);
  });

  it('changes the cached product page at once after a form post', async () => {
    const url = '/shop/p/one-of-a-kind';
    const soldOut = (html: string) => /<button[^>]*disabled[^>]*>Sold Out<\/button>/.test(html);
    await get(url);
    expect(soldOut((await get(url)).body)).toBe(false);
    const form = await app.inject({
      method: 'POST',
      url: '/admin/inventory/ooak-1',
      headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        mode: 'set',
        quantity: '0',
        reason: 'Sold at the fair',
        back: '/admin/inventory?filter=low',
        [CRUMB_FIELD]: TEST_CRUMB,
      }).toString(),
    });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toMatch(/^\/admin\/inventory\?filter=low&done=/);
    const until = Date.now() + WITHIN_MS;
    let body = '';
    while (Date.now() < until) {
      body = (await get(url)).body;
      if (soldOut(body)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(soldOut(body)).toBe(true);
    const refused = await app.inject({
      method: 'POST',
      url: '/admin/inventory/ooak-1',
      headers: { host: SHOP_HOST, cookie: manager, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        mode: 'adjust',
        quantity: '-1',
        back: '/admin/inventory/ooak-1',
        [CRUMB_FIELD]: TEST_CRUMB,
      }).toString(),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Stock cannot go below 0: ooak-1 has 0 in stock, so it can go down by 0 at most.');
  });
});
