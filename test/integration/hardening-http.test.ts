/**
 * HTTP hardening (issue 12, items 1, 4, 5, 8 and 11): no redirect leaves the site; slow requests time out, with the
 * usual JSON error, and connections are capped; TRUST_PROXY takes a hop count or proxy addresses; cookies are Secure
 * on https requests; requests without Host, with an unknown Expect, and CONNECT get the usual JSON error; and a
 * path going up out of /client/assets is not found. Raw requests go through a listening server and node:net, since
 * inject neither times out nor sends what a raw client can.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { buildApp } from '../../src/server/app';
import { validateSite } from '../../src/modules/site/validate';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';

const CART_API = '/api/commerce/shopping-cart';
const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const ADD = JSON.stringify({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 });

/** A client address of its own per test, so that rate-limit counters start from zero. */
const freshIp = () => `10.${randomBytes(3).join('.')}`;

interface RawAnswer {
  /** NaN when nothing (or no status line) came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** How long after connecting the server closed the connection; null when it was still open at the deadline. */
  closedAfterMs: number | null;
  /** Everything received (several answers, when requests were pipelined). */
  raw: string;
}

/**
 * Connects, lets `talk` write to the socket, and collects what comes back until the server closes the connection
 * or `deadlineMs` passes (then the client closes it).
 */
function rawExchange(port: number, talk: (socket: net.Socket) => void, deadlineMs = 2000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => talk(socket));
    let received = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve({ ...parseAnswer(received), closedAfterMs: closed ? Date.now() - started : null, raw: received });
    };
    const deadline = setTimeout(() => finish(false), deadlineMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

const rawRequest = (port: number, text: string, deadlineMs?: number) =>
  rawExchange(port, (socket) => socket.write(text), deadlineMs);

function parseAnswer(text: string): Omit<RawAnswer, 'closedAfterMs' | 'raw'> {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  let body = end < 0 ? '' : text.slice(end + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (headers['content-length'] !== undefined) body = body.slice(0, Number(headers['content-length']));
  return { status: /^HTTP\/1\.[01] (\d{3})/.test(statusLine) ? Number(statusLine.split(' ')[1]) : NaN, headers, body };
}

const portOf = (app: FastifyInstance) => (app.server.address() as net.AddressInfo).port;

/**
 * Sends `head`, then one byte of body every 50 ms for as long as the connection lets it, like a slow-request attack:
 * it reads the answer but never closes its own side on the server's FIN (allowHalfOpen), so the connection ends only
 * when the server drops it (the time of that is `closedAfterMs`; null if still open at the deadline).
 */
function trickleUntilDropped(
  port: number,
  head: string,
  deadlineMs: number,
): Promise<{ answer: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    let done = false;
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(head));
    const trickle = setInterval(() => {
      if (socket.writable) socket.write(' ');
    }, 50);
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearInterval(trickle);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ answer, closedAfterMs: closed ? Date.now() - started : null });
    };
    const deadline = setTimeout(() => finish(false), deadlineMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

/** `{ code, message, type }` and nothing else, as every error answer. */
function expectErrorShape(answer: Omit<RawAnswer, 'closedAfterMs' | 'raw'>, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toContain('application/json');
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'type']);
  expect(body).toMatchObject({ code, type: 'API_FAILURE' });
  expect(body.message).toEqual(expect.any(String));
  return body;
}

/** A redirect's target, resolved the way a browser does (a backslash is a slash in http URLs). */
const redirectHost = (location: string) => new URL(location, `http://${SHOP_HOST}/`).host;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- settings and the site file (no database)

describe('TRUST_PROXY (item 5)', () => {
  it('reads a hop count, a list of proxy addresses and CIDR ranges, and true/false', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '::1,fd00::/8,loopback' }).trustProxy).toEqual(['::1', 'fd00::/8', 'loopback']);
    expect(loadConfig({ TRUST_PROXY: '192.0.2.7' }).trustProxy).toEqual(['192.0.2.7']);
  });

  it('names the bad value', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(
      "TRUST_PROXY must be false, true (every hop), a number of proxy hops (1) or a comma-separated list of proxy addresses and CIDR ranges (10.0.0.0/8,127.0.0.1), not 'yes'",
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33,127.0.0.1' })).toThrow(
      "TRUST_PROXY lists '10.0.0.0/33', which is not an IP address or CIDR range",
    );
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1,proxy.internal' })).toThrow(
      "TRUST_PROXY lists 'proxy.internal', which is not an IP address or CIDR range",
    );
    expect(() => loadConfig({ TRUST_PROXY: '-1' })).toThrow("not '-1'");
    expect(() => loadConfig({ TRUST_PROXY: '1.5' })).toThrow("not '1.5'");
  });
});

