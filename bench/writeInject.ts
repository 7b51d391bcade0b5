/**
 * `tsx bench/writeInject.ts [order|cart] [concurrency] [count]`: the write path through `app.inject` (no sockets, no
 * autocannon in the process), `concurrency` clients each waiting for its answer before sending the next request, as
 * autocannon's connections do. Prints the rate, latency percentiles, the event loop's worst delays and the SQL
 * statements run per request. For profiling the server's own work under concurrency:
 * `PROFILE=order.cpuprofile tsx bench/writeInject.ts order 50 2000` (the measured requests only).
 *
 * Also per request: the process's CPU time and the bytes it wrote (`wchar` of /proc/self/io: on SQLite the WAL's
 * frames, which grow with every table and index a write touches) — both far less sensitive to the machine's load than
 * the rate. `BENCH_SQL='drop index x; …'` runs SQL on the fresh SQLite database before the warm-up: an A/B of an index
 * or a trigger without a migration.
 */
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryCounts } from './queryCounter';

if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
/** BENCH_ENGINE=postgres: a fresh database on BENCH_DATABASE_URL (default the test server), as bench/run.ts makes. */
const engine = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
const { backendSeconds, DEMO_SITE_FILE, postgresDatabaseOf, startServer } = await import('./harness');
const { CRUMB_COOKIE, CRUMB_HEADER } = await import('../src/core/crumb');

const mode = process.argv[2] === 'cart' ? 'cart' : 'order';
const concurrency = Number(process.argv[3] ?? 50);
const count = Number(process.argv[4] ?? 2000);
const WARMUP = 300;

const CRUMB = 'YmVuY2gtY3J1bWItMDAwMQ';
const CRUMB_HEADERS = { [CRUMB_HEADER]: CRUMB, cookie: `${CRUMB_COOKIE}=${CRUMB}` };
const ORDER_LINE = { itemId: 'coffee-scoop', sku: 'SCOOP', quantity: 1, additionalFields: '' };
const CART_LINE = { itemId: 'house-blend', sku: 'HB-250-WB', quantity: 1, additionalFields: '' };
const ORDER_DETAILS = {
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

// Statements run, counted by ./queryCounter as bench/run.ts counts them (installed when ./harness loads, before any
// connection is opened: a PostgreSQL client keeps the `query` it had when it connected, src/platform/db/postgres/
// namedStatements.ts). STATEMENTS=1 also times them by SQL text, wrapped here before the server's pool connects too.
const timed = new Map<string, { n: number; us: number }>();
const timeStatement = <T>(source: string, run: () => T): T => {
  const t = performance.now();
  const done = () => {
    const entry = timed.get(source) ?? { n: 0, us: 0 };
    entry.n++;
    entry.us += (performance.now() - t) * 1000;
    timed.set(source, entry);
  };
  let result: T;
  try {
    result = run();
  } catch (error) {
    done();
    throw error;
  }
  if (result instanceof Promise) void result.then(done, done);
  else done();
  return result;
};
if (process.env.STATEMENTS) {
  const SQLite = (await import('better-sqlite3')).default;
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = proto[name]!;
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      return timeStatement(this.source, () => original.apply(this, args));
    };
  }
  const pg = (await import('pg')).default;
  type Query = (this: unknown, ...args: unknown[]) => unknown;
  const clientProto = pg.Client.prototype as unknown as { query: Query };
  const query = clientProto.query;
  clientProto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const source = (typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text) ?? '';
    return timeStatement(source, () => query.apply(this, args));
  };
}

// The demo site with enough stock of the ordered variant (as bench/run.ts does).
const dir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
const site = JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as {
  products: { variants?: { sku: string; stock?: unknown }[] }[];
};
site.products.flatMap((p) => p.variants ?? []).find((v) => v.sku === ORDER_LINE.sku)!.stock = { qtyInStock: 1_000_000 };
writeFileSync(join(dir, 'site.json'), JSON.stringify(site));
symlinkSync(join(DEMO_SITE_FILE, '..', 'images'), join(dir, 'images'));
const server = await startServer({
  engine,
  siteFile: join(dir, 'site.json'),
  cartRateLimitPerMinute: 1_000_000_000,
});
const app = server.app;
if (process.env.BENCH_SQL && engine === 'sqlite') {
  const SQLite = (await import('better-sqlite3')).default;
  const direct = new SQLite(server.databaseUrl);
  direct.exec(process.env.BENCH_SQL);
  direct.close();
} else if (process.env.BENCH_SQL) {
  const pg = (await import('pg')).default;
  const direct = new pg.Client(server.databaseUrl);
  await direct.connect();
  await direct.query(process.env.BENCH_SQL);
  await direct.end();
}
const database = postgresDatabaseOf(server.databaseUrl);
/** CPU µs of the PostgreSQL backends serving the run's database so far (0 on SQLite). */
const databaseCpuUs = (): number =>
  database === undefined ? 0 : [...backendSeconds(database).values()].reduce((a, b) => a + b, 0) * 1e6;
