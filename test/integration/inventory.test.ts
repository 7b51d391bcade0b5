/**
 * The inventory call of spec §7 (`GET /api/commerce/inventory/stock/?itemId=…`) on SQLite and PostgreSQL: results per
 * variant with `unlimited` and `qtyInStock`, digital products and gift cards unlimited, several products at once,
 * stock read fresh (an add's sale shows at once), unknown ids 404, bad ids 400, no caching, the cart routes' rate limit.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { OTHER_HOST, SHOP_HOST, otherSite, seedSite, shopSite } from '../support/cartSite';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const STOCK = '/api/commerce/inventory/stock/';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    await seedSite(getDb(), otherSite);
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => {
    await app?.close();
  });

  const stock = (query: string, host = SHOP_HOST) =>
    app.inject({ method: 'GET', url: `${STOCK}${query}`, headers: { host } });

  describe('answers', () => {
    it('gives every variant of a product its own stock, never cached', async () => {
      const response = await stock('?itemId=tee');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json()).toEqual({
        results: [
          { itemId: 'tee', variantId: 'tee-s-red', unlimited: false, qtyInStock: 3 },
          { itemId: 'tee', variantId: 'tee-m-red', unlimited: false, qtyInStock: 0 },
          { itemId: 'tee', variantId: 'tee-s-blue', unlimited: false, qtyInStock: 100 },
        ],
      });
    });

    it('counts digital products and gift cards as unlimited', async () => {
      const response = await stock('?itemId=ebook&itemId=gift');
      expect(response.statusCode).toBe(200);
      expect(response.json().results).toEqual([
        { itemId: 'ebook', variantId: 'ebook-1', unlimited: true, qtyInStock: 0 },
        { itemId: 'gift', variantId: 'gift-25', unlimited: true, qtyInStock: 0 },
        { itemId: 'gift', variantId: 'gift-50', unlimited: true, qtyInStock: 0 },
      ]);
    });

    it('answers several products in the order asked, each once, and the path without its slash too', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/commerce/inventory/stock?itemId=limited&itemId=kit&itemId=limited',
        headers: { host: SHOP_HOST },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().results.map((r: { variantId: string }) => r.variantId)).toEqual(['limited-1', 'kit-1']);
    });

    it('answers the host’s site only', async () => {
      const response = await stock('?itemId=tee', OTHER_HOST);
      expect(response.json()).toEqual({
        results: [{ itemId: 'tee', variantId: 'other-tee', unlimited: false, qtyInStock: 50 }],
      });
    });

    it('reads the stock now: a sale shows in the next answer', async () => {
      await getDb()
        .updateTable('variants')
        .set({ qty_in_stock: 2 })
        .where('site_id', '=', 'shop')
        .where('sku', '=', 'limited-1')
        .execute();
      expect((await stock('?itemId=limited')).json().results[0].qtyInStock).toBe(2);
      await getDb()
        .updateTable('variants')
        .set({ qty_in_stock: 7 })
        .where('site_id', '=', 'shop')
        .where('sku', '=', 'limited-1')
        .execute();
      expect((await stock('?itemId=limited')).json().results[0].qtyInStock).toBe(7);
    });
  });

  describe('refusals', () => {
    it('answers 404 naming an unknown product, and every unknown one of several', async () => {
      const one = await stock('?itemId=no-such-thing');
      expect(one.statusCode).toBe(404);
      expect(one.json()).toMatchObject({
        code: 'product-not-found',
        message: "No product has the id 'no-such-thing'.",
        field: 'itemId',
      });
      const several = await stock('?itemId=tee&itemId=gone-1&itemId=gone-2');
      expect(several.statusCode).toBe(404);
      expect(several.json().message).toBe("No products have the ids 'gone-1', 'gone-2'.");
    });

    it.each([
      ['', 'itemId is required: give the product id, e.g. ?itemId=speckled-mug (repeat it for several products).'],
      [
        '?itemId=',
        'itemId must be a product id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit.',
      ],
      [
        '?itemId=Tee',
        'itemId must be a product id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit.',
      ],
      // Several: the one that is wrong is named by its place.
      [
        '?itemId=tee&itemId=%00',
        'itemId.1 must be a product id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit.',
      ],
      [
        `?itemId=${'a'.repeat(65)}`,
        'itemId must be a product id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit.',
      ],
      [`?${Array.from({ length: 51 }, (_, i) => `itemId=p${i}`).join('&')}`, 'itemId may be given at most 50 times.'],
    ])('answers 400 for %s', async (query, message) => {
      const response = await stock(query);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid-input', message, field: message.split(' ')[0] });
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });
});

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    // 60 a minute: 10 per 10-second window, as for each cart route.
    app = await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 60 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is rate-limited as the cart routes are: 429 with the §8 text once the window’s budget is spent', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await app.inject({ method: 'GET', url: `${STOCK}?itemId=tee`, headers: { host: SHOP_HOST } })).statusCode,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    const refused = await app.inject({ method: 'GET', url: `${STOCK}?itemId=tee`, headers: { host: SHOP_HOST } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Please try again in a few seconds.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
