/**
 * `tsx bench/writes.ts`: only the write rows of bench/run.ts (issue 13), through real sockets with autocannon, on a
 * fresh SQLite copy of the bench's demo site: add to cart (a new cart per request) and place order (its own prepared
 * cart and idempotency key per request), each at 50 connections and at 1, in BENCH_ROUNDS rounds (the order reversed
 * each round). Each line also gives the server's own p99 (from a request's headers read to its answer sent: the rest of
 * autocannon's p99 is time spent before the server read the request, such as waiting for its connection's accept),
 * the event loop's worst delay (the longest time the process read no socket) and the largest size of the -wal file.
 * `PROFILE=dir` writes a CPU profile of each measured run into dir.
 */
import { subscribe } from 'node:diagnostics_channel';
import { Session } from 'node:inspector';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import {
  benchSiteFile,
  CRUMB_HEADERS,
  DURATION_S,
  type Figures,
  fmt,
  measure,
  ORDER_CONNECTIONS,
  ORDER_WARMUP,
  placeOrders,
  prepareCarts,
  ROUNDS,
  startServer,
} from './harness';

const CART_CONNECTIONS = 50;
const ADD_LINE = { itemId: 'house-blend', sku: 'HB-250-WB', quantity: 1, additionalFields: '' };
const PROFILE_DIR = process.env.PROFILE;

/** The server's own view of each answer: from its request's headers being read to its response being finished. */
const started = new WeakMap<object, number>();
let serverTimes: number[] = [];
subscribe('http.server.request.start', (message) =>
  started.set((message as { request: object }).request, performance.now()),
);
subscribe('http.server.response.finish', (message) => {
  const begun = started.get((message as { request: object }).request);
  if (begun !== undefined) serverTimes.push(performance.now() - begun);
});

interface Watched extends Figures {
  loopMaxMs: number;
  walMaxBytes: number;
  serverP99Ms: number;
}

/** The SQLite file's WAL size now (0 when there is none). */
const walBytes = (): number => {
  try {
    return statSync(`${databaseFile}-wal`).size;
  } catch {
    return 0;
  }
};

/**
 * Runs `work` with the event loop's delay and the WAL file's size watched (and profiled when PROFILE is set): its
 * figures, the worst delay and the largest WAL seen (sampled every 50 ms from a timer, so only between stalls).
 */
async function watched(label: string, work: () => Promise<Figures>): Promise<Watched> {
  const session = PROFILE_DIR ? new Session() : undefined;
  const post = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) =>
      session!.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let walMaxBytes = walBytes();
  const sampler = setInterval(() => (walMaxBytes = Math.max(walMaxBytes, walBytes())), 50);
  serverTimes = [];
  const figures = await work();
  clearInterval(sampler);
  const times = serverTimes.sort((a, b) => a - b);
  delay.disable();
  if (session) {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(join(PROFILE_DIR!, `${label}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
  return {
    ...figures,
    loopMaxMs: delay.max / 1e6,
    walMaxBytes: Math.max(walMaxBytes, walBytes()),
    serverP99Ms: times[Math.floor(times.length * 0.99)] ?? 0,
  };
}

const line = (name: string, f: Watched) =>
  `${name.padEnd(30)} ${fmt(f.requestsPerSecond).padStart(7)} req/s  p99 ${fmt(f.p99Ms, 1).padStart(7)} ms (server ${fmt(f.serverP99Ms, 1).padStart(7)} ms)  event-loop delay max ${fmt(f.loopMaxMs, 1).padStart(7)} ms  WAL max ${fmt(f.walMaxBytes / 1e6, 1).padStart(5)} MB` +
  (f.non2xx || f.errors ? `  (non-2xx ${f.non2xx}, errors ${f.errors})` : '');

const site = benchSiteFile();
const vitrine = await startServer({
  siteFile: site.file,
  cartRateLimitPerMinute: 1_000_000_000,
  httpLimits: { maxRequestsPerSocket: 0 },
});
const databaseFile = (await sql<{ name: string; file: string }>`pragma database_list`.execute(vitrine.db!)).rows.find(
  (r) => r.name === 'main',
)!.file;
try {
  const addToCart = (connections: number) =>
    measure({
      url: `${vitrine.url}/api/commerce/shopping-cart/entries`,
      connections,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CRUMB_HEADERS },
      body: JSON.stringify(ADD_LINE),
    });
  await measure({
    url: `${vitrine.url}/api/commerce/shopping-cart/entries`,
    connections: CART_CONNECTIONS,
    duration: 1,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CRUMB_HEADERS },
    body: JSON.stringify(ADD_LINE),
  });
  const warmup = await placeOrders(vitrine.url, await prepareCarts(vitrine.url, ORDER_WARMUP));
  if (warmup.non2xx || warmup.errors)
    throw new Error(`placing orders failed while warming up: non-2xx ${warmup.non2xx}, errors ${warmup.errors}`);
  const orderCount = Math.min(20_000, Math.max(1_000, Math.round(warmup.requestsPerSecond * DURATION_S)));

  console.log(
    `\nWrites on SQLite, ${DURATION_S} s per add-to-cart run, ${fmt(orderCount)} orders per place-order run, ${ROUNDS} rounds`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    const connections = round % 2 === 0 ? [CART_CONNECTIONS, 1] : [1, CART_CONNECTIONS];
    for (const c of connections)
      console.log(
        line(
          `add to cart, ${c} connection${c === 1 ? '' : 's'}`,
          await watched(`cart-${c}-${round}`, () => addToCart(c)),
        ),
      );
    for (const c of round % 2 === 0 ? [ORDER_CONNECTIONS, 1] : [1, ORDER_CONNECTIONS]) {
      const carts = await prepareCarts(vitrine.url, orderCount);
      console.log(
        line(
          `place order, ${c} connection${c === 1 ? '' : 's'}`,
          await watched(`order-${c}-${round}`, () => placeOrders(vitrine.url, carts, c)),
        ),
      );
    }
  }
} finally {
  await vitrine.close();
  site.dispose();
}
