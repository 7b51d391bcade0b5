/**
 * The cached site lookup (src/modules/site/siteCache.ts) on both engines: a re-import is seen by the next request at once
 * when it happens in this process, through Redis when another process announces it, and after the TTL otherwise
 * (another process without Redis, or Redis down).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../src/server/app';
import { publishSiteChange, SITE_CACHE_TTL_MS } from '../../src/modules/site/siteCache';
import { importSiteFile } from '../../src/modules/site/import';
import { vitrineWith } from '../support/cli';
import { forEachEngine } from '../support/engines';
import { REDIS_URL, runRedisTests } from '../support/redis';

const ROOT = join(import.meta.dirname, '../..');
const DEMO = join(ROOT, 'sites/demo/site.json');
const LONG_TTL_MS = 60_000;

const tmp = mkdtempSync(join(tmpdir(), 'vitrine-site-cache-'));
symlinkSync(join(ROOT, 'sites/demo/images'), join(tmp, 'images'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the demo site file with another title (and optionally another name for the speckled mug). */
function demoTitled(title: string, mugName?: string): string {
  const site = JSON.parse(readFileSync(DEMO, 'utf8')) as {
    website: { title: string };
    products: { slug: string; name: string }[];
  };
  site.website.title = title;
  const mug = site.products.find((p) => p.slug === 'speckled-mug');
  if (mugName && mug) mug.name = mugName;
  const file = join(tmp, `site-${title.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(site));
  return file;
}

/** `vitrine import FILE` in its own process. */
function importInOtherProcess(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['src/cli/main.ts', 'import', file], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance | undefined;
  let title = 0;
  /** The home page's title: the site title, so it tells which import a request saw. */
  const homeTitle = async () =>
    /<title>([^<]*)<\/title>/.exec((await app!.inject({ method: 'GET', url: '/' })).body)?.[1];
  const start = async (options: Partial<BuildAppOptions> = {}) => {
    app = await buildApp({ db: getDb(), engine, ...options });
    return app;
  };
  /** Imports the demo with a new title (a new version) in this process. */
  const importHere = async (): Promise<string> => {
    const name = `Demo ${engine} ${++title}`;
    await importSiteFile(getDb(), demoTitled(name));
    return name;
  };
  /** A new title and version written with SQL, as another process's import would look to this one (no notice). */
  const changeBehindTheCache = async (): Promise<string> => {
    const name = `Demo ${engine} ${++title}`;
    const row = await getDb().selectFrom('sites').select('version').where('id', '=', 'demo').executeTakeFirstOrThrow();
    await getDb()
      .updateTable('sites')
      .set({ title: name, version: row.version + 1 })
      .where('id', '=', 'demo')
      .execute();
    return name;
  };

  beforeAll(async () => {
    await importSiteFile(getDb(), demoTitled('Demo first'));
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('sees an import made in this process on the very next request', async () => {
    await start({ siteCacheTtlMs: LONG_TTL_MS });
    await homeTitle();
    const name = await importHere();
    expect(await homeTitle()).toBe(name);
  });

  it('renders a product page from the new version after a re-import, with stock read on every uncached render', async () => {
    await start({ siteCacheTtlMs: LONG_TTL_MS });
    app!.pageCache.enabled = false;
    const pdp = async () => (await app!.inject({ method: 'GET', url: '/shop/p/speckled-mug' })).body;
    expect(await pdp()).toContain('<title>Speckled Stoneware Mug — ');
    const name = `Demo ${engine} ${++title}`;
    await importSiteFile(getDb(), demoTitled(name, 'Renamed Mug'));
    const renamed = await pdp();
    expect(renamed).toContain(`<title>Renamed Mug — ${name}</title>`);
    // Stock is not part of the per-version data: a sale (here a direct update) shows on the next render.
    await getDb()
      .updateTable('variants')
      .set({ qty_in_stock: 7 })
      .where('site_id', '=', 'demo')
      .where('sku', '=', 'MUG-SAG')
      .execute();
    const restocked = await pdp();
    expect(restocked).not.toBe(renamed);
    expect(restocked.replace(/&quot;/g, '"')).toMatch(/"sku":"MUG-SAG","attributes":\{[^}]*\},[^\]]*?"qtyInStock":7\}/);
  });

  it('keeps the site for at most the TTL when another process changes it without Redis', async () => {
    await start();
    const before = await homeTitle();
    const changedAt = Date.now();
    const name = await changeBehindTheCache();
    const early = await homeTitle();
    // Within the TTL the cached site may still answer (that is the point of the cache)...
    if (Date.now() - changedAt < SITE_CACHE_TTL_MS / 2) expect(early).toBe(before);
    await sleep(SITE_CACHE_TTL_MS + 50);
    // ...and after it, the next request reads the sites again.
    expect(await homeTitle()).toBe(name);
  });

  it('never fails a request because Redis is unreachable, and falls back to the TTL', async () => {
    await start({ redisUrl: 'redis://127.0.0.1:1', siteCacheTtlMs: 200 });
    expect(await homeTitle()).toBeTruthy();
    const name = await changeBehindTheCache();
    await sleep(250);
    expect(await homeTitle()).toBe(name);
  });

  describe.skipIf(!runRedisTests)('with Redis', () => {
    const waitForTitle = async (name: string, withinMs: number) => {
      const deadline = Date.now() + withinMs;
      let seen = await homeTitle();
      while (seen !== name && Date.now() < deadline) {
        await sleep(20);
        seen = await homeTitle();
      }
      return seen;
    };
    const subscribed = async () => {
      // The subscription is made once the connection is ready; give it a moment.
      await sleep(300);
    };

    it('drops the cached site when a change is announced on Redis', async () => {
      await start({ redisUrl: REDIS_URL, siteCacheTtlMs: LONG_TTL_MS });
      await subscribed();
      const before = await homeTitle();
      const name = await changeBehindTheCache();
      expect(await homeTitle()).toBe(before); // cached: a 60 s TTL
      expect(await publishSiteChange(REDIS_URL, 'demo')).toBe(true);
      expect(await waitForTitle(name, 5000)).toBe(name);
    });

    it('sees `vitrine import` run in another process, announced through REDIS_URL', async () => {
      await start({ redisUrl: REDIS_URL, siteCacheTtlMs: LONG_TTL_MS });
      await subscribed();
      await homeTitle();
      const name = `Demo ${engine} ${++title}`;
      const run = await importInOtherProcess(demoTitled(name), { DATABASE_URL: getFresh().url, REDIS_URL });
      expect(run.code, run.output).toBe(0);
      expect(await waitForTitle(name, 5000)).toBe(name);
    }, 30_000);
  });

  it('reports (but does not fail) an import whose Redis announcement cannot be sent', async () => {
    const name = `Demo ${engine} ${++title}`;
    // In this process (../support/cli.ts), with only these settings: what is checked is what the command says.
    const run = await vitrineWith(['import', demoTitled(name)], {
      DATABASE_URL: getFresh().url,
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain(`they will show the new version within ${SITE_CACHE_TTL_MS / 1000} s`);
  }, 30_000);
});
