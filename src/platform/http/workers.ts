/**
 * Several server processes on one machine (node:cluster): the primary process forks `count` workers, each a whole
 * server on the same port (the primary hands out the connections in turn), and keeps them running:
 * - SIGHUP restarts them one at a time (a rolling restart): a new worker is forked and listening before the old one
 *   is told to stop, and the old one drains (./gracefulClose.ts) — at every moment a worker takes connections;
 * - SIGTERM or SIGINT stops them all (each drains) and then the primary ends;
 * - a worker that ends by itself is replaced, unless workers keep dying within CRASH_WINDOW_MS of starting (a
 *   setting or database that fails every start): then the primary stops them all and ends with code 1.
 * Workers share what must be shared through the database and Redis (jobs by lease, rate limits, site changes), as
 * separate processes always have. The primary holds no database connection and serves nothing.
 */
import cluster, { type Worker } from 'node:cluster';

/** A worker that ends this soon after it started counts as a crash, not as an end. */
const CRASH_WINDOW_MS = 10_000;
/** Crashes in a row after which the primary gives up. */
const CRASHES_TO_GIVE_UP = 5;

export interface WorkersOptions {
  count: number;
  /** How long a stopping worker may drain before the primary kills it (its own timeout, plus a margin). */
  stopTimeoutMs: number;
  log: (line: string) => void;
  /** Called once all workers listen: the address the first one listens on. */
  onListening?: (port: number) => void;
}

/** True in a process the primary forked. */
export const isWorker = (): boolean => cluster.isWorker;

/** Runs the primary: forks the workers and supervises them until SIGTERM/SIGINT. Resolves with the exit code. */
export function runWorkers(options: WorkersOptions): Promise<number> {
  const { count, log } = options;
  const stopping = new Set<Worker>();
  const startedAt = new Map<Worker, number>();
  let crashes = 0;
  let closing = false;
  let restarting = false;

  return new Promise((resolve) => {
    /** A new worker, once it listens: its port. */
    const fork = (): Promise<number> =>
      new Promise((listening) => {
        const worker = cluster.fork();
        startedAt.set(worker, Date.now());
        worker.once('listening', (address) => listening(address.port));
      });

    const stop = (worker: Worker): Promise<void> =>
      new Promise((ended) => {
        stopping.add(worker);
        if (worker.isDead()) return ended();
        const kill = setTimeout(() => worker.process.kill('SIGKILL'), options.stopTimeoutMs);
        worker.once('exit', () => {
          clearTimeout(kill);
          ended();
        });
        worker.process.kill('SIGTERM');
      });

    const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !stopping.has(w));

    const stopAll = async (code: number) => {
      if (closing) return;
      closing = true;
      await Promise.all(Object.values(cluster.workers ?? {}).map((w) => (w ? stop(w) : undefined)));
      resolve(code);
    };

    cluster.on('exit', (worker, code, signal) => {
      const planned = stopping.delete(worker);
      const ranFor = Date.now() - (startedAt.get(worker) ?? 0);
      startedAt.delete(worker);
      if (planned || closing) return;
      log(`worker ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another`);
      crashes = ranFor < CRASH_WINDOW_MS ? crashes + 1 : 0;
      if (crashes >= CRASHES_TO_GIVE_UP) {
        log(`workers ended ${crashes} times in a row within ${CRASH_WINDOW_MS / 1000} s of starting; stopping`);
        void stopAll(1);
        return;
      }
      void fork();
    });

    process.on('SIGHUP', () => {
      if (closing || restarting) return;
      restarting = true;
      void (async () => {
        const old = live();
        log(`SIGHUP: restarting ${old.length} worker${old.length === 1 ? '' : 's'} one at a time`);
        for (const worker of old) {
          if (closing) break;
          await fork();
          await stop(worker);
        }
        restarting = false;
        if (!closing) log('restart done');
      })();
    });
    const shut = (signal: string) => {
      log(`Received ${signal}, stopping ${live().length} workers…`);
      void stopAll(0);
    };
    process.once('SIGTERM', () => shut('SIGTERM'));
    process.once('SIGINT', () => shut('SIGINT'));

    void Promise.all(Array.from({ length: count }, fork)).then(([port]) => {
      if (!closing && port !== undefined) options.onListening?.(port);
    });
  });
}
