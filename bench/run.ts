/**
 * `npm run bench` (after `vite build`): prints figures, asserts nothing. Loopback only, short runs.
 *
 * 1. Product page throughput: Vitrine (page cache on, then off) ÷ a raw node:http server sending the same bytes,
 *    all measured in this run on this machine, so the ratio is what matters.
 * 2. Add to cart on SQLite: requests/second and p99 latency at 50 connections (each request a new cart + entry).
 * 3. Bytes of JavaScript the product page loads, gzipped.
 *
 * `tsx bench/inject.ts` times the same page through `app.inject` (no sockets), for profiling the server's own work.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';

// As `vitrine serve` does: React's production build unless NODE_ENV says otherwise (read when React first loads,
// hence the dynamic import below).
if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
const { startServer } = await import('../test/browser/server');

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const PAGE_CONNECTIONS = 10;
const CART_CONNECTIONS = 50;
const PDP_PATH = '/shop/p/speckled-mug';

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function measure(options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ duration: DURATION_S, ...options });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function rawServer(body: Buffer, contentType: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const vitrine = await startServer({ cartRateLimitPerMinute: 1_000_000_000 });
  try {
    const pdpUrl = vitrine.url + PDP_PATH;
    const response = await fetch(pdpUrl);
    const html = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${PDP_PATH} answered ${response.status}`);
    const raw = await rawServer(html, response.headers.get('content-type') ?? 'text/html; charset=utf-8');

    // Warm both (JIT, caches) before measuring.
    await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS, duration: 1 });
    await measure({ url: raw.url, connections: PAGE_CONNECTIONS, duration: 1 });

    const baseline = await measure({ url: raw.url, connections: PAGE_CONNECTIONS });
    const cached = await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS });
    vitrine.app.pageCache.enabled = false;
    const uncached = await measure({ url: pdpUrl, connections: PAGE_CONNECTIONS });
    vitrine.app.pageCache.enabled = true;
    raw.server.close();

    const addToCart = await measure({
      url: `${vitrine.url}/api/commerce/shopping-cart/entries`,
      connections: CART_CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ itemId: 'house-blend', sku: 'HB-250-WB', quantity: 1, additionalFields: '' }),
    });

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
    console.log(`\nJavaScript loaded by the PDP: ${scripts.length} file(s), ${fmt(jsRaw)} bytes, ${fmt(jsGzip)} bytes gzipped (level 9)\n`);
  } finally {
    await vitrine.close();
  }
}

await main();
