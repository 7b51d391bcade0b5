/**
 * The browser bundle's scripts and stylesheets (/client/assets/*) are sent as compressed at build time (vite.config.ts
 * writes NAME.br at Brotli's quality 11 and NAME.gz at gzip's level 9 beside each): fewer bytes than compressing on
 * every request at a fast level, and no compression work per request. The coding follows Accept-Encoding; the
 * compressed files are not assets of their own. Needs the build (`npm test` makes it first).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { importSiteFile } from '../../src/modules/site/import';
import { CLIENT_DIST_DIR, readClientAssets } from '../../src/render/manifest';
import { DEMO_SITE_FILE } from '../browser/server';
import { forEachEngine } from '../support/engines';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await importSiteFile(getDb(), DEMO_SITE_FILE);
    app = await buildApp({ db: getDb(), engine });
  });
  afterAll(async () => app?.close());

  /** Every script and stylesheet a page loads, with the bytes Vite wrote. */
  const pageAssets = () => {
    const { scripts, preloads, styles } = readClientAssets();
    const urls = [...scripts, ...preloads, ...styles];
    expect(urls.length).toBeGreaterThan(2);
    return urls.map((url) => ({ url, bytes: readFileSync(join(CLIENT_DIST_DIR, url.slice('/client/'.length))) }));
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
