/**
 * `tsx bench/scale.ts` (run by `npm run bench` after bench/run.ts): issue 13's last row — do costs stay flat as the
 * catalog grows? Two generated shops of the same shape (bench/generatedSite.ts: two options, 6–12 variants a product,
 * every 10th sold out), a small one (SMALL products, the demo's size) and a big one (BIG, 10,000), each in its own
 * fresh SQLite file. For each: the import's time (and per product), then through `app.inject` (no sockets: the
 * server's own work), with the page cache off so every page is rendered: a product page, the first and a middle page
 * of the product list, a search, and an add to cart (a new cart each time). Prints each figure's ratio big ÷ small
 * against the goal (≤ 1.2; the import per product ≤ 1.2, i.e. linear). Samples alternate between the shops, in
 * rounds, so a load that changes during the run weighs on all alike; the median of each is kept.
 *
 * On both engines (issue 27; BENCH_ENGINES=sqlite or postgres for one): the two shops in fresh SQLite files and in
 * fresh PostgreSQL databases on BENCH_DATABASE_URL (default the test server; dropped after), printed side by side,
 * each step with its statements per request (./queryCounter.ts) and this process's CPU per request (the server's
 * work through app.inject, and inject's own). PostgreSQL's tables are ANALYZEd after the import, as autovacuum would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
// test/support/engines.ts makes its PostgreSQL databases from TEST_DATABASE_URL, read when it loads.
process.env.TEST_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { createFreshDb } = await import('../test/support/engines');
const { countsSince, installQueryCounter, queryCounts } = await import('./queryCounter');
const { importSite } = await import('../src/modules/site/import');
const { buildApp } = await import('../src/server/app');
const { CRUMB_COOKIE, CRUMB_HEADER } = await import('../src/core/crumb');
const { generatedSite } = await import('./generatedSite');

const SMALL = Number(process.env.BENCH_SMALL_PRODUCTS ?? 100);
const BIG = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 7);
const REQUESTS_PER_SAMPLE = 20;
const CRUMB = 'YmVuY2gtc2NhbGUtY3J1bW';

type Engine = 'sqlite' | 'postgres';
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[];
const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface Shop {
  engine: Engine;
  size: number;
  host: string;
  app: FastifyInstance;
  importMs: number;
  close(): Promise<void>;
}

async function openShop(engine: Engine, size: number): Promise<Shop> {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-scale-'));
  const fresh = await createFreshDb(engine);
  const handle = fresh.handle;
  const host = `shop${size}.test`;
  const text = JSON.stringify(generatedSite(size, { host, id: `shop${size}` }));
  const started = performance.now();
  await importSite(handle.db, text, dir);
  const importMs = performance.now() - started;
  // The statistics a database has after a day of use (autovacuum's ANALYZE), not those of tables loaded a second ago.
  if (engine === 'postgres') await sql`ANALYZE`.execute(handle.db);
  const app = await buildApp({ db: handle.db, engine, cartRateLimitPerMinute: 100_000_000 });
  app.pageCache.enabled = false;
  return {
    engine,
    size,
    host,
    app,
    importMs,
    async close() {
      await app.close();
      await fresh.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Step = (shop: Shop, i: number) => Promise<void>;

const clientAddress = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

const get =
  (path: (shop: Shop, i: number) => string): Step =>
  async (shop, i) => {
    const url = path(shop, i);
    // Each request from its own client address: the search's per-client budget (30 per 10 s) is not what is measured.
    const answer = await shop.app.inject({
      method: 'GET',
      url,
      remoteAddress: clientAddress(i),
      headers: { host: shop.host, cookie: `${CRUMB_COOKIE}=${CRUMB}` },
    });
    if (answer.statusCode !== 200)
      throw new Error(`${url} answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`);
  };

/** Products spread over the catalog, the same positions in both shops relative to their size. */
const productAt = (shop: Shop, i: number) => 1 + ((i * 7919) % shop.size);

const STEPS: Record<string, Step> = {
  'product page (uncached)': get((shop, i) => `/shop/p/product-${productAt(shop, i)}`),
  'product list, first page': get(() => '/shop'),
  'product list, a middle page': get((shop) =>
    shop.size > 48 ? `/shop/page/${Math.ceil(shop.size / 48 / 2)}` : '/shop',
  ),
  // A word an eighth of the catalog has (ranked full-text search reads every match: its cost follows the matches)…
  'search, a common word': get((_shop, i) => `/search?q=${['stoneware', 'walnut', 'copper', 'linen'][i % 4]}`),
  // …and one a few products have (a product's number: its name and description): what the catalog's size costs.
  'search, a rare word': get((shop, i) => `/search?q=${productAt(shop, i)}`),
  'add to cart (new cart)': async (shop, i) => {
    const n = productAt(shop, i);
    const answer = await shop.app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      remoteAddress: clientAddress(i),
      headers: {
        host: shop.host,
        'content-type': 'application/json',
        cookie: `${CRUMB_COOKIE}=${CRUMB}`,
        [CRUMB_HEADER]: CRUMB,
      },
      payload: JSON.stringify({ itemId: `p${n}`, sku: `p${n}-0-0`, quantity: 1, additionalFields: '' }),
    });
    // A sold-out product (every 10th) answers 409: still the whole add's work (product, stock and cart read).
    if (answer.statusCode !== 200 && answer.statusCode !== 409)
      throw new Error(`add to cart answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`);
  },
};