describe('HTTP limits from the environment (item 4)', () => {
  it('reads REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS and MAX_CONNECTIONS, and leaves the rest to the defaults', () => {
    expect(loadConfig({})).not.toHaveProperty('httpLimits');
    expect(
      loadConfig({ REQUEST_TIMEOUT_MS: '20000', KEEP_ALIVE_TIMEOUT_MS: '75000', MAX_CONNECTIONS: '500' }).httpLimits,
    ).toEqual({
      requestTimeoutMs: 20000,
      keepAliveTimeoutMs: 75000,
      maxConnections: 500,
    });
  });

  it('names a bad value', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10s' })).toThrow(
      "REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 3600000, not '10s'",
    );
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '0' })).toThrow(
      "KEEP_ALIVE_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 3600000, not '0'",
    );
    expect(() => loadConfig({ MAX_CONNECTIONS: '-5' })).toThrow(
      "MAX_CONNECTIONS must be a whole number from 1 to 1000000, not '-5'",
    );
  });
});

describe("a form's successRedirect (item 1)", () => {
  const siteWithRedirect = (successRedirect: string) =>
    validateSite({
      ...shopSite,
      forms: [
        ...(shopSite.forms ?? []),
        { id: 'contact', name: 'Contact', fields: [{ id: 'email', title: 'E-mail', kind: 'email' }], successRedirect },
      ],
    });

  it('is a path of this site, never another host', () => {
    expect(siteWithRedirect('/thanks')).toMatchObject({ ok: true });
    expect(siteWithRedirect('/')).toMatchObject({ ok: true });
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '//evil.example/thanks',
      '/\\/evil.example',
      'https://evil.example/',
    ]) {
      const result = siteWithRedirect(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(result.problems.join('\n'), bad).toMatch(/successRedirect.*must be a path of this site/);
    }
  });
});

