/**
 * What bench/run.ts and bench/writes.ts share: the server under test (React's production build, as `vitrine serve`
 * runs it), autocannon runs and their figures, the raw node:http baselines, and the place-order run (its carts
 * prepared through the API, each order with its own idempotency key).
 *
 * autocannon runs in a process of its own (./loadClient.ts), so that this process's CPU time around a run is the
 * server's: each run's figures carry it, the database's CPU (PostgreSQL: its backends for the run's database) and
 * the statements, round trips and pool checkouts the server made (./queryCounter.ts), to divide by its requests.
 */
import { randomBytes } from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { CRUMB_COOKIE, CRUMB_HEADER } from '../src/core/crumb';
import type { LoadResult, LoadRun } from './loadClient';
import {
  type CountedEngine,
  countsSince,
  installQueryCounter,
  noQueries,
  queryCounts,
  type QueryCounts,
} from './queryCounter';

/** What the runs add to bench/autocannon.d.ts's options (sent to ./loadClient: values only, no functions). */
export interface MeasureOptions extends autocannon.Options {
  amount?: number;
  /** How often autocannon samples (ms, default 1000): it also checks only then whether a fixed-amount run is over. */
  sampleInt?: number;
  /** The engine whose statements the run counts (none: a baseline), not sent to the load generator. */
  engine?: CountedEngine;
  /** The PostgreSQL database whose backends' CPU the run counts (not sent to the load generator). */
  database?: string;
}

// As `vitrine serve` does: React's production build unless NODE_ENV says otherwise (read when React first loads,
// hence the dynamic import below).
if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
/** The PostgreSQL server the benchmark makes its databases on (each fresh, dropped after): BENCH_DATABASE_URL. */
export const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// test/support/engines.ts makes them from TEST_DATABASE_URL, read when it loads.
process.env.TEST_DATABASE_URL = BENCH_DATABASE_URL;
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

/** Totals over a run (or the runs of a comparison); per request: divide by `requests`. */
export interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** This process's CPU (user + system) while the run lasted, µs: the server's, the load coming from ./loadClient. */
  cpuUs: number;
  /** The CPU of the PostgreSQL backends serving the run's `database`, µs (0 on SQLite). */
  dbCpuUs: number;
  /** What the server asked of its database (./queryCounter). */
  queries: QueryCounts;
}

installQueryCounter();

let loadClient: ChildProcess | undefined;
let nextRun = 0;
const pending = new Map<number, (result: LoadResult) => void>();

/** Runs one autocannon run in ./loadClient's process (started on first use; it exits with this one). */
function runLoad(job: Omit<LoadRun, 'id'>): Promise<LoadResult> {
  if (loadClient === undefined) {
    loadClient = fork(join(import.meta.dirname, 'loadClient.ts'), { stdio: 'inherit' });
    // It keeps this process alive only while a run is under way (its channel, below): the benchmark then exits, and
    // the load generator with it (its channel closes).
    loadClient.unref();
    loadClient.on('message', (message: LoadResult) => {
      const settle = pending.get(message.id);
      pending.delete(message.id);
      if (pending.size === 0) loadClient?.channel?.unref();
      settle?.(message);
    });
  }
  loadClient.channel?.ref();
  const id = nextRun++;
  return new Promise<LoadResult>((resolve) => {
    pending.set(id, resolve);
    loadClient!.send({ id, ...job } satisfies LoadRun);
  });
}

/** CPU seconds of each PostgreSQL backend serving `database` now (/proc: the server runs on this machine). */
export function backendSeconds(database: string): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const title = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      // A backend's title: "postgres: 15/main: user database 127.0.0.1(port) state".
      if (!title.startsWith('postgres:') || !title.includes(` ${database} `)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds.set(Number(name), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // Gone meanwhile.
    }
  }
  return seconds;
}