interface Sample {
  /** Mean µs per request (wall). */
  us: number;
  /** This process's CPU per request, µs. */
  cpuUs: number;
  statements: number;
}

/** REQUESTS_PER_SAMPLE requests, one after another. */
async function sample(shop: Shop, step: Step, round: number): Promise<Sample> {
  const queries = queryCounts(shop.engine);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < REQUESTS_PER_SAMPLE; i++) await step(shop, round * REQUESTS_PER_SAMPLE + i);
  const us = ((performance.now() - started) * 1000) / REQUESTS_PER_SAMPLE;
  const used = process.cpuUsage(cpu);
  return {
    us,
    cpuUs: (used.user + used.system) / REQUESTS_PER_SAMPLE,
    statements: countsSince(shop.engine, queries).statements / REQUESTS_PER_SAMPLE,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Figures {
  small: Sample;
  big: Sample;
}

async function main(): Promise<void> {
  installQueryCounter();
  const shops: { small: Shop; big: Shop }[] = [];
  try {
    for (const engine of ENGINES) {
      process.stdout.write(`${ENGINE_NAMES[engine]}: importing a shop of ${fmt(SMALL)} products… `);
      const small = await openShop(engine, SMALL);
      process.stdout.write(`${fmt(small.importMs)} ms; of ${fmt(BIG)} products… `);
      const big = await openShop(engine, BIG);
      process.stdout.write(`${fmt(big.importMs)} ms\n`);
      shops.push({ small, big });
    }
    const all = shops.flatMap((pair) => [pair.small, pair.big]);
    const results: { name: string; figures: Figures[] }[] = [];
    for (const [name, step] of Object.entries(STEPS)) {
      // Warm all (JIT, statement cache, the database's page cache).
      for (const shop of all) await sample(shop, step, 0);
      const samples = new Map<Shop, Sample[]>(all.map((shop) => [shop, []]));
      for (let round = 1; round <= ROUNDS; round++) {
        for (const shop of round % 2 === 0 ? all : [...all].reverse())
          samples.get(shop)!.push(await sample(shop, step, round));
      }
      const medianOf = (shop: Shop): Sample => {
        const of = samples.get(shop)!;
        return {
          us: median(of.map((s) => s.us)),
          cpuUs: median(of.map((s) => s.cpuUs)),
          statements: median(of.map((s) => s.statements)),
        };
      };
      results.push({ name, figures: shops.map((pair) => ({ small: medianOf(pair.small), big: medianOf(pair.big) })) });
    }
    const goal = (ratio: number) => (ratio <= 1.2 ? 'met' : 'NOT met');
    console.log(
      `\nCosts at ${fmt(BIG)} products ÷ at ${fmt(SMALL)} (app.inject, page cache off, median of ${ROUNDS} rounds of ${REQUESTS_PER_SAMPLE}; at ${fmt(BIG)}: this process's CPU and the statements per request)`,
    );
    console.log(`  ${''.padEnd(30)} ${shops.map((pair) => ENGINE_NAMES[pair.small.engine].padEnd(62)).join(' | ')}`);
    for (const r of results) {
      const cells = r.figures.map((f) => {
        const ratio = f.big.us / f.small.us;
        return `${fmt(f.small.us).padStart(7)} → ${fmt(f.big.us).padStart(7)} µs ${fmt(ratio, 2).padStart(5)}× ${goal(ratio).padEnd(7)} cpu ${fmt(f.big.cpuUs).padStart(7)} µs ${fmt(f.big.statements, 1).padStart(4)} st`;
      });
      console.log(`  ${r.name.padEnd(30)} ${cells.join(' | ')}`);
    }
    const perProduct = (shop: Shop) => (shop.importMs * 1000) / shop.size;
    const importCells = shops.map((pair) => {
      const ratio = perProduct(pair.big) / perProduct(pair.small);
      return `${fmt(perProduct(pair.small)).padStart(7)} → ${fmt(perProduct(pair.big)).padStart(7)} µs ${fmt(ratio, 2).padStart(5)}× ${goal(ratio).padEnd(7)} (${fmt(pair.big.importMs / 1000, 1)} s)`.padEnd(
        58,
      );
    });
    console.log(`  ${'import, per product (linear)'.padEnd(30)} ${importCells.join(' | ')}`);
  } finally {
    for (const pair of shops) {
      await pair.small.close();
      await pair.big.close();
    }
  }
}

await main();