forEachEngine((engine, getDb) => {
  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
  });

  // -------------------------------------------------------------- 1. redirects

  describe('redirects stay on the site (item 1)', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = sendCrumbs(await buildApp({ db: getDb(), engine, trustProxy: 1 }));
      await app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => app?.close());

    it('never sends a Location naming another host, whatever the slashes and backslashes of the path', async () => {
      const paths = [
        '//evil.example/',
        '/\\evil.example/',
        '///evil.example//',
        '/\\\\evil.example/',
        '/\\/evil.example/',
        '//evil.example',
        '//evil.example/?a=1',
        '//evil.example/shop/',
      ];
      for (const path of paths) {
        const answer = await rawRequest(
          portOf(app),
          `GET ${path} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nConnection: close\r\n\r\n`,
        );
        expect([301, 404], path).toContain(answer.status);
        if (answer.status === 301) {
          expect(answer.headers.location, path).toMatch(/^\/(?![/\\])/);
          expect(redirectHost(answer.headers.location!), path).toBe(SHOP_HOST);
        }
      }
      const collapsed = await rawRequest(
        portOf(app),
        `GET //evil.example/?a=1 HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nConnection: close\r\n\r\n`,
      );
      expect(collapsed.headers.location).toBe('/evil.example?a=1');
    });

    it('still sends a trailing slash to the canonical path', async () => {
      const answer = await rawRequest(
        portOf(app),
        `GET /shop/?a=1 HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(301);
      expect(answer.headers.location).toBe('/shop?a=1');
    });

    it('sends the checkout redirect to this site whatever the forwarded host (verified: the target is a constant)', async () => {
      const added = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST, 'content-type': 'application/json' },
        payload: ADD,
      });
      expect(added.statusCode).toBe(200);
      const cookie = added.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const goto = await app.inject({
        method: 'GET',
        url: '/commerce/goto-checkout',
        headers: { host: SHOP_HOST, cookie, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      });
      expect(goto.statusCode).toBe(303);
      expect(goto.headers.location).toBe('/checkout');
    });
  });

  // -------------------------------------------------------------- 4. timeouts and the connection cap

  describe('HTTP limits (item 4)', () => {
    it('has documented defaults: request and header timeouts, an idle timeout, keep-alive limits and a connection cap', async () => {
      const app = sendCrumbs(await buildApp({ db: getDb(), engine }));
      try {
        expect(app.server.requestTimeout).toBe(30_000);
        expect(app.server.headersTimeout).toBe(10_000);
        expect(app.server.timeout).toBe(60_000);
        expect(app.server.keepAliveTimeout).toBe(72_000);
        expect(app.server.maxRequestsPerSocket).toBe(1000);
        expect(app.server.maxConnections).toBe(4096);
      } finally {
        await app.close();
      }
    });

    it(
      'keeps the README’s promise as `vitrine serve` sets the limits: REQUEST_TIMEOUT_MS alone, a trickling client dropped within it and a few seconds',
      { timeout: 20_000 },
      async () => {
        // What `vitrine serve` does: the environment's limits (here only REQUEST_TIMEOUT_MS, at its smallest) to buildApp.
        const config = loadConfig({ REQUEST_TIMEOUT_MS: '1000' });
        const app = await buildApp({
          db: getDb(),
          engine,
          ...(config.httpLimits ? { httpLimits: config.httpLimits } : {}),
        });
        try {
          await app.listen({ host: '127.0.0.1', port: 0 });
          // Node looks for late requests every second at most (its default is every 30 s).
          expect(
            (app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval,
          ).toBeLessThanOrEqual(1000);
          const head = `POST ${ENTRIES_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
          const { answer, closedAfterMs } = await trickleUntilDropped(portOf(app), head, 15_000);
          expect(answer).toMatch(/^HTTP\/1\.1 408 /);
          expect(answer).toContain('"code":"request-timeout"');
          expect(closedAfterMs).not.toBeNull();
          expect(closedAfterMs!).toBeLessThan(1000 + 5000);
        } finally {
          await app.close();
        }
      },
    );

    describe('with short limits', () => {
      let app: FastifyInstance;
      beforeAll(async () => {
        app = await buildApp({
          db: getDb(),
          engine,
          httpLimits: {
            requestTimeoutMs: 300,
            headersTimeoutMs: 300,
            keepAliveTimeoutMs: 300,
            maxRequestsPerSocket: 2,
            maxConnections: 3,
          },
        });
        await app.listen({ host: '127.0.0.1', port: 0 });
      });
      afterAll(async () => app?.close());

      it('answers 408 (JSON) and closes a POST whose announced body trickles in', async () => {
        let trickle: NodeJS.Timeout | undefined;
        const answer = await rawExchange(
          portOf(app),
          (socket) => {
            socket.write(
              `POST ${ENTRIES_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
            );
            trickle = setInterval(() => socket.writable && socket.write(' '), 50);
          },
          3000,
        );
        clearInterval(trickle);
        expect(answer.closedAfterMs).not.toBeNull();
        expect(answer.closedAfterMs!).toBeLessThan(2000);
        expectErrorShape(answer, 408, 'request-timeout');
      });

      it('drops a connection whose body trickles on after the 408, the client ignoring the server closing its side', async () => {
        const head = `POST ${ENTRIES_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
        const { answer, closedAfterMs } = await trickleUntilDropped(portOf(app), head, 8000);
        expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        // The 300 ms limit, Node's check, and a second to read the answer.
        expect(closedAfterMs).not.toBeNull();
        expect(closedAfterMs!).toBeLessThan(300 + 4000);
      });

      it('answers 408 (JSON) to headers that trickle in', async () => {
        let trickle: NodeJS.Timeout | undefined;
        const answer = await rawExchange(
          portOf(app),
          (socket) => {
            socket.write(`GET /shop HTTP/1.1\r\nHost: ${SHOP_HOST}\r\n`);
            trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 50);
          },
          3000,
        );
        clearInterval(trickle);
        expect(answer.closedAfterMs).not.toBeNull();
        expect(answer.closedAfterMs!).toBeLessThan(2000);
        expectErrorShape(answer, 408, 'request-timeout');
      });

      it('closes an idle keep-alive connection, and ends a connection after its maxRequestsPerSocket', async () => {
        const get = `GET ${CART_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\n\r\n`;
        const idle = await rawRequest(portOf(app), get, 3000);
        expect(idle.status).toBe(200);
        expect(idle.closedAfterMs).not.toBeNull();
        // Node gives a keep-alive connection a second more than keepAliveTimeout.
        expect(idle.closedAfterMs!).toBeLessThan(2000);
        // Two requests at once on one connection: the second answer says the connection closes (Node leaves the
        // closing to the client, or to the keep-alive timeout).
        const pipelined = await rawRequest(portOf(app), get + get, 500);
        const answers = pipelined.raw.split(/(?=HTTP\/1\.1 \d{3} )/).map(parseAnswer);
        expect(answers.map((a) => [a.status, a.headers.connection])).toEqual([
          [200, 'keep-alive'],
          [200, 'close'],
        ]);
      });

      it('refuses connections past maxConnections', async () => {
        const open: net.Socket[] = [];
        try {
          for (let i = 0; i < 3; i++) {
            const socket = net.connect(portOf(app), '127.0.0.1');
            socket.on('error', () => {});
            await new Promise((resolve) => socket.once('connect', resolve));
            open.push(socket);
          }
          await sleep(50);
          const fourth = await rawRequest(
            portOf(app),
            `GET ${CART_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nConnection: close\r\n\r\n`,
            1500,
          );
          expect(fourth.status).toBeNaN();
          expect(fourth.closedAfterMs).not.toBeNull();
        } finally {
          for (const socket of open) socket.destroy();
        }
        await sleep(50);
        const after = await rawRequest(
          portOf(app),
          `GET ${CART_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nConnection: close\r\n\r\n`,
        );
        expect(after.status).toBe(200);
      });
    });
  });

  // -------------------------------------------------------------- 5. trusted proxies

  describe('a trusted proxy that appends to X-Forwarded-For (item 5)', () => {
    for (const setting of ['1', '127.0.0.1,10.0.0.0/8']) {
      it(`keys rate limits on the address the proxy saw, not the client's own X-Forwarded-For (TRUST_PROXY=${setting})`, async () => {
        // 30 a minute: 5 per 10-second window on each cart route.
        const app = sendCrumbs(
          await buildApp({
            db: getDb(),
            engine,
            trustProxy: loadConfig({ TRUST_PROXY: setting }).trustProxy,
            cartRateLimitPerMinute: 30,
          }),
        );
        try {
          const client = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
          const statuses: number[] = [];
          for (let i = 0; i < 7; i++) {
            // The client writes a new address of its own each time; the proxy (127.0.0.1) appends the one it saw.
            const response = await app.inject({
              method: 'GET',
              url: CART_API,
              headers: { host: SHOP_HOST, 'x-forwarded-for': `${freshIp()}, ${client}` },
              remoteAddress: '127.0.0.1',
            });
            statuses.push(response.statusCode);
          }
          expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
        } finally {
          await app.close();
        }
      });
    }
  });

  // -------------------------------------------------------------- 8. secure cookies

  describe('cookies on https requests (item 8)', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = sendCrumbs(await buildApp({ db: getDb(), engine, trustProxy: 1 }));
    });
    afterAll(async () => app?.close());

    const add = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST, 'content-type': 'application/json', ...headers },
        payload: ADD,
      });
    const setCookies = (headers: Record<string, unknown>) => [headers['set-cookie'] ?? []].flat() as string[];

    it('are Secure when the request came over https through the trusted proxy', async () => {
      const added = await add({ 'x-forwarded-proto': 'https' });
      expect(added.statusCode).toBe(200);
      expect(setCookies(added.headers)).toHaveLength(2);
      for (const cookie of setCookies(added.headers)) expect(cookie).toMatch(/;\s*Secure/i);
      // A stale cookie is dropped with Secure cookies too.
      const stale = await app.inject({
        method: 'GET',
        url: CART_API,
        headers: { host: SHOP_HOST, cookie: 'CART=gone; hasCart=true', 'x-forwarded-proto': 'https' },
      });
      expect(setCookies(stale.headers)).toHaveLength(2);
      for (const cookie of setCookies(stale.headers)) expect(cookie).toMatch(/;\s*Secure/i);
    });

    it('are not Secure over plain http, nor when an untrusted client claims https', async () => {
      const plain = await add({});
      for (const cookie of setCookies(plain.headers)) expect(cookie).not.toMatch(/Secure/i);
      const untrusting = sendCrumbs(await buildApp({ db: getDb(), engine }));
      try {
        const claimed = await untrusting.inject({
          method: 'POST',
          url: ENTRIES_API,
          headers: { host: SHOP_HOST, 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
          payload: ADD,
        });
        expect(claimed.statusCode).toBe(200);
        for (const cookie of setCookies(claimed.headers)) expect(cookie).not.toMatch(/Secure/i);
      } finally {
        await untrusting.close();
      }
    });

    it('are always Secure with secureCookies', async () => {
      const always = sendCrumbs(await buildApp({ db: getDb(), engine, secureCookies: true }));
      try {
        const added = await always.inject({
          method: 'POST',
          url: ENTRIES_API,
          headers: { host: SHOP_HOST, 'content-type': 'application/json' },
          payload: ADD,
        });
        expect(setCookies(added.headers)).toHaveLength(2);
        for (const cookie of setCookies(added.headers)) expect(cookie).toMatch(/;\s*Secure/i);
      } finally {
        await always.close();
      }
    });
  });

  // -------------------------------------------------------------- 11. edge answers

  describe('edge answers (item 11)', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildApp({ db: getDb(), engine });
      await app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => app?.close());

    it('answers a request without Host with the JSON error', async () => {
      for (const path of [CART_API, '/shop']) {
        const answer = await rawRequest(portOf(app), `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`);
        const body = expectErrorShape(answer, 400, 'invalid-input');
        expect(body.message).toMatch(/Host/);
      }
      const empty = await rawRequest(portOf(app), `GET ${CART_API} HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n`);
      expectErrorShape(empty, 400, 'invalid-input');
    });

    it('answers an unknown Expect with the JSON error (417), and still honours 100-continue', async () => {
      const answer = await rawRequest(
        portOf(app),
        `GET ${CART_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nExpect: bogus\r\nConnection: close\r\n\r\n`,
      );
      const body = expectErrorShape(answer, 417, 'expectation-failed');
      expect(body.message).toMatch(/Expect/);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      const continued = await rawExchange(portOf(app), (socket) => {
        socket.write(
          `POST ${ENTRIES_API} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nContent-Type: application/json\r\nContent-Length: ${ADD.length}\r\n` +
            `Cookie: crumb=${TEST_CRUMB}\r\nX-CSRF-Token: ${TEST_CRUMB}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
        );
        socket.once('data', () => socket.write(ADD));
      });
      expect(continued.status).toBe(100);
      expect(continued.body).toContain('HTTP/1.1 200 OK');
    });

    it('answers CONNECT with the JSON error (405)', async () => {
      const answer = await rawRequest(
        portOf(app),
        `CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n`,
      );
      const body = expectErrorShape(answer, 405, 'method-not-allowed');
      expect(body.message).toMatch(/CONNECT/);
      expect(answer.closedAfterMs).not.toBeNull();
    });

    it('answers 404 to a path that goes up out of /client/assets', async () => {
      for (const path of [
        '/client/assets/../x',
        '/client/assets/%2e%2e/x',
        '/client/assets/..%2Fpackage.json',
        '/client/assets/a/../../x',
      ]) {
        const answer = await rawRequest(
          portOf(app),
          `GET ${path} HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nConnection: close\r\n\r\n`,
        );
        expect(answer.status, path).toBe(404);
      }
      const json = await rawRequest(
        portOf(app),
        `GET /client/assets/../x HTTP/1.1\r\nHost: ${SHOP_HOST}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
      );
      expect(json.status).toBe(404);
    });
  });
});