export async function measure(
  { engine, database, ...options }: MeasureOptions,
  orders?: LoadRun['orders'],
): Promise<Figures> {
  const backendsBefore = database === undefined ? undefined : backendSeconds(database);
  const queriesBefore = engine === undefined ? undefined : queryCounts(engine);
  const cpuBefore = process.cpuUsage();
  // A run of a fixed number of requests is seen to be over at autocannon's next sample only: every 10 ms rather than
  // every second, or its duration (and so its rate) would count up to a second of waiting after the last answer.
  const result = await runLoad({
    options: { duration: DURATION_S, ...(options.amount !== undefined ? { sampleInt: 10 } : {}), ...options },
    ...(orders ? { orders } : {}),
  });
  const cpu = process.cpuUsage(cpuBefore);
  const queries =
    engine === undefined || queriesBefore === undefined ? noQueries() : countsSince(engine, queriesBefore);
  let dbCpuUs = 0;
  if (database !== undefined && backendsBefore !== undefined) {
    for (const [pid, seconds] of backendSeconds(database)) dbCpuUs += (seconds - (backendsBefore.get(pid) ?? 0)) * 1e6;
  }
  if (result.error !== undefined) throw new Error(`the load generator failed: ${result.error}`);
  return {
    requestsPerSecond: result.requests / result.durationS,
    p99Ms: result.p99Ms,
    non2xx: result.non2xx,
    errors: result.errors,
    requests: result.requests,
    cpuUs: cpu.user + cpu.system,
    dbCpuUs,
    queries,
  };
}

/** Per request: µs of the server's CPU, of the database's, and what it asked of the database. */
export function perRequest(f: Figures): {
  cpuUs: number;
  dbCpuUs: number;
  statements: number;
  transactionControl: number;
  roundTrips: number;
  checkouts: number;
  heldMs: number;
  queryMs: number;
} {
  const n = Math.max(1, f.requests);
  return {
    cpuUs: f.cpuUs / n,
    dbCpuUs: f.dbCpuUs / n,
    statements: f.queries.statements / n,
    transactionControl: f.queries.transactionControl / n,
    roundTrips: f.queries.roundTrips / n,
    checkouts: f.queries.checkouts / n,
    heldMs: f.queries.heldMs / n,
    queryMs: f.queries.queryMs / n,
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
  const combine = (figures: Figures[]): Figures => {
    const sum = (of: (f: Figures) => number) => figures.reduce((total, f) => total + of(f), 0);
    return {
      requestsPerSecond: sum((f) => f.requestsPerSecond) / figures.length,
      p99Ms: Math.max(...figures.map((f) => f.p99Ms)),
      non2xx: sum((f) => f.non2xx),
      errors: sum((f) => f.errors),
      requests: sum((f) => f.requests),
      cpuUs: sum((f) => f.cpuUs),
      dbCpuUs: sum((f) => f.dbCpuUs),
      queries: Object.fromEntries(
        Object.keys(figures[0]!.queries).map((key) => [key, sum((f) => f.queries[key as keyof QueryCounts])]),
      ) as unknown as QueryCounts,
    };
  };
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

/** A PostgreSQL URL's database name (whose backends a run's CPU counts), undefined for SQLite. */
export const postgresDatabaseOf = (url: string | undefined): string | undefined =>
  url !== undefined && /^postgres(ql)?:/.test(url) ? decodeURIComponent(new URL(url).pathname.slice(1)) : undefined;

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
export function placeOrders(
  baseUrl: string,
  carts: string[],
  connections = ORDER_CONNECTIONS,
  counted: { engine?: CountedEngine; database?: string | undefined } = {},
): Promise<Figures> {
  return measure(
    {
      url: baseUrl,
      connections,
      amount: carts.length,
      ...(counted.engine !== undefined ? { engine: counted.engine } : {}),
      ...(counted.database !== undefined ? { database: counted.database } : {}),
    },
    {
      path: '/api/commerce/checkout/orders',
      carts,
      run: randomBytes(6).toString('hex'),
      crumbHeader: CRUMB_HEADER,
      crumb: BENCH_CRUMB,
      details: ORDER_DETAILS,
    },
  );
}
