/**
 * What bench/run.ts and bench/writes.ts share: the server under test (React's production build, as `vitrine serve`
 * runs it), autocannon runs and their figures, the raw node:http baselines, and the place-order run (its carts
 * prepared through the API, each order with its own idempotency key).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { CRUMB_COOKIE, CRUMB_HEADER } from '../src/core/crumb';

/** What the place-order run adds to bench/autocannon.d.ts's options: a fixed number of requests, each built anew. */
export interface RequestParams {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
export interface MeasureOptions extends autocannon.Options {
  amount?: number;
  /** How often autocannon samples (ms, default 1000): it also checks only then whether a fixed-amount run is over. */
  sampleInt?: number;
  requests?: { method?: string; path?: string; setupRequest?: (request: RequestParams) => RequestParams }[];
}

// As `vitrine serve` does: React's production build unless NODE_ENV says otherwise (read when React first loads,
// hence the dynamic import below).
if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
export const { DEMO_SITE_FILE, startServer } = await import('../test/browser/server');

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
/** Rounds of each side of a comparison (BENCH_ROUNDS), each DURATION_S long, interleaved with the other side's. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
export const ORDER_CONNECTIONS = 50;
/** Orders placed before measuring (JIT, caches); the measured run places about BENCH_SECONDS' worth. */
export const ORDER_WARMUP = 300;
/** A physical product with counted stock; the bench's copy of the demo site gives it enough for every order. */
export const ORDER_LINE = { itemId: 'coffee-scoop', sku: 'SCOOP', quantity: 1, additionalFields: '' };
export const ORDER_STOCK = 1_000_000;
export const ORDER_DETAILS = {
  email: 'bench@example.com',
  shippingAddress: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    address1: '1 Main Street',
    city: 'New York',
    country: 'US',
    region: 'NY',
    postalCode: '10001',
  },
  shippingOptionId: 'standard',
  payment: { cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' },
};

export interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function measure(options: MeasureOptions): Promise<Figures> {
  // A run of a fixed number of requests is seen to be over at autocannon's next sample only: every 10 ms rather than
  // every second, or its duration (and so its rate) would count up to a second of waiting after the last answer.
  const result = await autocannon({
    duration: DURATION_S,
    ...(options.amount !== undefined ? { sampleInt: 10 } : {}),
    ...options,
  });
  // The completed requests over the time taken: a run of a fixed number of requests ends within a second, which the
  // per-second average would count as a whole one.
  const { requests, duration } = result as autocannon.Result & { requests: { total: number }; duration: number };
  return {
    requestsPerSecond: requests.total / duration,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Several servers measured in turns, ROUNDS runs each, the order reversed every round (A B C, C B A, …) so that a load
 * changing during the run weighs on all alike. Rates are the mean over the rounds; p99 is the worst round's.
 */
export async function compare<K extends string>(sides: Record<K, MeasureOptions>): Promise<Record<K, Figures>> {
  const names = Object.keys(sides) as K[];
  const runs = new Map<K, Figures[]>(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) runs.get(name)!.push(await measure(sides[name]));
  }
  const combine = (figures: Figures[]): Figures => ({
    requestsPerSecond: figures.reduce((sum, f) => sum + f.requestsPerSecond, 0) / figures.length,
    p99Ms: Math.max(...figures.map((f) => f.p99Ms)),
    non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
    errors: figures.reduce((sum, f) => sum + f.errors, 0),
  });
  return Object.fromEntries(names.map((name) => [name, combine(runs.get(name)!)])) as Record<K, Figures>;
}

export async function rawServer(
  body: Buffer,
  headers: Record<string, string>,
  status = 200,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    // A POST's body is read before answering, as the real server must.
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { ...headers, 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The demo site with ORDER_STOCK units of ORDER_LINE's variant (the demo's own stock is a few dozen), in a temp folder. */
export function benchSiteFile(): { file: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const site = JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as {
    products: { variants?: { sku: string; stock?: unknown }[] }[];
  };
  const variant = site.products.flatMap((p) => p.variants ?? []).find((v) => v.sku === ORDER_LINE.sku);
  if (!variant) throw new Error(`the demo site has no variant ${ORDER_LINE.sku}`);
  variant.stock = { qtyInStock: ORDER_STOCK };
  writeFileSync(join(dir, 'site.json'), JSON.stringify(site));
  symlinkSync(join(DEMO_SITE_FILE, '..', 'images'), join(dir, 'images'));
  return { file: join(dir, 'site.json'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a page's script sends on every write (src/platform/http/crumb.ts): the crumb cookie, and its value in the header. */
export const BENCH_CRUMB = 'YmVuY2gtY3J1bWItMDAwMQ';
export const CRUMB_COOKIE_PAIR = `${CRUMB_COOKIE}=${BENCH_CRUMB}`;
export const CRUMB_HEADERS = { [CRUMB_HEADER]: BENCH_CRUMB, cookie: CRUMB_COOKIE_PAIR };
/** `count` new carts through the API, each holding ORDER_LINE; their cookies ('CART=…'). */
export async function prepareCarts(baseUrl: string, count: number): Promise<string[]> {
  const carts: string[] = [];
  const worker = async () => {
    while (carts.length < count) {
      const response = await fetch(`${baseUrl}/api/commerce/shopping-cart/entries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...CRUMB_HEADERS },
        body: JSON.stringify(ORDER_LINE),
      });
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith('CART='));
      if (response.status !== 200 || !cookie)
        throw new Error(`add to cart answered ${response.status}: ${await response.text()}`);
      carts.push(`${cookie.slice(0, cookie.indexOf(';'))}; ${CRUMB_COOKIE_PAIR}`);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return carts.slice(0, count);
}

/** Places one order per cart (all of them, `connections` at a time), each with its own idempotency key. */
export function placeOrders(baseUrl: string, carts: string[], connections = ORDER_CONNECTIONS): Promise<Figures> {
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
            headers: {
              ...request.headers,
              'content-type': 'application/json',
              [CRUMB_HEADER]: BENCH_CRUMB,
              cookie: cart,
            },
            body: JSON.stringify({ idempotencyKey: `bench-${run}-${i.toString().padStart(8, '0')}`, ...ORDER_DETAILS }),
          };
        },
      },
    ],
  });
}