/** Bytes this process has written so far (Linux). */
const bytesWritten = (): number => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);

async function addToCart(cookie: string = CRUMB_HEADERS.cookie, line = CART_LINE): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/commerce/shopping-cart/entries',
    headers: { ...CRUMB_HEADERS, cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(line),
  });
  if (res.statusCode !== 200) throw new Error(`add to cart answered ${res.statusCode}: ${res.body}`);
  const cart = res.cookies.find((c) => c.name === 'CART')!;
  return `CART=${cart.value}; ${CRUMB_HEADERS.cookie}`;
}

let keys = 0;
async function order(cart: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/commerce/checkout/orders',
    headers: { ...CRUMB_HEADERS, cookie: cart, 'content-type': 'application/json' },
    payload: JSON.stringify({
      idempotencyKey: `inject-${process.pid}-${(keys++).toString().padStart(8, '0')}`,
      ...ORDER_DETAILS,
    }),
  });
  if (res.statusCode !== 201) throw new Error(`place order answered ${res.statusCode}: ${res.body}`);
}

/** `n` requests, `clients` at a time; latencies in ms. */
async function run(
  n: number,
  clients: number,
  starting?: () => Promise<void>,
): Promise<{ ms: number; latencies: number[]; statements: number; cpuUs: number; dbCpuUs: number; written: number }> {
  const carts: string[] = [];
  if (mode === 'order') for (let i = 0; i < n; i++) carts.push(await addToCart(CRUMB_HEADERS.cookie, ORDER_LINE));
  await starting?.();
  const latencies: number[] = [];
  let next = 0;
  const before = queryCounts(engine).statements;
  const cpuBefore = process.cpuUsage();
  const writtenBefore = bytesWritten();
  const dbCpuBefore = databaseCpuUs();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        if (mode === 'order') await order(carts[i]!);
        else await addToCart();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    ms,
    latencies,
    statements: queryCounts(engine).statements - before,
    cpuUs: cpu.user + cpu.system,
    dbCpuUs: databaseCpuUs() - dbCpuBefore,
    written: bytesWritten() - writtenBefore,
  };
}

await run(WARMUP, concurrency);
// PROFILE=file.cpuprofile: a CPU profile of the measured requests only (not the carts' preparation nor the warm-up).
const profile = process.env.PROFILE;
const session = profile ? new Session() : undefined;
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    session!.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))),
  );
const delay = monitorEventLoopDelay({ resolution: 5 });
const result = await run(count, concurrency, async () => {
  // STATEMENTS=1 times the measured requests' statements only (not the migrations, the warm-up nor the carts made).
  timed.clear();
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
  }
  delay.enable();
});
delay.disable();
if (session) writeFileSync(profile!, JSON.stringify(((await post('Profiler.stop')) as { profile: unknown }).profile));
const sorted = result.latencies.sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1);
console.log(
  `${mode} ×${count}, ${concurrency} at a time: ${((count / result.ms) * 1000).toFixed(0)} req/s, ${((result.ms * 1000) / count).toFixed(0)} µs each; ` +
    `latency p50 ${pct(50)} p99 ${pct(99)} max ${pct(100)} ms; event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} max ${(delay.max / 1e6).toFixed(1)} ms; ` +
    `${(result.statements / count).toFixed(1)} statements, ${(result.cpuUs / count).toFixed(0)} µs of CPU${
      engine === 'postgres' ? ` (PostgreSQL's: ${(result.dbCpuUs / count).toFixed(0)} µs)` : ''
    } and ${(result.written / count / 1024).toFixed(1)} KiB written per request`,
);
if (process.env.STATEMENTS) {
  for (const [source, { n, us }] of [...timed].sort((a, b) => b[1].us - a[1].us).slice(0, 25))
    console.log(`${(us / n).toFixed(1).padStart(7)} µs × ${n}  ${source.slice(0, 150)}`);
}
await server.close();
rmSync(dir, { recursive: true, force: true });
