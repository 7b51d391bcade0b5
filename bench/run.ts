/**
 * `npm run bench` (after `vite build`): prints figures, asserts nothing. Loopback only, short runs.
 *
 * Issue 13's table, each row against its goal, each ratio against a baseline measured in the same run, in turns
 * with it (ROUNDS rounds, the order reversed each round: a load that changes during the run weighs on all alike):
 * 1. Cached product page, no compression asked: Vitrine ÷ a raw node:http server sending the same body (issue 13's
 *    baseline), and ÷ one sending Vitrine's whole answer (same headers: security headers, policy, ETag, Vary).
 * 2. The same with `Accept-Encoding: gzip` (the raw servers send Vitrine's gzip bytes); p99.
 * 3. Add to cart on SQLite, 50 connections, each request a new cart + entry: p99, and ÷ the raw GET of (1) at 50
 *    connections.
 * 4. Place order on SQLite, 50 connections: each request places the order of its own prepared cart (one unit of a
 *    physical product with counted stock) with its own idempotency key, through the test payment provider: p99;
 *    against a raw node:http server that reads the same request and answers the same bytes; then one connection.
 * Then, not in the table: the product page uncached, the page-view beacon, and the JavaScript the product page loads.
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
  ORDER_CONNECTIONS,
  ORDER_DETAILS,
  ORDER_WARMUP,
  placeOrders,
  prepareCarts,
  rawServer,
  ROUNDS,
  startServer,
} from './harness';

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

async function main(): Promise<void> {
  const site = benchSiteFile();
  // No cap on requests per keep-alive connection here: past it Node answers Connection: close, which browsers and
  // proxies honour by opening a new connection, but autocannon keeps sending on the old one and gets 503s.
  const vitrine = await startServer({
    siteFile: site.file,
    cartRateLimitPerMinute: 1_000_000_000,
    httpLimits: { maxRequestsPerSocket: 0 },
  }).catch((error: unknown) => {
    site.dispose();
    throw error;
  });
  try {
    const pdpUrl = vitrine.url + PDP_PATH;
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

    // Warm both (JIT, caches) before measuring.
    await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS, duration: 1, headers: RETURNING_VISITOR });
    await measure({ url: raw.url, connections: PAGE_CONNECTIONS, duration: 1 });

    const cached = await compare({
      raw: { url: raw.url, connections: PAGE_CONNECTIONS },
      rawSame: { url: rawSame.url, connections: PAGE_CONNECTIONS },
      vitrine: { url: pdpUrl, connections: PAGE_CONNECTIONS, headers: RETURNING_VISITOR },
    });
    const cachedGzip = await compare({
      raw: { url: rawGzip.url, connections: PAGE_CONNECTIONS, headers: ACCEPT_GZIP },
      rawSame: { url: rawGzipSame.url, connections: PAGE_CONNECTIONS, headers: ACCEPT_GZIP },
      vitrine: { url: pdpUrl, connections: PAGE_CONNECTIONS, headers: { ...RETURNING_VISITOR, ...ACCEPT_GZIP } },
    });
    // The same while the product's stock changes STOCK_CHANGES_PER_S times a second (sales, as the database sees them):
    // each change drops the cached page (issue 23) and the next request renders and compresses it again.
    const db = vitrine.db!;
    let stockChanges = 0;
    const selling = setInterval(() => {
      stockChanges++;
      db.updateTable('variants')
        .set({ qty_in_stock: 14 - (stockChanges % 2) })
        .where('sku', '=', 'MUG-OAT')
        .execute()
        .catch(() => {});
    }, 1000 / STOCK_CHANGES_PER_S);
    const gzipSelling = await compare({
      raw: { url: rawGzip.url, connections: PAGE_CONNECTIONS, headers: ACCEPT_GZIP },
      vitrine: { url: pdpUrl, connections: PAGE_CONNECTIONS, headers: { ...RETURNING_VISITOR, ...ACCEPT_GZIP } },
    });
    clearInterval(selling);
    for (const server of [rawSame, rawGzip, rawGzipSame]) server.server.close();
    vitrine.app.pageCache.enabled = false;
    const uncached = await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS, headers: RETURNING_VISITOR });
    vitrine.app.pageCache.enabled = true;

    const addToCart = await compare({
      raw: { url: raw.url, connections: CART_CONNECTIONS },
      vitrine: {
        url: `${vitrine.url}/api/commerce/shopping-cart/entries`,
        connections: CART_CONNECTIONS,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...CRUMB_HEADERS },
        body: JSON.stringify({ itemId: 'house-blend', sku: 'HB-250-WB', quantity: 1, additionalFields: '' }),
      },
    });
    raw.server.close();

    // A page view (RecordHit) as the measurement module sends it: answered 202 at once, written in batches.
    const recordHit = await measure({
      url: `${vitrine.url}/api/census/RecordHit`,
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
    });
    await analyticsRecorderOf(vitrine.app)?.buffer.flush();
    const hitsWritten = analyticsRecorderOf(vitrine.app)?.buffer.written ?? 0;

    // Place order: warm up, then place about DURATION_S seconds' worth of orders at the warm-up's rate.
    const warmup = await placeOrders(vitrine.url, await prepareCarts(vitrine.url, ORDER_WARMUP));
    if (warmup.non2xx || warmup.errors)
      throw new Error(`placing orders failed while warming up: non-2xx ${warmup.non2xx}, errors ${warmup.errors}`);
    const orderCount = Math.min(20_000, Math.max(1_000, Math.round(warmup.requestsPerSecond * DURATION_S)));
    const placeOrder = await placeOrders(vitrine.url, await prepareCarts(vitrine.url, orderCount));
    // One order at a time: what an order costs without waiting behind others.
    const singleOrders = await placeOrders(vitrine.url, await prepareCarts(vitrine.url, orderCount), 1);
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
      const bytes = Buffer.from(await (await fetch(vitrine.url + src)).arrayBuffer());
      jsRaw += bytes.length;
      jsGzip += gzipSync(bytes, { level: 9 }).length;
    }

    const row = (name: string, f: Figures, ratio?: { value: number; of: string }) =>
      `${name.padEnd(40)} ${fmt(f.requestsPerSecond).padStart(9)} req/s  p99 ${fmt(f.p99Ms, 1).padStart(7)} ms${
        ratio === undefined ? '' : `  ${fmt(ratio.value, 2).padStart(5)}× ${ratio.of}`
      }${f.non2xx || f.errors ? `  (non-2xx ${f.non2xx}, errors ${f.errors})` : ''}`;
    const goal = (met: boolean, text: string) => `  goal ${text}: ${met ? 'met' : 'NOT met'}`;
    const pdpJsKb = jsGzip / 1000;
    console.log(`\nVitrine benchmark — Node ${process.versions.node}, SQLite, loopback, autocannon in this process`);
    console.log(`${DURATION_S} s per run; each comparison ${ROUNDS} rounds per side, interleaved with its baseline\n`);
    console.log(
      `PDP ${PDP_PATH}: ${fmt(html.length)} bytes of HTML (${fmt(gzipped.body.length)} gzipped), ${PAGE_CONNECTIONS} connections, a returning visitor (crumb cookie)`,
    );
    const ratio = (subject: Figures, baseline: Figures, of: string) => ({
      value: subject.requestsPerSecond / baseline.requestsPerSecond,
      of,
    });
    const pageRows = (figures: Record<'raw' | 'rawSame' | 'vitrine', Figures>, what: string) => {
      console.log(row('  raw node:http, same body', figures.raw));
      console.log(row('  raw node:http, same headers and body', figures.rawSame));
      console.log(row(`  Vitrine, cached, ${what}`, figures.vitrine, ratio(figures.vitrine, figures.raw, 'raw')));
      console.log(
        `${''.padEnd(78)}${fmt(figures.vitrine.requestsPerSecond / figures.rawSame.requestsPerSecond, 2).padStart(5)}× raw, same headers`,
      );
    };
    pageRows(cached, 'no compression asked');
    console.log(goal(cached.vitrine.requestsPerSecond / cached.raw.requestsPerSecond >= 0.95, '≥ 0.95× raw'));
    pageRows(cachedGzip, 'Accept-Encoding: gzip');
    console.log(
      goal(
        cachedGzip.vitrine.requestsPerSecond / cachedGzip.raw.requestsPerSecond >= 0.9 &&
          cachedGzip.vitrine.p99Ms <= 10,
        '≥ 0.9× raw, p99 ≤ 10 ms',
      ),
    );
    console.log(row(`  raw node:http, gzip`, gzipSelling.raw));
    console.log(
      row(
        `  Vitrine, gzip, stock changing ${STOCK_CHANGES_PER_S}×/s`,
        gzipSelling.vitrine,
        ratio(gzipSelling.vitrine, gzipSelling.raw, 'raw'),
      ),
    );
    console.log(
      `  stock changes made: ${fmt(stockChanges)} (each drops the page; the next request renders it: the cost of live stock)`,
    );
    console.log(row('  Vitrine, page cache off', uncached, ratio(uncached, cached.raw, 'raw')));
    console.log(`\nAdd to cart (POST entries, new cart each), ${CART_CONNECTIONS} connections`);
    console.log(row('  raw node:http GET of the PDP', addToCart.raw));
    console.log(row('  Vitrine on SQLite', addToCart.vitrine, ratio(addToCart.vitrine, addToCart.raw, 'raw GET')));
    console.log(
      goal(
        addToCart.vitrine.p99Ms <= 25 && addToCart.vitrine.requestsPerSecond / addToCart.raw.requestsPerSecond >= 0.3,
        'p99 ≤ 25 ms, ≥ 0.3× raw GET',
      ),
    );
    console.log(
      `\nPlace order (POST checkout/orders, own cart and idempotency key each, test provider), ${ORDER_CONNECTIONS} connections, ${fmt(orderCount)} orders`,
    );
    console.log(row('  raw node:http, same request', orderBaseline));
    console.log(row('  Vitrine on SQLite', placeOrder, ratio(placeOrder, orderBaseline, 'raw')));
    console.log(row('  Vitrine on SQLite, 1 connection', singleOrders));
    console.log(
      `  non-2xx answers: ${placeOrder.non2xx + singleOrders.non2xx} (errors ${placeOrder.errors + singleOrders.errors})`,
    );
    console.log(goal(placeOrder.p99Ms <= 50, `p99 ≤ 50 ms at ${ORDER_CONNECTIONS} connections`));
    console.log(
      `\nPage view (POST census/RecordHit, buffered and written in batches), ${CART_CONNECTIONS} connections`,
    );
    console.log(row('  Vitrine on SQLite', recordHit));
    console.log(`  events written: ${fmt(hitsWritten)}`);
    console.log(
      `\nJavaScript loaded by the PDP: ${scripts.length} file(s), ${fmt(jsRaw)} bytes, ${fmt(jsGzip)} bytes gzipped (level 9)`,
    );
    console.log(goal(pdpJsKb <= 70, '≤ 70 KB on the PDP') + '\n');
  } finally {
    await vitrine.close();
    site.dispose();
  }
}

await main();
