/**
 * The app around the routes: site by Host, the error mapping (404, 429, 500), security headers, rate limits in
 * memory and in Redis, and adds racing from two app instances (two pools, as two processes would) on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/platform/db/connect';
import { buildApp } from '../../src/server/app';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { createFreshDb, forEachEngine } from '../support/engines';
import { REDIS_URL, runRedisTests } from '../support/redis';
import { sendCrumbs } from '../support/crumb';

const CART_API = '/api/commerce/shopping-cart';
const ENTRIES_API = '/api/commerce/shopping-cart/entries';

/** A client address of its own per test, so that counters (in Redis too) start from zero on every run. */
const freshIp = () => `10.${randomBytes(3).join('.')}`;

forEachEngine((engine, getDb, getFresh) => {
  describe('without any site', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = sendCrumbs(await buildApp({ db: getDb(), engine }));
    });
    afterAll(async () => app?.close());

    it('answers a clear 404 when no site answers to the host', async () => {
      const response = await app.inject({ method: 'GET', url: CART_API, headers: { host: 'nowhere.test' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'site-not-found',
        message: 'No site is published at nowhere.test.',
        type: 'API_FAILURE',
      });
    });
  });

  describe('with a site', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      await seedSite(getDb(), shopSite);
      // 30 a minute: 5 per 10-second window on each cart route.
      app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 30 }));
    });
    afterAll(async () => app?.close());

    it('sends security headers on every answer', async () => {
      const response = await app.inject({ method: 'GET', url: CART_API, headers: { host: SHOP_HOST } });
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'strict-origin-when-cross-origin',
      });
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(response.headers['content-security-policy']).toContain("script-src 'self';");
      const missing = await app.inject({ method: 'GET', url: '/api/nope', headers: { host: SHOP_HOST } });
      expect(missing.headers['x-content-type-options']).toBe('nosniff');
    });

    it("answers 429 with §8's text once a client passes the cart API's limit", async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const response = await app.inject({
          method: 'GET',
          url: CART_API,
          headers: { host: SHOP_HOST },
          remoteAddress: ip,
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json()).toMatchObject({
            code: 'rate-limited',
            message: 'Please try again in a few seconds.',
            type: 'API_FAILURE',
          });
          expect(response.headers['retry-after']).toBeDefined();
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      // Another client is not affected.
      const other = await app.inject({
        method: 'GET',
        url: CART_API,
        headers: { host: SHOP_HOST },
        remoteAddress: freshIp(),
      });
      expect(other.statusCode).toBe(200);
    });

    it('answers 500 with a generic message, and no internals, when the database fails', async () => {
      // A database without tables: every query fails as it would during an outage.
      const broken = await createFreshDb(engine, { migrate: false });
      const brokenApp = await buildApp({ db: broken.db, engine });
      try {
        const response = await brokenApp.inject({ method: 'GET', url: CART_API, headers: { host: SHOP_HOST } });
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({
          code: 'internal',
          message: 'Something went wrong on our side. Please try again.',
          type: 'API_FAILURE',
        });
      } finally {
        await brokenApp.close();
        await broken.dispose();
      }
    });

    (runRedisTests ? it : it.skip)('shares the limit through Redis between two app instances', async () => {
      const a = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 24, redisUrl: REDIS_URL }));
      const b = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 24, redisUrl: REDIS_URL }));
      try {
        const ip = freshIp();
        const statuses: number[] = [];
        for (const instance of [a, b, a, b, a, b]) {
          const response = await instance.inject({
            method: 'GET',
            url: CART_API,
            headers: { host: SHOP_HOST },
            remoteAddress: ip,
          });
          statuses.push(response.statusCode);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  // Two pools on one PostgreSQL database behave as two processes: only the row lock keeps them apart.
  // (Two SQLite handles in one process cannot show this: better-sqlite3 waits for a lock synchronously.)
  (engine === 'postgres' ? describe : describe.skip)('two app instances on one database', () => {
    it('never oversells one cart across instances', async () => {
      await seedSite(getDb(), shopSite);
      const second = connect(getFresh().url);
      const a = sendCrumbs(await buildApp({ db: getDb(), engine }));
      const b = sendCrumbs(await buildApp({ db: second.db, engine }));
      try {
        const add = (app: FastifyInstance, cookie?: string) =>
          app.inject({
            method: 'POST',
            url: ENTRIES_API,
            headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
            payload: { itemId: 'limited', sku: 'limited-1', quantity: 1 },
          });
        const first = await add(a);
        const cookie = `CART=${first.cookies.find((c) => c.name === 'CART')!.value}`;
        const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => add(i % 2 ? a : b, cookie)));
        expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(6);
        expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(14);
        const cart = (await a.inject({ method: 'GET', url: CART_API, headers: { host: SHOP_HOST, cookie } })).json();
        expect(cart.totalQuantity).toBe(7);
      } finally {
        await a.close();
        await b.close();
        await second.close();
      }
    });
  });
});
