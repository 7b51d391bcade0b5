/**
 * `npm run bench` (after `vite build`): prints figures, asserts nothing. Loopback only, short runs.
 *
 * 1. Product page throughput: Vitrine (page cache on, then off) ÷ a raw node:http server sending the same bytes,
 *    all measured in this run on this machine, so the ratio is what matters.
 * 2. Add to cart on SQLite: requests/second and p99 latency at 50 connections (each request a new cart + entry).
 * 3. Place order on SQLite, 50 connections: each request places the order of its own prepared cart (one unit of a
 *    physical product with counted stock) with its own idempotency key, through the test payment provider; against a
 *    raw node:http server that reads the same request and answers the same bytes; then one connection (no queueing).
 * 4. Bytes of JavaScript the product page loads, gzipped.
 *
 * `tsx bench/inject.ts` times the same page through `app.inject` (no sockets), for profiling the server's own work.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { CRUMB_COOKIE, CRUMB_HEADER } from '../src/core/crumb';
import { analyticsRecorderOf } from '../src/server/routes/analytics';

/** What the place-order run adds to bench/autocannon.d.ts's options: a fixed number of requests, each built anew. */
interface RequestParams {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
interface MeasureOptions extends autocannon.Options {
  amount?: number;
  requests?: { method?: string; path?: string; setupRequest?: (request: RequestParams) => RequestParams }[];
}

// As `vitrine serve` does: React's production build unless NODE_ENV says otherwise (read when React first loads,
// hence the dynamic import below).
if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
const { DEMO_SITE_FILE, startServer } = await import('../test/browser/server');

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const PAGE_CONNECTIONS = 10;
const CART_CONNECTIONS = 50;
const PDP_PATH = '/shop/p/speckled-mug';
/** Analytics counts no bots: the benchmark's page views come from a desktop browser. */
const BENCH_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ORDER_CONNECTIONS = 50;
/** Orders placed before measuring (JIT, caches); the measured run places about BENCH_SECONDS' worth. */
const ORDER_WARMUP = 300;
/** A physical product with counted stock; the bench's copy of the demo site gives it enough for every order. */
const ORDER_LINE = { itemId: 'coffee-scoop', sku: 'SCOOP', quantity: 1, additionalFields: '' };
const ORDER_STOCK = 1_000_000;
const ORDER_DETAILS = {
  email: 'bench@example.com',
  shippingAddress: { firstName: 'Ada', lastName: 'Lovelace', address1: '1 Main Street', city: 'New York', country: 'US', region: 'NY', postalCode: '10001' },
  shippingOptionId: 'standard',
  payment: { cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' },
};

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function measure(options: MeasureOptions): Promise<Figures> {
  const result = await autocannon({ duration: DURATION_S, ...options });
  // A run of a fixed number of requests ends within a second: the per-second average would count that part second
  // as a whole one, so the rate is the completed requests over the time taken.
  const { requests, duration } = result as autocannon.Result & { requests: { total: number }; duration: number };
  return {
    requestsPerSecond: options.amount !== undefined ? requests.total / duration : result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function rawServer(body: Buffer, contentType: string, status = 200): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    // A POST's body is read before answering, as the real server must.
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': contentType, 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The demo site with ORDER_STOCK units of ORDER_LINE's variant (the demo's own stock is a few dozen), in a temp folder. */
function benchSiteFile(): { file: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const site = JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as { products: { variants?: { sku: string; stock?: unknown }[] }[] };
  const variant = site.products.flatMap((p) => p.variants ?? []).find((v) => v.sku === ORDER_LINE.sku);
  if (!variant) throw new Error(`the demo site has no variant ${ORDER_LINE.sku}`);
  variant.stock = { qtyInStock: ORDER_STOCK };
  writeFileSync(join(dir, 'site.json'), JSON.stringify(site));
  symlinkSync(join(DEMO_SITE_FILE, '..', 'images'), join(dir, 'images'));
  return { file: join(dir, 'site.json'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a page's script sends on every write (src/server/crumb.ts): the crumb cookie, and its value in the header. */
const BENCH_CRUMB = 'YmVuY2gtY3J1bWItMDAwMQ';
const CRUMB_COOKIE_PAIR = `${CRUMB_COOKIE}=${BENCH_CRUMB}`;
const CRUMB_HEADERS = { [CRUMB_HEADER]: BENCH_CRUMB, cookie: CRUMB_COOKIE_PAIR };
/**
 * Page runs send what a browser sends from its second page on: the crumb cookie its first page set. (A first view,
 * or a client without cookies, is also given a crumb cookie each time: about a quarter fewer cached pages per second.)
 */
const RETURNING_VISITOR = { cookie: CRUMB_COOKIE_PAIR };

/** `count` new carts through the API, each holding ORDER_LINE; their cookies ('CART=…'). */
async function prepareCarts(baseUrl: string, count: number): Promise<string[]> {
  const carts: string[] = [];
  const worker = async () => {
    while (carts.length < count) {
      const response = await fetch(`${baseUrl}/api/commerce/shopping-cart/entries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...CRUMB_HEADERS },
        body: JSON.stringify(ORDER_LINE),
      });
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith('CART='));
      if (response.status !== 200 || !cookie) throw new Error(`add to cart answered ${response.status}: ${await response.text()}`);
      carts.push(`${cookie.slice(0, cookie.indexOf(';'))}; ${CRUMB_COOKIE_PAIR}`);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return carts.slice(0, count);
}

/** Places one order per cart (all of them, `connections` at a time), each with its own idempotency key. */
function placeOrders(baseUrl: string, carts: string[], connections = ORDER_CONNECTIONS): Promise<Figures> {
  const run = randomBytes(6).toString('hex');
  let next = 0;
  return measure({
    url: baseUrl,
    connections,
    amount: carts.length,
    requests: [
      {
        method: 'POST',
        path: '/api/commerce/checkout/orders',
        setupRequest: (request) => {
          const i = next++;
          const cart = carts[i];
          if (cart === undefined) throw new Error(`more requests than the ${carts.length} carts prepared`);
          return {
            ...request,
            headers: { ...request.headers, 'content-type': 'application/json', [CRUMB_HEADER]: BENCH_CRUMB, cookie: cart },
            body: JSON.stringify({ idempotencyKey: `bench-${run}-${i.toString().padStart(8, '0')}`, ...ORDER_DETAILS }),
          };
        },
      },
    ],
  });
}

async function main(): Promise<void> {
  const site = benchSiteFile();
  // No cap on requests per keep-alive connection here: past it Node answers Connection: close, which browsers and
  // proxies honour by opening a new connection, but autocannon keeps sending on the old one and gets 503s.
  const vitrine = await startServer({ siteFile: site.file, cartRateLimitPerMinute: 1_000_000_000, httpLimits: { maxRequestsPerSocket: 0 } }).catch((error: unknown) => {
    site.dispose();
    throw error;
  });
  try {
    const pdpUrl = vitrine.url + PDP_PATH;
    const response = await fetch(pdpUrl);
    const html = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${PDP_PATH} answered ${response.status}`);
    const raw = await rawServer(html, response.headers.get('content-type') ?? 'text/html; charset=utf-8');

    // Warm both (JIT, caches) before measuring.
    await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS, duration: 1, headers: RETURNING_VISITOR });
    await measure({ url: raw.url, connections: PAGE_CONNECTIONS, duration: 1 });

    const baseline = await measure({ url: raw.url, connections: PAGE_CONNECTIONS });
    const cached = await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS, headers: RETURNING_VISITOR });
    vitrine.app.pageCache.enabled = false;
    const uncached = await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS, headers: RETURNING_VISITOR });
    vitrine.app.pageCache.enabled = true;
    raw.server.close();

    const addToCart = await measure({
      url: `${vitrine.url}/api/commerce/shopping-cart/entries`,
      connections: CART_CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CRUMB_HEADERS },
      body: JSON.stringify({ itemId: 'house-blend', sku: 'HB-250-WB', quantity: 1, additionalFields: '' }),
    });

    // A page view (RecordHit) as the measurement module sends it: answered 202 at once, written in batches.
    const recordHit = await measure({
      url: `${vitrine.url}/api/census/RecordHit`,
      connections: CART_CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BENCH_BROWSER },
      body: new URLSearchParams({
        event: 'RecordHit',
        data: JSON.stringify({ pagePath: PDP_PATH, pageType: 50, websiteId: 'demo', userAgent: BENCH_BROWSER, viewportWidth: 1280, viewportHeight: 900 }),
        ss_cvr: `11111111-2222-4333-8444-555555555555|${Date.now()}|${Date.now()}|${Date.now()}|1`,
      }).toString(),
    });
    await analyticsRecorderOf(vitrine.app)?.buffer.flush();
    const hitsWritten = analyticsRecorderOf(vitrine.app)?.buffer.written ?? 0;

    // Place order: warm up, then place about DURATION_S seconds' worth of orders at the warm-up's rate.
    const warmup = await placeOrders(vitrine.url, await prepareCarts(vitrine.url, ORDER_WARMUP));
    if (warmup.non2xx || warmup.errors) throw new Error(`placing orders failed while warming up: non-2xx ${warmup.non2xx}, errors ${warmup.errors}`);
    const orderCount = Math.min(20_000, Math.max(1_000, Math.round(warmup.requestsPerSecond * DURATION_S)));
    const placeOrder = await placeOrders(vitrine.url, await prepareCarts(vitrine.url, orderCount));
    // One order at a time: what an order costs without waiting behind others.
    const singleOrders = await placeOrders(vitrine.url, await prepareCarts(vitrine.url, orderCount), 1);
    const orderBody = Buffer.from(JSON.stringify({ order: { id: 'x'.repeat(22), number: 1_000 }, orderUrl: `/checkout/order/${'x'.repeat(22)}` }));
    const rawOrders = await rawServer(orderBody, 'application/json; charset=utf-8', 201);
    const orderBaseline = await measure({
      url: rawOrders.url,
      connections: ORDER_CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/json', [CRUMB_HEADER]: BENCH_CRUMB, cookie: `CART=${'x'.repeat(22)}; ${CRUMB_COOKIE_PAIR}` },
      body: JSON.stringify({ idempotencyKey: `bench-raw-${'0'.repeat(12)}`, ...ORDER_DETAILS }),
    });
    rawOrders.server.close();

    const scripts = [...html.toString('utf8').matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]!);
    let jsRaw = 0;
    let jsGzip = 0;
    for (const src of scripts) {
      const bytes = Buffer.from(await (await fetch(vitrine.url + src)).arrayBuffer());
      jsRaw += bytes.length;
      jsGzip += gzipSync(bytes, { level: 9 }).length;
    }

    const row = (name: string, f: Figures, ratio?: number) =>
      `${name.padEnd(36)} ${fmt(f.requestsPerSecond).padStart(9)} req/s  p99 ${fmt(f.p99Ms, 1).padStart(6)} ms${
        ratio === undefined ? '' : `  ${fmt(ratio * 100, 1).padStart(5)} % of raw`
      }${f.non2xx || f.errors ? `  (non-2xx ${f.non2xx}, errors ${f.errors})` : ''}`;
    console.log(`\nVitrine benchmark — ${DURATION_S} s per run, loopback, Node ${process.versions.node}, SQLite\n`);
    console.log(`PDP ${PDP_PATH}: ${fmt(html.length)} bytes of HTML, ${PAGE_CONNECTIONS} connections`);
    console.log(row('  raw node:http, same bytes', baseline));
    console.log(row('  Vitrine, page cache on', cached, cached.requestsPerSecond / baseline.requestsPerSecond));
    console.log(row('  Vitrine, page cache off', uncached, uncached.requestsPerSecond / baseline.requestsPerSecond));
    console.log(`\nAdd to cart (POST entries, new cart each), ${CART_CONNECTIONS} connections`);
    console.log(row('  Vitrine on SQLite', addToCart));
    console.log(`\nPage view (POST census/RecordHit, buffered and written in batches), ${CART_CONNECTIONS} connections`);
    console.log(row('  Vitrine on SQLite', recordHit));
    console.log(`  events written: ${fmt(hitsWritten)}`);
    console.log(`\nPlace order (POST checkout/orders, own cart and idempotency key each, test provider), ${ORDER_CONNECTIONS} connections, ${fmt(orderCount)} orders`);
    console.log(row('  raw node:http, same request', orderBaseline));
    console.log(row('  Vitrine on SQLite', placeOrder, placeOrder.requestsPerSecond / orderBaseline.requestsPerSecond));
    console.log(row('  Vitrine on SQLite, 1 connection', singleOrders));
    console.log(
      `  non-2xx answers: ${placeOrder.non2xx + singleOrders.non2xx} (errors ${placeOrder.errors + singleOrders.errors}); ` +
        `p99 goal 50 ms at ${ORDER_CONNECTIONS} connections: ${placeOrder.p99Ms <= 50 ? 'met' : 'NOT met'}`,
    );
    console.log(`\nJavaScript loaded by the PDP: ${scripts.length} file(s), ${fmt(jsRaw)} bytes, ${fmt(jsGzip)} bytes gzipped (level 9)\n`);
  } finally {
    await vitrine.close();
    site.dispose();
  }
}

await main();
