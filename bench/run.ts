/**
 * `npm run bench` (after `vite build`): prints figures, asserts nothing. Loopback only, short runs.
 *
 * Issue 13's table, each row against its goal, each ratio against a baseline measured in the same run, in turns
 * with it (ROUNDS rounds, the order reversed each round: a load that changes during the run weighs on all alike):
 * 1. Cached product page, no compression asked: Vitrine ÷ a raw node:http server sending the same body (issue 13's
 *    baseline), and ÷ one sending Vitrine's whole answer (same headers: security headers, policy, ETag, Vary).
 * 2. The same with `Accept-Encoding: gzip` (the raw servers send Vitrine's gzip bytes); p99.
 * 3. Add to cart, 50 connections, each request a new cart + entry: p99, and ÷ the raw GET of (1) at 50 connections.
 * 4. Place order, 50 connections: each request places the order of its own prepared cart (one unit of a physical
 *    product with counted stock) with its own idempotency key, through the test payment provider: p99; against a raw
 *    node:http server that reads the same request and answers the same bytes; then one connection.
 * Then, not in the table: the product page uncached, the page-view beacon, and the JavaScript the product page loads.
 *
 * On both engines (issue 27; BENCH_ENGINES=sqlite or postgres for one): two servers, a fresh SQLite file and a fresh
 * PostgreSQL database on BENCH_DATABASE_URL (default the test server, dropped after), measured in turns with each
 * other and with the baselines in every comparison. Each row also gives, per request, the server process's CPU
 * (autocannon runs in a process of its own, ./loadClient.ts), PostgreSQL's (its backends for that database), and the
 * statements, round trips and pool checkouts the server made (./queryCounter.ts); then both engines side by side.
 *
 * `tsx bench/inject.ts` times the same page through `app.inject` (no sockets), for profiling the server's own work.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gzipSync } from 'node:zlib';
import { CRUMB_HEADER } from '../src/core/crumb';
import { analyticsRecorderOf } from '../src/modules/analytics/routes';
import {
  BENCH_CRUMB,
  benchSiteFile,
  compare,
  CRUMB_COOKIE_PAIR,
  CRUMB_HEADERS,
  DURATION_S,
  type Figures,
  fmt,
  measure,
  type MeasureOptions,
  perRequest,
  postgresDatabaseOf,
  ORDER_CONNECTIONS,
  ORDER_DETAILS,
  ORDER_WARMUP,
  placeOrders,
  prepareCarts,
  rawServer,
  ROUNDS,
  startServer,
} from './harness';
import type { Engine } from '../src/platform/db/connect';

/** As issue 13's figures were taken. */
const PAGE_CONNECTIONS = 50;
const CART_CONNECTIONS = 50;
const PDP_PATH = '/shop/p/speckled-mug';
/** How often the PDP's stock changes in the selling run: a busy shop's best seller, many times over. */
const STOCK_CHANGES_PER_S = 10;
/** Analytics counts no bots: the benchmark's page views come from a desktop browser. */
const BENCH_BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The bytes and headers of one answer, as sent (no decompression). */
function getRaw(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** An answer's headers for a raw server to send again: all but those Node writes itself. */
function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      typeof value === 'string' &&
      !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)
    )
      kept[name] = value;
  }
  return kept;
}

/**
 * Page runs send what a browser sends from its second page on: the crumb cookie its first page set. (A first view,
 * or a client without cookies, is also given a crumb cookie each time: about a quarter fewer cached pages per second.)
 */
