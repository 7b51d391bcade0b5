/**
 * SQLite's WAL checkpoints, made off the event loop (issue 13). In WAL mode a commit appends to the -wal file; a
 * checkpoint copies those pages into the database file and syncs both to disk. SQLite makes one by default inside
 * the commit that crosses 1,000 pages: better-sqlite3 is synchronous, so that commit held the whole process for the
 * copy and two fsyncs (event-loop stalls of 100–270 ms under add-to-cart load on a shared disk, the p99 of every
 * request then in flight). Here the app's connection makes none (`wal_autocheckpoint = 0`) and one worker thread per
 * process, with a connection of its own to each database file, makes a PASSIVE checkpoint every
 * CHECKPOINT_INTERVAL_MS: it never waits for, nor blocks, the app's reads and writes.
 *
 * Durability is what `synchronous = NORMAL` gives (see docs/architecture.md, "SQLite settings"): a commit reaches the
 * WAL file (the OS has it: a crash of the process loses nothing) and is synced to disk at the next checkpoint, so a
 * power cut or OS crash can lose the commits of the last interval, never corrupt the file. If the worker cannot run
 * (or fails on a file), that connection goes back to SQLite's own checkpoints, as before.
 */
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints each file: the longest a commit waits to be synced to disk. */
export const CHECKPOINT_INTERVAL_MS = 200;
/** How long `release` waits for the worker to let go of a file before going on without it. */
const RELEASE_TIMEOUT_MS = 2000;

/** The worker: plain JavaScript (no loader needed), one connection per registered file. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
parentPort.on('message', (message) => {
  if (message.type === 'add') {
    try {
      files.set(message.id, new Database(message.file, { fileMustExist: true }));
    } catch (error) {
      parentPort.postMessage({ type: 'failed', id: message.id, reason: String(error && error.message) });
    }
  } else if (message.type === 'remove') {
    const db = files.get(message.id);
    files.delete(message.id);
    try { if (db) db.close(); } catch {}
    parentPort.postMessage({ type: 'removed', id: message.id });
  }
});
setInterval(() => {
  for (const [id, db] of files) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      files.delete(id);
      try { db.close(); } catch {}
      parentPort.postMessage({ type: 'failed', id, reason: String(error && error.message) });
    }
  }
}, workerData.interval);
`;

interface Registration {
  onFailure: (reason: string) => void;
  released?: () => void;
}

let worker: Worker | undefined;
let nextId = 1;
const registrations = new Map<number, Registration>();

function failAll(reason: string): void {
  worker = undefined;
  for (const [id, registration] of registrations) {
    registrations.delete(id);
    registration.onFailure(reason);
    registration.released?.();
  }
}

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), interval: CHECKPOINT_INTERVAL_MS },
  });
  started.on('message', (message: { type: 'failed' | 'removed'; id: number; reason?: string }) => {
    const registration = registrations.get(message.id);
    if (!registration) return;
    registrations.delete(message.id);
    if (message.type === 'failed') registration.onFailure(message.reason ?? 'unknown');
    registration.released?.();
  });
  started.on('error', (error) => failAll(error.message));
  started.on('exit', () => {
    if (worker === started) failAll('the checkpoint worker stopped');
  });
  // Never what keeps the process alive (after the listeners: adding a 'message' listener refs the worker's port).
  started.unref();
  return started;
}

export interface BackgroundCheckpoints {
  /** Stops checkpointing the file (before its last connection closes); resolves once the worker let go of it. */
  release(): Promise<void>;
}

/**
 * Checkpoints `file` (an absolute path to a WAL-mode database) in the background from now on. `onFailure` is called
 * at most once, when the worker cannot (any longer): the caller then turns SQLite's own checkpoints back on.
 */
export function checkpointInBackground(file: string, onFailure: (reason: string) => void): BackgroundCheckpoints {
  const id = nextId++;
  const registration: Registration = { onFailure };
  try {
    worker ??= startWorker();
    registrations.set(id, registration);
    worker.postMessage({ type: 'add', id, file });
  } catch (error) {
    onFailure((error as Error).message);
    return { release: async () => {} };
  }
  return {
    release: () =>
      new Promise<void>((resolve) => {
        if (!registrations.has(id) || !worker) return resolve();
        // Kept referenced: it holds the process until the worker's answer (the worker itself is unref'd).
        const timer = setTimeout(resolve, RELEASE_TIMEOUT_MS);
        registration.released = () => {
          clearTimeout(timer);
          // The last file let go: the worker stops (a new connection starts another).
          if (registrations.size === 0 && worker) {
            const stopping = worker;
            worker = undefined;
            void stopping.terminate();
          }
          resolve();
        };
        worker.postMessage({ type: 'remove', id });
      }),
  };
}

/** How often the app's connection looks at the -wal file's size (catchUpWhenLarge). */
export const WAL_SIZE_CHECK_INTERVAL_MS = 250;

/**
 * SQLite starts the -wal file over (and cuts it back to journal_size_limit) at a commit that finds every page of it
 * checkpointed. Under writes that never pause, the worker's PASSIVE checkpoints never get there: commits land while
 * each one runs, so the file only grew — by about 80 KB an order, past 1 GB in a few minutes of the write bench
 * (issue 13). So when the file is larger than `limitBytes`, `checkpoint` is run (a PASSIVE checkpoint on the app's own
 * connection, between two of its transactions): it copies the few pages the worker has not yet copied, and the next
 * commit starts the file over. Its price is one short checkpoint (its syncs included) on the event loop, once per
 * `limitBytes` written. A checkpoint that fails or finds the worker's under way is tried again at the next look.
 */
export function catchUpWhenLarge(walFile: string, limitBytes: number, checkpoint: () => Promise<void>, intervalMs = WAL_SIZE_CHECK_INTERVAL_MS): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void stat(walFile)
      .then((wal) => (wal.size > limitBytes ? checkpoint() : undefined))
      .catch(() => {})
      .finally(() => (running = false));
  }, intervalMs);
  // Never what keeps a process alive.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
