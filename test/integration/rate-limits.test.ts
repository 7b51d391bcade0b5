/**
 * Rate limits (issue 12, item 9): a 429 says 'Please try again in a few seconds.' (§8), so Retry-After is never more
 * than 10 s (10-second windows); each client has a global budget across the cart and checkout routes besides each
 * route's own; and when Redis is unreachable the limits are counted in each process (and that is logged) rather than
 * skipped. `cartRateLimitPerMinute: 60` gives each route 10 requests per 10 s and the client 20 across them.
 */
import { randomBytes } from 'node:crypto';
import { createServer, Socket, type Server } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';
import { REDIS_URL, runRedisTests } from '../support/redis';
import { sendCrumbs } from '../support/crumb';

const CART_API = '/api/commerce/shopping-cart';
const TEXT = 'Please try again in a few seconds.';

/** A client address of its own per test, so that counters (in Redis too) start from zero on every run. */
const freshIp = () => `10.${randomBytes(3).join('.')}`;

const json = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): InjectOptions => ({
  method,
  url,
  headers: {
    host: SHOP_HOST,
    'content-type': 'application/json',
    origin: `http://${SHOP_HOST}`,
    'sec-fetch-site': 'same-origin',
  },
  ...(payload ? { payload } : {}),
});

/** Every cart and checkout route a client can call. */
const ROUTES: Record<string, InjectOptions> = {
  'GET cart': { method: 'GET', url: CART_API, headers: { host: SHOP_HOST } },
  'POST entries': json('POST', `${CART_API}/entries`, { itemId: 'ebook', sku: 'ebook-1', quantity: 1 }),
  'PUT quantity': json('PUT', `${CART_API}/entries/nope/quantity`, { quantity: 2 }),
  'PUT additionalFields': json('PUT', `${CART_API}/entries/nope/additionalFields`, { additionalFields: '{}' }),
  'DELETE entry': json('DELETE', `${CART_API}/entries/nope`),
  'POST checkout/quote': json('POST', '/api/commerce/checkout/quote', {}),
  'POST checkout/orders': json('POST', '/api/commerce/checkout/orders', { idempotencyKey: 'rate-limit-test-key-0001' }),
  'POST /checkout': {
    method: 'POST',
    url: '/checkout',
    headers: {
      host: SHOP_HOST,
      'content-type': 'application/x-www-form-urlencoded',
      origin: `http://${SHOP_HOST}`,
      'sec-fetch-site': 'same-origin',
    },
    payload: 'email=a%40b.test',
  },
};

function expectRateLimited(response: Awaited<ReturnType<FastifyInstance['inject']>>, what: string) {
  expect(response.statusCode, what).toBe(429);
  expect(response.json(), what).toEqual({ code: 'rate-limited', message: TEXT, type: 'API_FAILURE' });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter, `${what}: Retry-After ${response.headers['retry-after']}`).toBeGreaterThanOrEqual(1);
  expect(retryAfter, `${what}: Retry-After ${response.headers['retry-after']}`).toBeLessThanOrEqual(10);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP proxy to the test Redis that can be stopped (connections cut) and started again on the same port. */
class RedisProxy {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  async start(): Promise<void> {
    const target = new URL(REDIS_URL);
    this.#server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.#server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.#server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

forEachEngine((engine, getDb) => {
  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
  });

