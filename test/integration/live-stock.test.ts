/**
 * Cached pages follow the stock (issue 23), on SQLite and PostgreSQL: after a sale, a refund's restock or a change made
 * straight in the database (another process, a `vitrine` command), the product's page, its list and the pages whose
 * blocks show it say so within STOCK_WATCH_INTERVAL_MS — while a page whose products did not change stays cached.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { sendCrumbs, withCrumb } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { startServerProcess } from '../support/serverProcess';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const ORDERS_API = '/api/commerce/checkout/orders';
/** What the test waits for at most: the journey allows 2 s; the watch reads every 250 ms. */
const WITHIN_MS = 2_000;

const site = {
  ...checkoutSite,
  pages: [{ id: 'home', path: '/', title: 'Home', blocks: [{ type: 'product', productId: 'one-of-a-kind' }] }],
} as typeof checkoutSite;

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), site);
    const options = { db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 } as const;
    app = sendCrumbs(await buildApp(options));
    // A second server on the same database: another process, as far as the page cache knows.
    second = sendCrumbs(await buildApp(options));
  });
  afterAll(async () => {
    await app?.close();
    await second?.close();
  });

  const get = (server: FastifyInstance, url: string) =>
    server.inject({ method: 'GET', url, headers: { host: SHOP_HOST } });
  const json = (url: string, payload: unknown, cookie?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(payload),
    });
  const cartCookieOf = (response: LightMyRequestResponse) =>
    `CART=${response.cookies.find((c) => c.name === 'CART')!.value}`;
  /** The one-of-a-kind print's button is a disabled 'Sold Out': its page's own, or its card's in a list or block. */
  const soldOut = (html: string) =>
    /<button[^>]*disabled[^>]*>Sold Out<\/button>/.test(html) ||
    /value="ooak-1"\/><button[^>]*disabled=""[^>]*>Sold Out/.test(html);
  const addToCart = (html: string) => /<button[^>]*>Add To Cart<\/button>/.test(html);
  /** Asks until `check` holds for the page, or WITHIN_MS has passed; the last body. */
  async function eventually(server: FastifyInstance, url: string, check: (html: string) => boolean): Promise<string> {
    const until = Date.now() + WITHIN_MS;
    for (;;) {
      const body = (await get(server, url)).body;
      if (check(body) || Date.now() > until) return body;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  describe('a sale of the last unit', () => {
    it('turns the cached product page, its list and a block showing it to Sold Out, on this server and another', async () => {
      const urls = ['/shop/p/one-of-a-kind', '/shop', '/'];
      for (const server of [app, second]) {
        for (const url of urls) {
          // Twice: the second answer is the cached page.
          await get(server, url);
          const cached = await get(server, url);
          expect(cached.statusCode).toBe(200);
          expect(soldOut(cached.body), `${url} before the sale`).toBe(false);
        }
      }
      expect(addToCart((await get(app, '/shop/p/one-of-a-kind')).body)).toBe(true);

      const added = await json(ENTRIES_API, {
        itemId: 'one-of-a-kind',
        sku: 'ooak-1',
        quantity: 1,
        additionalFields: '',
      });
      expect(added.statusCode, added.body).toBe(200);
      const order = await json(
        ORDERS_API,
        {
          idempotencyKey: 'live-stock-order-0001',
          email: 'ada@example.com',
          shippingAddress: NEW_YORK,
          shippingOptionId: 'standard',
          payment: TEST_CARD,
        },
        cartCookieOf(added),
      );
      expect(order.statusCode, order.body).toBe(201);

      for (const server of [app, second]) {
        const page = await eventually(server, '/shop/p/one-of-a-kind', soldOut);
        expect(soldOut(page), 'product page').toBe(true);
        expect(addToCart(page)).toBe(false);
        expect(soldOut(await eventually(server, '/shop', soldOut)), 'product list').toBe(true);
        expect(soldOut(await eventually(server, '/', soldOut)), 'product block').toBe(true);
      }
    });
  });

  describe('a change made in the database by anyone (a command, another process)', () => {
    it('shows the new stock both ways', async () => {
      const tee = await get(app, '/shop/p/tee');
      expect((await get(app, '/shop/p/tee')).headers.etag).toBe(tee.headers.etag);

      await getDb().updateTable('variants').set({ qty_in_stock: 0 }).where('sku', '=', 'ooak-1').execute();
      expect(soldOut(await eventually(app, '/shop/p/one-of-a-kind', soldOut)), 'sold out').toBe(true);
      await getDb().updateTable('variants').set({ qty_in_stock: 3 }).where('sku', '=', 'ooak-1').execute();
      const page = await eventually(app, '/shop/p/one-of-a-kind', addToCart);
      expect(addToCart(page), 'back in stock').toBe(true);
      expect(soldOut(page)).toBe(false);

      // Which pages are dropped is the page cache's unit test (src/render/pageCache.test.ts); here, the tee's is unchanged.
      expect((await get(app, '/shop/p/tee')).headers.etag).toBe(tee.headers.etag);
    });

    it('drops a page at once when its stock changes (the watch read now), not before', async () => {
      await get(app, '/shop/p/limited');
      const before = await get(app, '/shop/p/limited');
      await app.stockWatch.check();
      expect((await get(app, '/shop/p/limited')).headers.etag).toBe(before.headers.etag);

      await getDb().updateTable('variants').set({ qty_in_stock: 0 }).where('sku', '=', 'limited-1').execute();
      await app.stockWatch.check();
      const after = await get(app, '/shop/p/limited');
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(soldOut(after.body)).toBe(true);
    });
  });

  describe('two server processes on one database, over HTTP (cached pages answered before Fastify)', () => {
    // Two server processes start (tsx, the app): 20–30 s on a loaded 2-core machine, more than the default limit.
    it('a sale through one process turns the other’s cached page to Sold Out', { timeout: 120_000 }, async () => {
      await getDb().updateTable('variants').set({ qty_in_stock: 2 }).where('sku', '=', 'ooak-1').execute();
      const [a, b] = await Promise.all([startServerProcess(getFresh().url), startServerProcess(getFresh().url)]);
      try {
        const page = async (base: string) =>
          (await fetch(`${base}/shop/p/one-of-a-kind`, { headers: { host: SHOP_HOST } })).text();
        expect(addToCart(await page(b.base))).toBe(true);
        expect(addToCart(await page(b.base))).toBe(true); // cached now

        const post = (url: string, body: unknown, cookie?: string) =>
          fetch(`${a.base}${url}`, {
            method: 'POST',
            headers: withCrumb({ host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }),
            body: JSON.stringify(body),
          });
        const added = await post(ENTRIES_API, {
          itemId: 'one-of-a-kind',
          sku: 'ooak-1',
          quantity: 2,
          additionalFields: '',
        });
        expect(added.status, await added.clone().text()).toBe(200);
        const cart = /CART=([^;]+)/.exec(added.headers.get('set-cookie') ?? '')![1];
        const order = await post(
          ORDERS_API,
          {
            idempotencyKey: 'live-stock-order-0002',
            email: 'ada@example.com',
            shippingAddress: NEW_YORK,
            shippingOptionId: 'standard',
            payment: TEST_CARD,
          },
          `CART=${cart}`,
        );
        expect(order.status, await order.clone().text()).toBe(201);

        const until = Date.now() + WITHIN_MS;
        let shown = await page(b.base);
        while (!soldOut(shown) && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 50));
          shown = await page(b.base);
        }
        expect(soldOut(shown)).toBe(true);
        expect(addToCart(shown)).toBe(false);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });
  });
});
