/**
 * `tsx bench/scale.ts` (run by `npm run bench` after bench/run.ts): issue 13's last row — do costs stay flat as the
 * catalog grows? Two generated shops of the same shape (bench/generatedSite.ts: two options, 6–12 variants a product,
 * every 10th sold out), a small one (SMALL products, the demo's size) and a big one (BIG, 10,000), each in its own
 * fresh SQLite file. For each: the import's time (and per product), then through `app.inject` (no sockets: the
 * server's own work), with the page cache off so every page is rendered: a product page, the first and a middle page
 * of the product list, a search, and an add to cart (a new cart each time). Prints each figure's ratio big ÷ small
 * against the goal (≤ 1.2; the import per product ≤ 1.2, i.e. linear). Samples alternate between the two shops, in
 * rounds, so a load that changes during the run weighs on both alike; the median of each is kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
const { connect } = await import('../src/platform/db/connect');
const { migrateToLatest } = await import('../src/platform/db/migrations');
const { importSite } = await import('../src/modules/site/import');
const { buildApp } = await import('../src/server/app');
const { CRUMB_COOKIE, CRUMB_HEADER } = await import('../src/core/crumb');
const { generatedSite } = await import('./generatedSite');

const SMALL = Number(process.env.BENCH_SMALL_PRODUCTS ?? 100);
const BIG = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 7);
const REQUESTS_PER_SAMPLE = 20;
const CRUMB = 'YmVuY2gtc2NhbGUtY3J1bW';

interface Shop {
  size: number;
  host: string;
  app: FastifyInstance;
  importMs: number;
  close(): Promise<void>;
}

async function openShop(size: number): Promise<Shop> {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-scale-'));
  const handle = connect(join(dir, 'vitrine.db'));
  await migrateToLatest(handle.db);
  const host = `shop${size}.test`;
  const text = JSON.stringify(generatedSite(size, { host, id: `shop${size}` }));
  const started = performance.now();
  await importSite(handle.db, text, dir);
  const importMs = performance.now() - started;
  const app = await buildApp({ db: handle.db, engine: 'sqlite', cartRateLimitPerMinute: 100_000_000 });
  app.pageCache.enabled = false;
  return {
    size,
    host,
    app,
    importMs,
    async close() {
      await app.close();
      await handle.close();
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

/** Mean µs per request over REQUESTS_PER_SAMPLE requests. */
async function sample(shop: Shop, step: Step, round: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < REQUESTS_PER_SAMPLE; i++) await step(shop, round * REQUESTS_PER_SAMPLE + i);
  return ((performance.now() - started) * 1000) / REQUESTS_PER_SAMPLE;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  process.stdout.write(`Generating and importing a shop of ${fmt(SMALL)} products… `);
  const small = await openShop(SMALL);
  process.stdout.write(`${fmt(small.importMs)} ms\nGenerating and importing a shop of ${fmt(BIG)} products… `);
  const big = await openShop(BIG);
  process.stdout.write(`${fmt(big.importMs)} ms\n`);
  try {
    const results: { name: string; small: number; big: number }[] = [];
    for (const [name, step] of Object.entries(STEPS)) {
      // Warm both (JIT, statement cache, SQLite's page cache).
      await sample(small, step, 0);
      await sample(big, step, 0);
      const times = { small: [] as number[], big: [] as number[] };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const shop of round % 2 === 0 ? [small, big] : [big, small])
          times[shop === small ? 'small' : 'big'].push(await sample(shop, step, round));
      }
      results.push({ name, small: median(times.small), big: median(times.big) });
    }
    const goal = (ratio: number) => (ratio <= 1.2 ? 'met' : 'NOT met');
    console.log(
      `\nCosts at ${fmt(BIG)} products ÷ at ${fmt(SMALL)} (SQLite, app.inject, page cache off, median of ${ROUNDS} rounds of ${REQUESTS_PER_SAMPLE})`,
    );
    for (const r of results) {
      const ratio = r.big / r.small;
      console.log(
        `  ${r.name.padEnd(30)} ${fmt(r.small).padStart(7)} µs → ${fmt(r.big).padStart(7)} µs  ${fmt(ratio, 2).padStart(5)}×  goal ≤ 1.2: ${goal(ratio)}`,
      );
    }
    const perProduct = (shop: Shop) => (shop.importMs * 1000) / shop.size;
    const importRatio = perProduct(big) / perProduct(small);
    console.log(
      `  ${'import, per product'.padEnd(30)} ${fmt(perProduct(small)).padStart(7)} µs → ${fmt(perProduct(big)).padStart(7)} µs  ${fmt(importRatio, 2).padStart(5)}×  goal ≤ 1.2 (linear): ${goal(importRatio)}`,
    );
    console.log(`  (import of ${fmt(BIG)} products: ${fmt(big.importMs / 1000, 1)} s)`);
  } finally {
    await small.close();
    await big.close();
  }
}

await main();
