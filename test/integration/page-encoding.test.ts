/**
 * Cached pages compressed once and negotiated (issue 13): br, gzip or none by Accept-Encoding with its weights (406
 * when every coding is refused), a strong ETag per representation with 304s, Vary: Accept-Encoding, HEAD; and cached
 * pages answered before Fastify (src/platform/http/pageFastPath.ts) with exactly the headers Fastify's page route gives.
 * On the demo site, both engines, over real sockets (the answer before Fastify is not reachable through inject) and
 * through inject (Fastify's route).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { importSite, importSiteFile } from '../../src/modules/site/import';
import { DEMO_SITE_FILE } from '../browser/server';
import { forEachEngine } from '../support/engines';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A page with nothing per visitor, and one whose form block holds the visitor's crumb (a form posted without
 * JavaScript; add-to-cart and restock forms carry none: their posts are checked by origin, src/platform/http/crumb.ts).
 */
const SHARED = '/blog';
const CRUMB_PAGE = '/contact';
const PRODUCT_PAGE = '/shop/p/speckled-mug';
const CRUMB = 'dGVzdC1jcnVtYi0xMjM0NQ';
const OTHER_CRUMB = 'b3RoZXItY3J1bWItMTIzNA';
const BROWSER = 'gzip, deflate, br, zstd';
const NOT_ACCEPTABLE =
  'This page is sent compressed with br or gzip, or uncompressed (identity), and the Accept-Encoding header refuses all three.';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const decode = (answer: Answer): string => {
  const coding = answer.headers['content-encoding'];
  const bytes =
    coding === 'gzip' ? gunzipSync(answer.body) : coding === 'br' ? brotliDecompressSync(answer.body) : answer.body;
  return bytes.toString('utf8');
};

/**
 * Headers two answers of the same page must share: all but the date, and the crumb a new visitor is given (in the
 * cookie, and named in the ETag of a page holding it: the 10 characters after the page's 22).
 */