const RETURNING_VISITOR = { cookie: CRUMB_COOKIE_PAIR };
/** What the gzip rows ask for (browsers send `gzip, deflate, br, zstd` and get brotli, the same path). */
const ACCEPT_GZIP = { 'accept-encoding': 'gzip' };

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[];
const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const began = performance.now();
/** What the benchmark is doing, on stderr (a run takes minutes). */
const progress = (what: string) =>
  process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${what}\n`);

type Started = Awaited<ReturnType<typeof startServer>>;
interface Server {
  engine: Engine;
  name: string;
  vitrine: Started;
  /** PostgreSQL: the database whose backends' CPU each run counts. */
  database: string | undefined;
}

/** Each engine's options in a comparison: the same run, on its server. */
function onEach(servers: Server[], options: (server: Server) => MeasureOptions): Record<string, MeasureOptions> {
  return Object.fromEntries(
    servers.map((s) => [
      s.engine,
      {
        ...options(s),
        engine: s.engine,
        ...(s.database !== undefined ? { database: s.database } : {}),
      } satisfies MeasureOptions,
    ]),
  );
}

async function main(): Promise<void> {
  const site = benchSiteFile();
  const servers: Server[] = [];
  try {
    for (const engine of ENGINES) {
      // No cap on requests per keep-alive connection here: past it Node answers Connection: close, which browsers and
      // proxies honour by opening a new connection, but autocannon keeps sending on the old one and gets 503s.
      progress(`starting the ${ENGINE_NAMES[engine]} server`);
      const vitrine = await startServer({
        engine,
        siteFile: site.file,
        cartRateLimitPerMinute: 1_000_000_000,
        httpLimits: { maxRequestsPerSocket: 0 },
      });
      servers.push({ engine, name: ENGINE_NAMES[engine], vitrine, database: postgresDatabaseOf(vitrine.databaseUrl) });
    }
    await benchmark(servers);
  } finally {
    for (const server of servers) await server.vitrine.close();
    site.dispose();
  }
}

async function benchmark(servers: Server[]): Promise<void> {
  const first = servers[0]!.vitrine;
  const pdpUrl = first.url + PDP_PATH;
  const plain = await getRaw(pdpUrl, RETURNING_VISITOR);
  const gzipped = await getRaw(pdpUrl, { ...RETURNING_VISITOR, ...ACCEPT_GZIP });
  if (plain.status !== 200 || gzipped.status !== 200)
    throw new Error(`${PDP_PATH} answered ${plain.status}, ${gzipped.status}`);
  if (gzipped.headers['content-encoding'] !== 'gzip') throw new Error(`${PDP_PATH} was not sent gzipped when asked`);
  const html = plain.body;
  const contentType = { 'content-type': plain.headers['content-type'] ?? 'text/html; charset=utf-8' };
  // Two baselines: the body alone (as issue 13 measured), and Vitrine's whole answer byte for byte but its Date
  // (its security headers and policy, ETag, Vary, …: what a static server configured alike would send).
  const raw = await rawServer(html, contentType);
  const rawSame = await rawServer(html, answerHeaders(plain.headers));
  const rawGzip = await rawServer(gzipped.body, { ...contentType, 'content-encoding': 'gzip' });
  const rawGzipSame = await rawServer(gzipped.body, answerHeaders(gzipped.headers));

  // Warm all (JIT, caches) before measuring.
  for (const s of servers)
    await measure({
      url: s.vitrine.url + PDP_PATH,
      connections: PAGE_CONNECTIONS,
      duration: 1,
      headers: RETURNING_VISITOR,
    });
  await measure({ url: raw.url, connections: PAGE_CONNECTIONS, duration: 1 });

  const pdp = (headers: Record<string, string>) =>
    onEach(servers, (s) => ({ url: s.vitrine.url + PDP_PATH, connections: PAGE_CONNECTIONS, headers }));
  progress('cached PDP');
  const cached = await compare<string>({
    raw: { url: raw.url, connections: PAGE_CONNECTIONS },
    rawSame: { url: rawSame.url, connections: PAGE_CONNECTIONS },
    ...pdp(RETURNING_VISITOR),
  });
  progress('cached PDP, gzip');
  const cachedGzip = await compare<string>({
    raw: { url: rawGzip.url, connections: PAGE_CONNECTIONS, headers: ACCEPT_GZIP },
    rawSame: { url: rawGzipSame.url, connections: PAGE_CONNECTIONS, headers: ACCEPT_GZIP },
    ...pdp({ ...RETURNING_VISITOR, ...ACCEPT_GZIP }),
  });
  // The same while the product's stock changes STOCK_CHANGES_PER_S times a second (sales, as the database sees them):
  // each change drops the cached page (issue 23) and the next request renders and compresses it again.
  let stockChanges = 0;
  const selling = setInterval(() => {
    stockChanges++;
    for (const s of servers)
      s.vitrine
        .db!.updateTable('variants')
        .set({ qty_in_stock: 14 - (stockChanges % 2) })
        .where('sku', '=', 'MUG-OAT')
        .execute()
        .catch(() => {});
  }, 1000 / STOCK_CHANGES_PER_S);
  progress('cached PDP while its stock changes');
  const gzipSelling = await compare<string>({
    raw: { url: rawGzip.url, connections: PAGE_CONNECTIONS, headers: ACCEPT_GZIP },
    ...pdp({ ...RETURNING_VISITOR, ...ACCEPT_GZIP }),
  });
  clearInterval(selling);
  for (const server of [rawSame, rawGzip, rawGzipSame]) server.server.close();
  for (const s of servers) s.vitrine.app.pageCache.enabled = false;
  progress('uncached PDP');
  const uncached = await compare<string>(pdp(RETURNING_VISITOR));
  for (const s of servers) s.vitrine.app.pageCache.enabled = true;

  progress('add to cart');
  const addToCart = await compare<string>({
    raw: { url: raw.url, connections: CART_CONNECTIONS },
    ...onEach(servers, (s) => ({
      url: `${s.vitrine.url}/api/commerce/shopping-cart/entries`,
      connections: CART_CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CRUMB_HEADERS },
      body: JSON.stringify({ itemId: 'house-blend', sku: 'HB-250-WB', quantity: 1, additionalFields: '' }),
    })),
  });
  raw.server.close();

  // A page view (RecordHit) as the measurement module sends it: answered 202 at once, written in batches.
  progress('page view');
  const recordHit = await compare<string>(
    onEach(servers, (s) => ({
      url: `${s.vitrine.url}/api/census/RecordHit`,
      connections: CART_CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BENCH_BROWSER },
      body: new URLSearchParams({
        event: 'RecordHit',
        data: JSON.stringify({
          pagePath: PDP_PATH,
          pageType: 50,
          websiteId: 'demo',
          userAgent: BENCH_BROWSER,
          viewportWidth: 1280,
          viewportHeight: 900,
        }),
        ss_cvr: `11111111-2222-4333-8444-555555555555|${Date.now()}|${Date.now()}|${Date.now()}|1`,
      }).toString(),
    })),
  );
  const hitsWritten: Record<string, number> = {};
  for (const s of servers) {
    await analyticsRecorderOf(s.vitrine.app)?.buffer.flush();
    hitsWritten[s.engine] = analyticsRecorderOf(s.vitrine.app)?.buffer.written ?? 0;
  }

  // Place order: warm up, then place about DURATION_S seconds' worth of orders at the warm-up's rate (the slower
  // engine's, so that both place the same number), 50 connections then one, the engines in turns.
  progress('place order');
  let orderCount = 20_000;
  for (const s of servers) {
    const warmup = await placeOrders(
      s.vitrine.url,
      await prepareCarts(s.vitrine.url, ORDER_WARMUP),
      ORDER_CONNECTIONS,
      {
        engine: s.engine,
        database: s.database,
      },
    );
    if (warmup.non2xx || warmup.errors)
      throw new Error(
        `placing orders on ${s.name} failed while warming up: non-2xx ${warmup.non2xx}, errors ${warmup.errors}`,
      );
    orderCount = Math.min(orderCount, Math.max(1_000, Math.round(warmup.requestsPerSecond * DURATION_S)));
  }
  const placeOrder: Record<string, Figures> = {};
  const singleOrders: Record<string, Figures> = {};
  for (const [i, connections] of [ORDER_CONNECTIONS, 1].entries()) {
    for (const s of i % 2 === 0 ? servers : [...servers].reverse()) {
      const carts = await prepareCarts(s.vitrine.url, orderCount);
      (connections === 1 ? singleOrders : placeOrder)[s.engine] = await placeOrders(s.vitrine.url, carts, connections, {
        engine: s.engine,
        database: s.database,
      });
    }
  }
  const orderBody = Buffer.from(
    JSON.stringify({ order: { id: 'x'.repeat(22), number: 1_000 }, orderUrl: `/checkout/order/${'x'.repeat(22)}` }),
  );
  const rawOrders = await rawServer(orderBody, { 'content-type': 'application/json; charset=utf-8' }, 201);
  const orderBaseline = await measure({
    url: rawOrders.url,
    connections: ORDER_CONNECTIONS,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [CRUMB_HEADER]: BENCH_CRUMB,
      cookie: `CART=${'x'.repeat(22)}; ${CRUMB_COOKIE_PAIR}`,
    },
    body: JSON.stringify({ idempotencyKey: `bench-raw-${'0'.repeat(12)}`, ...ORDER_DETAILS }),
  });
  rawOrders.server.close();

  const scripts = [
    ...html.toString('utf8').matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g),
  ].map((m) => m[1]!);
  let jsRaw = 0;
  let jsGzip = 0;
  for (const src of scripts) {
    const bytes = Buffer.from(await (await fetch(first.url + src)).arrayBuffer());
    jsRaw += bytes.length;
    jsGzip += gzipSync(bytes, { level: 9 }).length;
  }

  /** Per request: the server's CPU, the database's (PostgreSQL), statements (of them BEGIN/COMMIT/…), round trips. */
  const costs = (f: Figures) => {
    const p = perRequest(f);
    if (f.queries.statements === 0 && f.cpuUs === 0) return '';
    const database =
      f.queries.roundTrips > 0
        ? `  ${fmt(p.statements, 1)} stmts (${fmt(p.transactionControl, 1)} tx), ${fmt(p.roundTrips, 1)} round trips, db ${fmt(p.dbCpuUs)} µs; ${fmt(p.checkouts, 1)} checkouts, held ${fmt(p.heldMs, 1)} ms (queries ${fmt(p.queryMs, 1)} ms)`
        : f.queries.statements > 0
          ? `  ${fmt(p.statements, 2)} stmts (${fmt(p.transactionControl, 2)} tx)`
          : '';
    return `  cpu ${fmt(p.cpuUs)} µs${database}`;
  };
  const row = (name: string, f: Figures, ratio?: { value: number; of: string }) =>
    `${name.padEnd(40)} ${fmt(f.requestsPerSecond).padStart(9)} req/s  p99 ${fmt(f.p99Ms, 1).padStart(7)} ms${
      ratio === undefined ? '' : `  ${fmt(ratio.value, 2).padStart(5)}× ${ratio.of}`
    }${costs(f)}${f.non2xx || f.errors ? `  (non-2xx ${f.non2xx}, errors ${f.errors})` : ''}`;
  const goal = (met: boolean, text: string) => `  goal ${text}: ${met ? 'met' : 'NOT met'}`;
  const ratio = (subject: Figures, baseline: Figures, of: string) => ({
    value: subject.requestsPerSecond / baseline.requestsPerSecond,
    of,
  });
  const on = (figures: Record<string, Figures>, s: Server) => figures[s.engine]!;
  const pdpJsKb = jsGzip / 1000;
  console.log(
    `\nVitrine benchmark — Node ${process.versions.node}, ${servers.map((s) => s.name).join(' and ')}, loopback, autocannon in a process of its own`,
  );
  console.log(
    `${DURATION_S} s per run; each comparison ${ROUNDS} rounds per side, interleaved with its baseline and the other engine\n`,
  );
  console.log(
    `PDP ${PDP_PATH}: ${fmt(html.length)} bytes of HTML (${fmt(gzipped.body.length)} gzipped), ${PAGE_CONNECTIONS} connections, a returning visitor (crumb cookie)`,
  );
  const pageRows = (figures: Record<string, Figures>, what: string) => {
    console.log(row('  raw node:http, same body', figures.raw!));
    console.log(row('  raw node:http, same headers and body', figures.rawSame!));
    for (const s of servers) {
      const f = on(figures, s);
      console.log(row(`  ${s.name}, cached, ${what}`, f, ratio(f, figures.raw!, 'raw')));
      console.log(
        `${''.padEnd(78)}${fmt(f.requestsPerSecond / figures.rawSame!.requestsPerSecond, 2).padStart(5)}× raw, same headers`,
      );
    }
  };
  pageRows(cached, 'no compression');
  for (const s of servers)
    console.log(
      goal(on(cached, s).requestsPerSecond / cached.raw!.requestsPerSecond >= 0.95, `${s.name}: ≥ 0.95× raw`),
    );
  pageRows(cachedGzip, 'gzip');
  for (const s of servers)
    console.log(
      goal(
        on(cachedGzip, s).requestsPerSecond / cachedGzip.raw!.requestsPerSecond >= 0.9 && on(cachedGzip, s).p99Ms <= 10,
        `${s.name}: ≥ 0.9× raw, p99 ≤ 10 ms`,
      ),
    );
  console.log(row(`  raw node:http, gzip`, gzipSelling.raw!));
  for (const s of servers)
    console.log(
      row(
        `  ${s.name}, gzip, stock ${STOCK_CHANGES_PER_S}×/s`,
        on(gzipSelling, s),
        ratio(on(gzipSelling, s), gzipSelling.raw!, 'raw'),
      ),
    );
  console.log(
    `  stock changes made: ${fmt(stockChanges)} on each (each drops the page; the next request renders it: the cost of live stock)`,
  );
  for (const s of servers)
    console.log(row(`  ${s.name}, page cache off`, on(uncached, s), ratio(on(uncached, s), cached.raw!, 'raw')));
  console.log(`\nAdd to cart (POST entries, new cart each), ${CART_CONNECTIONS} connections`);
  console.log(row('  raw node:http GET of the PDP', addToCart.raw!));
  for (const s of servers) {
    const f = on(addToCart, s);
    console.log(row(`  ${s.name}`, f, ratio(f, addToCart.raw!, 'raw GET')));
  }
  for (const s of servers) {
    const f = on(addToCart, s);
    console.log(
      goal(
        f.p99Ms <= 25 && f.requestsPerSecond / addToCart.raw!.requestsPerSecond >= 0.3,
        `${s.name}: p99 ≤ 25 ms, ≥ 0.3× raw GET`,
      ),
    );
  }
  if (addToCart.sqlite && addToCart.postgres) {
    const pgRatio = addToCart.postgres.requestsPerSecond / addToCart.sqlite.requestsPerSecond;
    console.log(
      goal(
        pgRatio >= 0.6 && addToCart.postgres.p99Ms <= 50,
        `PostgreSQL ≥ 0.6× SQLite (${fmt(pgRatio, 2)}×), p99 ≤ 50 ms (issue 27)`,
      ),
    );
  }
  console.log(
    `\nPlace order (POST checkout/orders, own cart and idempotency key each, test provider), ${ORDER_CONNECTIONS} connections, ${fmt(orderCount)} orders`,
  );
  console.log(row('  raw node:http, same request', orderBaseline));
  for (const s of servers)
    console.log(row(`  ${s.name}`, on(placeOrder, s), ratio(on(placeOrder, s), orderBaseline, 'raw')));
  for (const s of servers) console.log(row(`  ${s.name}, 1 connection`, on(singleOrders, s)));
  for (const s of servers) {
    const f = on(placeOrder, s);
    const one = on(singleOrders, s);
    console.log(`  ${s.name}: non-2xx answers: ${f.non2xx + one.non2xx} (errors ${f.errors + one.errors})`);
  }
  for (const s of servers)
    console.log(
      goal(
        on(placeOrder, s).p99Ms <= (s.engine === 'sqlite' ? 50 : 100),
        `${s.name}: p99 ≤ ${s.engine === 'sqlite' ? 50 : 100} ms at ${ORDER_CONNECTIONS} connections`,
      ),
    );
  console.log(`\nPage view (POST census/RecordHit, buffered and written in batches), ${CART_CONNECTIONS} connections`);
  for (const s of servers) console.log(row(`  ${s.name}`, on(recordHit, s)));
  console.log(`  events written: ${servers.map((s) => `${s.name} ${fmt(hitsWritten[s.engine] ?? 0)}`).join(', ')}`);
  console.log(
    `\nJavaScript loaded by the PDP: ${scripts.length} file(s), ${fmt(jsRaw)} bytes, ${fmt(jsGzip)} bytes gzipped (level 9)`,
  );
  console.log(goal(pdpJsKb <= 70, '≤ 70 KB on the PDP'));

  // Both engines side by side: each row's rate, p99 and what a request cost.
  const rows: [string, Record<string, Figures>][] = [
    ['cached PDP', cached],
    ['cached PDP, gzip', cachedGzip],
    [`cached PDP, gzip, stock ${STOCK_CHANGES_PER_S}×/s`, gzipSelling],
    ['uncached PDP', uncached],
    ['add to cart', addToCart],
    ['place order, 50 connections', placeOrder],
    ['place order, 1 connection', singleOrders],
    ['page view', recordHit],
  ];
  console.log(
    `\nBoth engines (per request: the server's CPU; statements, of them transaction control; PostgreSQL's round trips and its backends' CPU)`,
  );
  const cell = (f: Figures | undefined, engine: Engine) => {
    if (f === undefined) return ''.padEnd(engine === 'postgres' ? 52 : 36);
    const p = perRequest(f);
    const head = `${fmt(f.requestsPerSecond).padStart(7)}/s ${fmt(f.p99Ms, 0).padStart(4)} ms ${fmt(p.cpuUs).padStart(6)} µs ${fmt(p.statements, 1).padStart(4)} (${fmt(p.transactionControl, 1)})`;
    return engine === 'postgres'
      ? `${head} ${fmt(p.roundTrips, 1).padStart(4)} rt ${fmt(p.dbCpuUs).padStart(6)} µs db`
      : head;
  };
  console.log(
    `  ${''.padEnd(34)} ${servers.map((s) => (s.engine === 'postgres' ? 'PostgreSQL: req/s, p99, cpu, stmts (tx), round trips, db cpu' : 'SQLite: req/s, p99, cpu, stmts (tx)').padEnd(s.engine === 'postgres' ? 52 : 38)).join('  ')}`,
  );
  for (const [name, figures] of rows)
    console.log(`  ${name.padEnd(34)} ${servers.map((s) => cell(figures[s.engine], s.engine)).join('  |  ')}`);
  console.log('');
}

await main();
