/**
 * The in-process buffer of analytics events: requests only push (answering 202 at once), and the buffer writes
 * what it holds in one multi-row insert every `flushIntervalMs` (1 s) or as soon as `maxBatch` events wait, on
 * either engine. A crash loses at most what the buffer holds, never a half-written batch (one statement, one
 * transaction). When the database is slow or down the buffer holds at most `maxBuffered` events and drops the rest:
 * measurement never grows memory without bound nor slows a page.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { AnalyticsEventsTable } from './tables';

export type AnalyticsEventRow = Insertable<AnalyticsEventsTable>;

export interface AnalyticsBufferOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
  maxBuffered?: number;
  onError?: (error: unknown, lost: number) => void;
}

export const DEFAULT_FLUSH_INTERVAL_MS = 1000;
export const DEFAULT_MAX_BATCH = 200;
export const DEFAULT_MAX_BUFFERED = 10_000;
/** Rows per INSERT statement: 17 columns × 100 stays far below SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 100;

export class AnalyticsBuffer {
  #rows: AnalyticsEventRow[] = [];
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Events dropped because the buffer was full, or lost with a failed write. */
  dropped = 0;
  /** Events written so far. */
  written = 0;
  readonly #maxBatch: number;
  readonly #maxBuffered: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: AnalyticsBufferOptions = {},
  ) {
    this.#maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    this.#maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
    this.#timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS);
    this.#timer.unref();
  }

  get size(): number {
    return this.#rows.length;
  }

  push(...rows: AnalyticsEventRow[]): void {
    for (const row of rows) {
      if (this.#rows.length >= this.#maxBuffered) {
        this.dropped++;
        continue;
      }
      this.#rows.push(row);
    }
    if (this.#rows.length >= this.#maxBatch) void this.flush();
  }

  /** Writes what is buffered now (waits for a write in progress first). Never throws. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#rows.length === 0) return;
    const rows = this.#rows;
    this.#rows = [];
    this.#flushing = this.#write(rows).finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  async #write(rows: AnalyticsEventRow[]): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
          await trx
            .insertInto('analytics_events')
            .values(rows.slice(i, i + ROWS_PER_STATEMENT))
            .execute();
        }
      });
      this.written += rows.length;
    } catch (error) {
      this.dropped += rows.length;
      this.options.onError?.(error, rows.length);
    }
  }

  /** Stops the timer and writes what is left (the app's onClose). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
