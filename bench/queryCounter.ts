/**
 * Counts what the server asks of its database, for the benchmark only (imported by ./harness.ts and ./scale.ts; the
 * product never loads it): every statement run, on either engine, and on PostgreSQL the round trips, the pool's
 * checkouts and how long a checked-out connection was held (from the checkout to its release) against how long its
 * queries took (from sending one to its answer). A held connection's time that is not its queries' is time it waited
 * for something else while no other request could use it.
 *
 * It wraps the drivers' prototypes, so every connection the process opens is counted (take a snapshot before and
 * after what is measured): pg's Client.query (one call is one round trip: pg sends the next query of a client only
 * after the previous one's answer) and Pool.connect; better-sqlite3's Statement run/get/all/iterate (in process: no
 * round trip). Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE) is counted apart as well.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

export interface QueryCounts {
  statements: number;
  /** Of the statements: BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE. */
  transactionControl: number;
  /** PostgreSQL: queries sent, each waiting for its answer. */
  roundTrips: number;
  /** PostgreSQL: connections taken from the pool. */
  checkouts: number;
  /** PostgreSQL: ms connections were held (checkout to release), and ms spent waiting for query answers. */
  heldMs: number;
  queryMs: number;
}

export type CountedEngine = 'sqlite' | 'postgres';

const zero = (): QueryCounts => ({
  statements: 0,
  transactionControl: 0,
  roundTrips: 0,
  checkouts: 0,
  heldMs: 0,
  queryMs: 0,
});
/** Each engine's apart: a benchmark with a server on each measures one while the other idles (its timers run). */
const countsOf: Record<CountedEngine, QueryCounts> = { sqlite: zero(), postgres: zero() };

export const queryCounts = (engine: CountedEngine): QueryCounts => ({ ...countsOf[engine] });

export const countsSince = (engine: CountedEngine, before: QueryCounts): QueryCounts => {
  const now = queryCounts(engine);
  return Object.fromEntries(
    Object.entries(now).map(([key, value]) => [key, value - before[key as keyof QueryCounts]]),
  ) as unknown as QueryCounts;
};

export const noQueries = zero;

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release|start transaction|end)\b/i;

function countText(counts: QueryCounts, text: string | undefined): void {
  if (text === undefined) return;
  // A query without parameters may hold several statements (the simple protocol); none of the server's do.
  const parts = text.includes(';') ? text.split(';').filter((part) => part.trim() !== '') : [text];
  counts.statements += parts.length;
  for (const part of parts) if (TRANSACTION_CONTROL.test(part)) counts.transactionControl++;
}

let installed = false;

export function installQueryCounter(): void {
  if (installed) return;
  installed = true;

  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const clientPrototype = pg.Client.prototype as unknown as { query: Query };
  const query = clientPrototype.query;
  clientPrototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    const counts = countsOf.postgres;
    counts.roundTrips++;
    countText(counts, text);
    const started = performance.now();
    const result = query.apply(this, args);
    if (result instanceof Promise)
      void result.then(
        () => (counts.queryMs += performance.now() - started),
        () => (counts.queryMs += performance.now() - started),
      );
    return result;
  };

  type Connect = (this: pg.Pool, ...args: unknown[]) => unknown;
  const poolPrototype = pg.Pool.prototype as unknown as { connect: Connect };
  const connect = poolPrototype.connect;
  poolPrototype.connect = function (this: pg.Pool, ...args: unknown[]) {
    const counts = countsOf.postgres;
    counts.checkouts++;
    const result = connect.apply(this, args);
    if (!(result instanceof Promise)) return result;
    return result.then((client: pg.PoolClient) => {
      const since = performance.now();
      const release = client.release;
      client.release = function (this: pg.PoolClient, ...releaseArgs: Parameters<pg.PoolClient['release']>) {
        counts.heldMs += performance.now() - since;
        client.release = release;
        return release.apply(this, releaseArgs);
      };
      return client;
    });
  };

  const probe = new SQLite(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
    'run' | 'get' | 'all' | 'iterate',
    (this: SQLite.Statement, ...args: unknown[]) => unknown
  >;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = statementPrototype[method];
    statementPrototype[method] = function (this: SQLite.Statement, ...args: unknown[]) {
      countText(countsOf.sqlite, this.source);
      return original.apply(this, args);
    };
  }
}