  describe('in memory', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 60 }));
    });
    afterAll(async () => app?.close());

    it('never answers 429 with a Retry-After beyond the few seconds it promises (≤ 10), on any route', async () => {
      for (const [name, request] of Object.entries(ROUTES)) {
        const ip = freshIp();
        const statuses: number[] = [];
        for (let i = 0; i < 61; i++) {
          const response = await app.inject({ ...request, remoteAddress: ip });
          statuses.push(response.statusCode);
          if (response.statusCode === 429) expectRateLimited(response, `${name} #${i + 1}`);
        }
        // The route's own budget: 10 requests per 10 s.
        expect(statuses.slice(0, 10), name).not.toContain(429);
        expect(statuses.slice(10), name).toEqual(Array(51).fill(429));
      }
    });

    it('counts every cart and checkout route of a client against one global budget (20 per 10 s here)', async () => {
      const ip = freshIp();
      const send = (name: string) => app.inject({ ...ROUTES[name]!, remoteAddress: ip });
      // 10 + 10: within each route's budget, and the whole global one.
      for (let i = 0; i < 10; i++) {
        expect((await send('GET cart')).statusCode).toBe(200);
        expect((await send('POST checkout/quote')).statusCode).not.toBe(429);
      }
      // Every other route of the client is now refused, though none of them was called yet.
      for (const name of Object.keys(ROUTES).filter((n) => n !== 'GET cart' && n !== 'POST checkout/quote')) {
        expectRateLimited(await send(name), name);
      }
      // Another client is not affected.
      expect((await app.inject({ ...ROUTES['POST entries']!, remoteAddress: freshIp() })).statusCode).toBe(200);
    });

    it('lets the budget raise: cartRateLimitPerMinute raises every cart and checkout budget (the bench and browser tests)', async () => {
      const roomy = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 100_000 }));
      try {
        const ip = freshIp();
        const names = Object.keys(ROUTES);
        for (let i = 0; i < 400; i++) {
          const response = await roomy.inject({ ...ROUTES[names[i % names.length]!]!, remoteAddress: ip });
          expect(response.statusCode).not.toBe(429);
        }
      } finally {
        await roomy.close();
      }
    });
  });

  describe('when Redis is down', () => {
    it('keeps limiting per process when REDIS_URL points at a closed port, and logs it', async () => {
      const app = sendCrumbs(
        await buildApp({
          db: getDb(),
          engine,
          cartRateLimitPerMinute: 30,
          redisUrl: `redis://127.0.0.1:${await closedPort()}`,
        }),
      );
      try {
        const warn = vi.spyOn(app.log, 'warn');
        const ip = freshIp();
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++) {
          const response = await app.inject({ ...ROUTES['GET cart']!, remoteAddress: ip });
          statuses.push(response.statusCode);
          if (response.statusCode === 429) expectRateLimited(response, `request ${i + 1}`);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
        expect(warn).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/counted in this process/));
        expect(warn.mock.calls.filter(([, message]) => /counted in this process/.test(String(message)))).toHaveLength(
          1,
        );
      } finally {
        await app.close();
      }
    });

    (runRedisTests ? it : it.skip)(
      'falls back to per-process counting while Redis is briefly down, and shares counts again once it is back',
      async () => {
        const proxy = new RedisProxy();
        await proxy.start();
        const redisUrl = `redis://127.0.0.1:${proxy.port}`;
        const a = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 24, redisUrl }));
        const b = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 24, redisUrl }));
        const round = async (instances: FastifyInstance[]) => {
          const ip = freshIp();
          const statuses: number[] = [];
          for (const instance of instances)
            statuses.push((await instance.inject({ ...ROUTES['GET cart']!, remoteAddress: ip })).statusCode);
          return statuses;
        };
        try {
          // Shared through Redis: 4 per 10 s for the client, whichever process answers.
          expect(await round([a, b, a, b, a, b])).toEqual([200, 200, 200, 200, 429, 429]);

          const warnA = vi.spyOn(a.log, 'warn');
          const infoA = vi.spyOn(a.log, 'info');
          const infoB = vi.spyOn(b.log, 'info');
          await proxy.stop();
          // Each process counts on its own: 4 in a, 4 more in b, then refused in each.
          expect(await round([a, a, a, a, a, b, b, b, b, b])).toEqual([
            200, 200, 200, 200, 429, 200, 200, 200, 200, 429,
          ]);
          expect(warnA).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/counted in this process/));

          await proxy.start();
          const backAgain = (spy: typeof infoA) =>
            spy.mock.calls.flat().some((arg) => /counted in Redis again/.test(String(arg)));
          const until = Date.now() + 8000;
          while (!(backAgain(infoA) && backAgain(infoB)) && Date.now() < until) {
            await round([a, b]);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          expect(backAgain(infoA) && backAgain(infoB)).toBe(true);
          expect(await round([a, b, a, b, a, b])).toEqual([200, 200, 200, 200, 429, 429]);
        } finally {
          await a.close();
          await b.close();
          await proxy.stop();
        }
      },
    );
  });
});
