/**
 * What JavaScript a page makes the browser load before it can be used (issue 10's ceiling, issue 13's goal): every
 * `<script src>` and `modulepreload` of the page, gzipped at level 9 (as bench/run.ts counts it). A product page stays
 * at or below issue 10's 82.7 KB (issue 23's variant pictures, issue 26's site-editor rules and the cart claim fit in
 * it once the cart store stopped carrying the core's money parser for a subTotal that is always minor units). Code loaded later
 * on demand (dialogs, the gallery, the pay-later badge once idle) is not counted here: src/client/islands/lazy.ts and
 * deferredParts.tsx say when it loads. The server's HTML sanitizer (sanitize-html with htmlparser2 and postcss, about
 * 80 KB gzipped) is in no browser chunk at all: rich text reaches the islands already sanitized.
 *
 * The scripts and stylesheets are sent as compressed at build time (vite.config.ts writes NAME.br at Brotli's quality
 * 11 and NAME.gz at gzip's level 9 beside each): fewer bytes than compressing on every request at a fast level, and
 * no compression work per request. The coding follows Accept-Encoding; the compressed files are not assets of their
 * own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { importSiteFile } from '../../src/modules/site/import';
import { readClientAssets } from '../../src/render/manifest';
import { DEMO_SITE_FILE } from '../browser/server';
import { forEachEngine } from '../support/engines';

const PDP_CEILING_BYTES = 82_700;
const CLIENT_DIR = join(import.meta.dirname, '../../dist/client');

/**
 * Public names each library keeps through minification (an option, a parser callback, an error's name): found in a
 * minified browser bundle of sanitize-html, so a chunk that carried any of the three would show it.
 */
const SERVER_ONLY_MARKERS = {
  'sanitize-html': 'allowedSchemesAppliedToAttributes',
  htmlparser2: 'onprocessinginstruction',
  postcss: 'CssSyntaxError',
};

it('no browser chunk carries the server-side HTML sanitizer (sanitize-html, htmlparser2, postcss)', () => {
  const chunks = readdirSync(join(CLIENT_DIR, 'assets')).filter((f) => f.endsWith('.js'));
  expect(chunks.length).toBeGreaterThan(0);
  const found = chunks.flatMap((chunk) => {
    const code = readFileSync(join(CLIENT_DIR, 'assets', chunk), 'utf8');
    return Object.entries(SERVER_ONLY_MARKERS)
      .filter(([, marker]) => code.includes(marker))
      .map(([library]) => `${library} in ${chunk}`);
  });
  expect(found).toEqual([]);
});

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await importSiteFile(getDb(), DEMO_SITE_FILE);
    app = await buildApp({ db: getDb(), engine });
  });
  afterAll(async () => app?.close());

  const scriptsOf = async (path: string) => {
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    return [...page.body.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map(
      (m) => m[1]!,
    );
  };
  it('asks for its scripts at low priority, after the stylesheet, the fonts and the largest image', async () => {
    for (const path of ['/', '/shop/p/speckled-mug', '/cart']) {
      const page = await app.inject({ method: 'GET', url: path });
      const tags = page.body.match(/<script[^>]*\ssrc=[^>]*>|<link[^>]*rel="modulepreload"[^>]*>/g) ?? [];
      expect(tags.length, path).toBeGreaterThan(0);
      for (const tag of tags) expect(tag, path).toContain('fetchpriority="low"');
    }
  });

  const gzippedBytes = (src: string) =>
    gzipSync(readFileSync(join(CLIENT_DIR, src.replace(/^\/client\//, ''))), { level: 9 }).length;

  it(`a product page loads at most ${PDP_CEILING_BYTES} bytes of JavaScript, gzipped`, async () => {
    for (const path of ['/shop/p/speckled-mug', '/shop/p/house-blend']) {
      const scripts = await scriptsOf(path);
      expect(scripts.length).toBeGreaterThan(0);
      const total = scripts.reduce((sum, src) => sum + gzippedBytes(src), 0);
      console.log(`${path}: ${scripts.length} script(s), ${total} bytes gzipped`);
      expect(total).toBeLessThanOrEqual(PDP_CEILING_BYTES);
    }
  });

  /** Every script and stylesheet a page loads, with the bytes Vite wrote. */
  const pageAssets = () => {
    const { scripts, preloads, styles } = readClientAssets();
    const urls = [...scripts, ...preloads, ...styles];
    expect(urls.length).toBeGreaterThan(2);
    return urls.map((url) => ({ url, bytes: readFileSync(join(CLIENT_DIR, url.slice('/client/'.length))) }));
  };
  const get = (url: string, acceptEncoding: string) =>
    app.inject({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding } });

  it('sends each script and stylesheet as Brotli at quality 11 to a browser that accepts it', async () => {
    for (const { url, bytes } of pageAssets()) {
      const answer = await get(url, 'gzip, deflate, br, zstd');
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['content-encoding'], url).toBe('br');
      expect(answer.headers['vary'], url).toMatch(/accept-encoding/i);
      expect(answer.headers['cache-control'], url).toContain('immutable');
      expect(brotliDecompressSync(answer.rawPayload).equals(bytes), url).toBe(true);
      // Smaller than what compressing on each request at a fast level gives (the React chunk: 62.9 KB against 73.5 KB).
      const fast = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
      expect(answer.rawPayload.length, url).toBeLessThan(fast.length);
    }
  });

  it('sends gzip to a client that accepts only gzip, and the plain bytes to one that accepts no coding', async () => {
    for (const { url, bytes } of pageAssets()) {
      const gzip = await get(url, 'gzip');
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).equals(bytes), url).toBe(true);
      const plain = await get(url, 'identity');
      expect(plain.statusCode, url).toBe(200);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.rawPayload.equals(bytes), url).toBe(true);
    }
  });

  it('does not serve the compressed files by their own names', async () => {
    const { url } = pageAssets()[0]!;
    for (const name of [`${url}.br`, `${url}.gz`]) {
      const answer = await app.inject({ method: 'GET', url: name, headers: { accept: 'application/json' } });
      expect(answer.statusCode, name).toBe(404);
    }
  });
});
