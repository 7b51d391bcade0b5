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
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints each file: the longest a commit waits to be synced to disk. */
export const CHECKPOINT_INTERVAL_MS = 200;
/** How long `release` waits for the worker to let go of a file before going on without it. */
const RELEASE_TIMEOUT_MS = 2000;
/**
 * A catch-up (see `checkpointInBackground`) makes at most this many PASSIVE checkpoints back to back in the worker, and
 * stops sooner once one finds fewer than CATCH_UP_LEFT_FRAMES pages committed during the one before it (1 MiB).
 */
const CATCH_UP_PASSES = 6;
const CATCH_UP_LEFT_FRAMES = 256;

/** The worker: plain JavaScript (no loader needed), one connection per registered file. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const files = new Map();
const walSize = (file) => { try { return statSync(file + '-wal').size; } catch { return 0; } };
parentPort.on('message', (message) => {
  if (message.type === 'add') {
    try {
      const db = new Database(message.file, { fileMustExist: true });
      files.set(message.id, { db, file: message.file, limitBytes: message.limitBytes, awaiting: false });
    } catch (error) {
      parentPort.postMessage({ type: 'failed', id: message.id, reason: String(error && error.message) });
    }
  } else if (message.type === 'caught-up-done') {
    const entry = files.get(message.id);
    if (entry) entry.awaiting = false;
  } else if (message.type === 'remove') {
    const entry = files.get(message.id);
    files.delete(message.id);
    try { if (entry) entry.db.close(); } catch {}
    parentPort.postMessage({ type: 'removed', id: message.id });
  }
});
setInterval(() => {
  for (const [id, entry] of files) {
    try {
      let last = entry.db.pragma('wal_checkpoint(PASSIVE)')[0];
      if (entry.awaiting || walSize(entry.file) <= entry.limitBytes) continue;
      // Catch-up: each pass copies (and syncs) what was committed while the one before ran, fewer pages each time.
      for (let pass = 1; pass < workerData.catchUpPasses; pass++) {
        const next = entry.db.pragma('wal_checkpoint(PASSIVE)')[0];
        const committedMeanwhile = next.log - last.log;
        last = next;
        if (committedMeanwhile < workerData.catchUpLeftFrames) break;
      }
      entry.awaiting = true;
      parentPort.postMessage({ type: 'caught-up', id });
    } catch (error) {
      files.delete(id);
      try { entry.db.close(); } catch {}
      parentPort.postMessage({ type: 'failed', id, reason: String(error && error.message) });
    }
  }
}, workerData.interval);
`;

interface Registration {
  onFailure: (reason: string) => void;
  onCaughtUp: () => Promise<void>;
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
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      interval: CHECKPOINT_INTERVAL_MS,
      catchUpPasses: CATCH_UP_PASSES,
      catchUpLeftFrames: CATCH_UP_LEFT_FRAMES,
    },
  });
  started.on('message', (message: { type: 'failed' | 'removed' | 'caught-up'; id: number; reason?: string }) => {
    const registration = registrations.get(message.id);
    if (!registration) return;
    if (message.type === 'caught-up') {
      void registration
        .onCaughtUp()
        .catch(() => {})
        .finally(() => worker?.postMessage({ type: 'caught-up-done', id: message.id }));
      return;
    }
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

export interface CheckpointOptions {
  /** The -wal file's size past which the worker catches up and then calls `onCaughtUp`. */
  limitBytes: number;
  /**
   * Makes one PASSIVE checkpoint on the app's own connection, between two of its transactions. SQLite starts the
   * -wal file over (and cuts it back to journal_size_limit) only at a commit that finds every page of it checkpointed;
   * under writes that never pause the worker's checkpoints never get there (commits land while each one runs: the
   * file grew past 1 GB in a few minutes of the write bench, issue 13). So once the file is past `limitBytes` the
   * worker makes checkpoints back to back until one has little left to copy (it copies and syncs what was committed
   * during the one before), then asks for this one: it copies those last pages, and the next commit starts the file
   * over. Its price on the event loop is a checkpoint of under ~1 MiB and its syncs, once per `limitBytes` written
   * (when the app's connection made the whole catch-up itself: 26–38 ms of copying and syncing).
   */
  onCaughtUp: () => Promise<void>;
  /** Called at most once, when the worker cannot (any longer): the caller then turns SQLite's own checkpoints on. */
  onFailure: (reason: string) => void;
}

/** Checkpoints `file` (an absolute path to a WAL-mode database) in the background from now on. */
export function checkpointInBackground(
  file: string,
  { limitBytes, onCaughtUp, onFailure }: CheckpointOptions,
): BackgroundCheckpoints {
  const id = nextId++;
  const registration: Registration = { onFailure, onCaughtUp };
  try {
    worker ??= startWorker();
    registrations.set(id, registration);
    worker.postMessage({ type: 'add', id, file, limitBytes });
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
