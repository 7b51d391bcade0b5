/**
 * What JavaScript a page makes the browser load before it can be used (issue 10's ceiling, issue 13's goal): every
 * `<script src>` and `modulepreload` of the page, gzipped at level 9 (as bench/run.ts counts it). A product page stays
 * at or below 82.8 KB (issue 10's 82.7 KB, plus 0.1 KB for issue 23's variant pictures and per-variant scarcity text:
 * the hook that loads src/client/variantImages.ts on the first choice). Code loaded later
 * on demand (dialogs, the gallery, the pay-later badge once idle) is not counted here: src/client/islands/lazy.ts and
 * deferredParts.tsx say when it loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { importSiteFile } from '../../src/modules/site/import';
import { DEMO_SITE_FILE } from '../browser/server';
import { forEachEngine } from '../support/engines';

const PDP_CEILING_BYTES = 82_800;
const CLIENT_DIR = join(import.meta.dirname, '../../dist/client');

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
});