const comparable = (headers: IncomingHttpHeaders, newVisitor = false) => {
  const {
    date: _date,
    'set-cookie': setCookie,
    connection: _connection,
    'keep-alive': _keepAlive,
    etag,
    ...rest
  } = headers;
  return {
    ...rest,
    etag: newVisitor && etag !== undefined && etag.length >= 35 ? `${etag.slice(0, 24)}…${etag.slice(34)}` : etag,
    'set-cookie': setCookie?.map((cookie) => cookie.replace(/^crumb=[^;]+/, 'crumb=…')),
  };
};

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    await importSiteFile(getDb(), DEMO_SITE_FILE);
    // One trusted proxy hop: X-Forwarded-Proto says whether the visitor came over https.
    // A site lookup kept for a minute (an import drops it at once): every request here can be answered from the cache.
    app = await buildApp({ db: getDb(), engine, trustProxy: 1, siteCacheTtlMs: 60_000 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => app?.close());

  /** One request over a socket, as a browser sends it (the answer's bytes as sent, not decoded). */
  const send = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Answer>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      });
      request.on('error', reject);
      request.end();
    });
  const visitor = (crumb = CRUMB) => ({ cookie: `crumb=${crumb}` });

  /** Fastify's page route only: the answer before Fastify stepped aside. */
  const throughFastify = async <T>(work: () => Promise<T>): Promise<T> => {
    app.pageFastPath.enabled = false;
    try {
      return await work();
    } finally {
      app.pageFastPath.enabled = true;
    }
  };

  /** The request is answered by the cache before Fastify: the counter moves by one. */
  const answeredBeforeFastify = async (work: () => Promise<Answer>): Promise<Answer> => {
    const before = app.pageFastPath.answered;
    const answer = await work();
    expect(app.pageFastPath.answered, 'answered before Fastify').toBe(before + 1);
    return answer;
  };

  /** A page rendered and compressed once, so the next request is a cache hit in every coding. */
  const warm = async (path: string) => {
    await send(path, visitor());
    // The cache compresses each page off the event loop; a coding not ready yet is answered by Fastify's route.
    for (let i = 0; i < 50; i++) {
      const gzip = await send(path, { ...visitor(), 'accept-encoding': 'gzip' });
      if (gzip.status === 200 && app.pageFastPath.answered > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  beforeAll(async () => {
    await warm(SHARED);
    await warm(CRUMB_PAGE);
  });

  describe('Accept-Encoding', () => {
    it('sends a page in the coding asked for (brotli to a browser), every coding decoding to the same HTML', async () => {
      const plain = await send(SHARED, visitor());
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const html = plain.body.toString('utf8');
      expect(html).toContain('<title>Journal');
      for (const [asked, coding] of [
        [BROWSER, 'br'],
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['identity', undefined],
        ['deflate', undefined],
      ] as const) {
        const answer = await send(SHARED, { ...visitor(), 'accept-encoding': asked });
        expect(answer.status, asked).toBe(200);
        expect(answer.headers['content-encoding'], asked).toBe(coding);
        expect(answer.headers.vary, asked).toBe('accept-encoding');
        expect(answer.headers['content-length'], asked).toBe(String(answer.body.length));
        expect(decode(answer), asked).toBe(html);
      }
      expect((await send(SHARED, { ...visitor(), 'accept-encoding': 'gzip' })).body.length).toBeLessThan(
        html.length / 2,
      );
    });

    it("sends a page holding the visitor's crumb in gzip or plain, the crumb filled in either way", async () => {
      const plain = await send(CRUMB_PAGE, visitor());
      const html = plain.body.toString('utf8');
      expect(html).toContain(`name="crumb" value="${CRUMB}"`);
      expect(html).not.toContain('vitrine-crumb-placeholder');
      const gzip = await send(CRUMB_PAGE, { ...visitor(), 'accept-encoding': BROWSER });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(decode(gzip)).toBe(html);
      // Another visitor's copy holds their crumb, never this one's.
      const other = decode(await send(CRUMB_PAGE, { ...visitor(OTHER_CRUMB), 'accept-encoding': 'gzip' }));
      expect(other).toContain(`name="crumb" value="${OTHER_CRUMB}"`);
      expect(other).not.toContain(CRUMB);
      // brotli only: this page is not kept in brotli, and identity is acceptable.
      const brOnly = await send(CRUMB_PAGE, { ...visitor(), 'accept-encoding': 'br' });
      expect(brOnly.headers['content-encoding']).toBeUndefined();
      expect(decode(brOnly)).toBe(html);
    });

    it('follows the weights: q=0 refuses a coding, the highest weight wins', async () => {
      const coding = async (asked: string, path = SHARED) =>
        (await send(path, { ...visitor(), 'accept-encoding': asked })).headers['content-encoding'];
      expect(await coding('br;q=0, gzip')).toBe('gzip');
      expect(await coding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
      expect(await coding('gzip;q=0')).toBeUndefined();
      expect(await coding('identity;q=0, gzip')).toBe('gzip');
      expect(await coding('*')).toBe('br');
      expect(await coding('*;q=0.1, identity')).toBeUndefined();
      expect(await coding('gzip;q=0', CRUMB_PAGE)).toBeUndefined();
    });

    it('answers 406, saying why, when the header refuses every coding, on both ways a page is sent', async () => {
      for (const asked of ['identity;q=0', '*;q=0', 'deflate, identity;q=0']) {
        for (const path of [SHARED, CRUMB_PAGE]) {
          const json = await send(path, { ...visitor(), 'accept-encoding': asked });
          expect(json.status, asked).toBe(406);
          expect(JSON.parse(json.body.toString('utf8'))).toEqual({
            code: 'not-acceptable',
            message: NOT_ACCEPTABLE,
            type: 'API_FAILURE',
          });
          const page = await app.inject({
            method: 'GET',
            url: path,
            headers: { ...visitor(), 'accept-encoding': asked, accept: 'text/html' },
          });
          expect(page.statusCode, asked).toBe(406);
          expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(page.body).toContain(NOT_ACCEPTABLE);
        }
      }
    });
  });

  describe('ETag and 304', () => {
    it('gives each representation its own strong ETag and answers 304 to it, weak or in a list, with Vary', async () => {
      const etags: string[] = [];
      for (const asked of ['identity', 'gzip', 'br']) {
        const answer = await send(SHARED, { ...visitor(), 'accept-encoding': asked });
        const etag = answer.headers.etag!;
        expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        etags.push(etag);
        for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
          const kept = await send(SHARED, { ...visitor(), 'accept-encoding': asked, 'if-none-match': ifNoneMatch });
          expect(kept.status, `${asked} ${ifNoneMatch}`).toBe(304);
          expect(kept.body.length).toBe(0);
          expect(kept.headers.etag).toBe(etag);
          expect(kept.headers.vary).toBe('accept-encoding');
          expect(kept.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
          expect(kept.headers['content-security-policy']).toBe(answer.headers['content-security-policy']);
          expect(kept.headers['content-encoding']).toBeUndefined();
        }
      }
      expect(new Set(etags).size).toBe(3);
      // The gzip copy's ETag does not revalidate the brotli copy: the browser gets the bytes it now asks for.
      const switched = await send(SHARED, { ...visitor(), 'accept-encoding': 'br', 'if-none-match': etags[1]! });
      expect(switched.status).toBe(200);
      expect(switched.headers['content-encoding']).toBe('br');
    });

    it("names the visitor's crumb in a crumb-holding page's ETag: 304 for that visitor, the page for another", async () => {
      const first = await send(CRUMB_PAGE, { ...visitor(), 'accept-encoding': 'gzip' });
      expect(first.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
      const etag = first.headers.etag!;
      expect((await send(CRUMB_PAGE, { ...visitor(), 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(
        304,
      );
      const other = await send(CRUMB_PAGE, {
        ...visitor(OTHER_CRUMB),
        'accept-encoding': 'gzip',
        'if-none-match': etag,
      });
      expect(other.status).toBe(200);
      expect(decode(other)).toContain(OTHER_CRUMB);
      // A visitor who lost the crumb gets a new one, in the cookie and in the page: not the kept copy.
      const lost = await send(CRUMB_PAGE, { 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect(lost.status).toBe(200);
      const given = /^crumb=([^;]+)/.exec(lost.headers['set-cookie']?.[0] ?? '')?.[1];
      expect(given).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(decode(lost)).toContain(`name="crumb" value="${given}"`);
    });
  });

  describe('HEAD', () => {
    it('gives the headers of the GET, Content-Length included, and no body, on both ways a page is sent', async () => {
      for (const path of [SHARED, CRUMB_PAGE]) {
        for (const asked of ['identity', 'gzip', 'br']) {
          const get = await send(path, { ...visitor(), 'accept-encoding': asked });
          const fast = await answeredBeforeFastify(() =>
            send(path, { ...visitor(), 'accept-encoding': asked }, 'HEAD'),
          );
          const slow = await throughFastify(() => send(path, { ...visitor(), 'accept-encoding': asked }, 'HEAD'));
          for (const head of [fast, slow]) {
            expect(head.status).toBe(200);
            expect(head.body.length).toBe(0);
            expect(comparable(head.headers)).toEqual(comparable(get.headers));
            expect(head.headers['content-length']).toBe(String(get.body.length));
          }
        }
      }
    });
  });

  describe('answered before Fastify', () => {
    it("gives the very answers of Fastify's page route: status, bytes and every header", async () => {
      const cases: { path: string; headers: Record<string, string> }[] = [];
      for (const path of [SHARED, CRUMB_PAGE]) {
        for (const asked of [undefined, 'gzip', BROWSER]) {
          const coding: Record<string, string> = asked === undefined ? {} : { 'accept-encoding': asked };
          cases.push({ path, headers: { ...visitor(), ...coding } });
          // A first view: no crumb yet (one is given).
          cases.push({ path, headers: { ...coding } });
          // Over https behind the trusted proxy: HSTS, and a Secure crumb cookie.
          cases.push({ path, headers: { ...coding, 'x-forwarded-proto': 'https' } });
        }
      }
      for (const { path, headers } of cases) {
        const label = `${path} ${JSON.stringify(headers)}`;
        const fast = await answeredBeforeFastify(() => send(path, headers));
        const slow = await throughFastify(() => send(path, headers));
        expect(fast.status, label).toBe(200);
        expect(comparable(fast.headers, !headers.cookie), label).toEqual(comparable(slow.headers, !headers.cookie));
        if (headers.cookie) expect(fast.body.equals(slow.body), label).toBe(true);
        else expect(decode(fast).length, label).toBe(decode(slow).length);
        const kept = { ...headers, 'if-none-match': fast.headers.etag! };
        if (headers.cookie) {
          const fast304 = await answeredBeforeFastify(() => send(path, kept));
          const slow304 = await throughFastify(() => send(path, kept));
          expect(fast304.status, label).toBe(304);
          expect(comparable(fast304.headers), label).toEqual(comparable(slow304.headers));
        }
      }
    });

    it('gives a visitor without a crumb one, Secure with HSTS over https, as every page does', async () => {
      const first = await answeredBeforeFastify(() => send(SHARED));
      expect(first.headers['set-cookie']).toEqual([
        expect.stringMatching(/^crumb=[A-Za-z0-9_-]{22}; Path=\/; SameSite=Lax$/),
      ]);
      expect(first.headers['strict-transport-security']).toBeUndefined();
      const secure = await answeredBeforeFastify(() => send(SHARED, { 'x-forwarded-proto': 'https' }));
      expect(secure.headers['set-cookie']).toEqual([
        expect.stringMatching(/^crumb=[A-Za-z0-9_-]{22}; Path=\/; Secure; SameSite=Lax$/),
      ]);
      expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      // A kept page (304) gives one too.
      const kept = await answeredBeforeFastify(() => send(SHARED, { 'if-none-match': first.headers.etag! }));
      expect(kept.status).toBe(304);
      expect(kept.headers['set-cookie']).toEqual([expect.stringMatching(/^crumb=[A-Za-z0-9_-]{22};/)]);
      // A returning visitor keeps theirs; a malformed one is replaced.
      expect((await send(SHARED, visitor())).headers['set-cookie']).toBeUndefined();
      expect((await send(SHARED, visitor('short'))).headers['set-cookie']).toEqual([
        expect.stringMatching(/^crumb=[A-Za-z0-9_-]{22};/),
      ]);
    });

    it("steps aside for what Fastify's route must answer: a redirect, a body, a notice cookie, an unknown page", async () => {
      const untouched = async (answer: Promise<Answer>) => {
        const before = app.pageFastPath.answered;
        const result = await answer;
        expect(app.pageFastPath.answered).toBe(before);
        return result;
      };
      const slash = await untouched(send(`${SHARED}/?a=1`, visitor()));
      expect(slash.status).toBe(301);
      expect(slash.headers.location).toBe(`${SHARED}?a=1`);
      expect((await untouched(send('/no-such-page', { ...visitor(), accept: 'text/html' }))).status).toBe(404);
      // The outcome of an add posted without JavaScript is shown once, by the route, which drops the cookie.
      const noticed = await untouched(send(CRUMB_PAGE, { cookie: `crumb=${CRUMB}; cartNotice=a.speckled-mug` }));
      expect(noticed.status).toBe(200);
      expect(noticed.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^cartNotice=;/)]));
      const withBody = await untouched(
        new Promise<Answer>((resolve, reject) => {
          const request = httpRequest(
            {
              host: '127.0.0.1',
              port,
              path: SHARED,
              method: 'GET',
              headers: { ...visitor(), 'content-type': 'text/plain', 'content-length': '6' },
              agent: false,
            },
            (response) => {
              response.resume();
              response.on('end', () =>
                resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.alloc(0) }),
              );
            },
          );
          request.on('error', reject);
          request.end('a body');
        }),
      );
      expect(withBody.status).toBe(200);
    });

    it('never answers with a site version an import replaced', async () => {
      const before = (await send(SHARED, visitor())).body.toString('utf8');
      expect(before).toContain('<title>Journal');
      const site = JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as { website: { title: string } };
      site.website.title = 'Renamed Store';
      await importSite(getDb(), JSON.stringify(site), dirname(DEMO_SITE_FILE));
      const after = (await send(SHARED, visitor())).body.toString('utf8');
      expect(after).toContain('Renamed Store');
      await warm(SHARED);
      const again = await answeredBeforeFastify(() => send(SHARED, visitor()));
      expect(again.body.toString('utf8')).toContain('Renamed Store');
    });
  });

  describe('the page cache turned off', () => {
    it('still negotiates and compresses each answer', async () => {
      app.pageCache.enabled = false;
      try {
        const plain = await send(SHARED, visitor());
        const br = await send(SHARED, { ...visitor(), 'accept-encoding': BROWSER });
        expect(br.headers['content-encoding']).toBe('br');
        expect(decode(br)).toBe(plain.body.toString('utf8'));
        const gzip = await send(CRUMB_PAGE, { ...visitor(), 'accept-encoding': 'gzip' });
        expect(gzip.headers['content-encoding']).toBe('gzip');
        expect(decode(gzip)).toContain(`name="crumb" value="${CRUMB}"`);
      } finally {
        app.pageCache.enabled = true;
      }
    });

    it('renders the page anew for each request, however many arrive at once', async () => {
      // The renders' reads of stock, seen through a Kysely plugin: a product page reads its variants' stock, and its
      // list's, on every render (the stock watch's reads of the variants, by stock_seq, are not counted).
      let stockReads = 0;
      const base = getDb();
      const counted = base.withPlugin({
        transformQuery: ({ node, queryId }) => {
          const { sql } = base.getExecutor().compileQuery(node, queryId);
          if (/\bfrom "variants"/.test(sql) && !sql.includes('stock_seq')) stockReads++;
          return node;
        },
        transformResult: async ({ result }) => result,
      });
      const own = await buildApp({ db: counted, engine, siteCacheTtlMs: 60_000 });
      try {
        own.pageCache.enabled = false;
        const get = () => own.inject({ method: 'GET', url: PRODUCT_PAGE });
        // The first request reads the site's data; a render's own reads are those of the next.
        expect((await get()).statusCode).toBe(200);
        let before = stockReads;
        expect((await get()).statusCode).toBe(200);
        const perRender = stockReads - before;
        expect(perRender).toBeGreaterThan(0);
        before = stockReads;
        const answers = await Promise.all(Array.from({ length: 5 }, get));
        expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
        expect((stockReads - before) / perRender, 'renders').toBe(5);
      } finally {
        await own.close();
      }
    });
  });
});
