/**
 * Keeps cached pages true to the stock (issue 23). Every process asks the database, every STOCK_WATCH_INTERVAL_MS,
 * for the variants whose stock changed since it last looked (src/modules/catalog/stockChanges.ts: one indexed read that
 * finds nothing most of the time) and tells the page cache which products changed; the cache drops the pages that
 * show them. The database is the one place every writer goes through — an order in this process or another, a refund
 * or restock from a `vitrine` command, the owner's edit — so no writer has to announce anything, and no Redis is
 * needed for several processes to agree.
 *
 * On PostgreSQL change numbers come from a sequence, taken when a transaction updates the row but visible only when
 * it commits, so a change can appear after a higher-numbered one was seen. Each read therefore goes back over the
 * last STOCK_WATCH_OVERLAP_MS of numbers, and a variant already reported at its number is not reported twice.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { lastStockChange, stockChangesAfter, type StockChange } from './stockChanges';

/** How often the database is asked (a page shows a sale within this, plus the time to render it). */
export const STOCK_WATCH_INTERVAL_MS = 250;
/** How far back each read looks, for changes committed after higher-numbered ones (far above a transaction's length). */
export const STOCK_WATCH_OVERLAP_MS = 5_000;

/** Products whose stock changed, by site id. */
export type ChangedProducts = Map<string, Set<string>>;

/**
 * What has been seen of the change numbers (pure: no clock, no database): which changes are new, and from which
 * number the next read must start.
 */
export class StockChangeLog {
  /** `${siteId}\0${sku}` → the number it was last reported at (only numbers above `floor`). */
  readonly #reported = new Map<string, number>();
  /** The highest number seen after each read, with when: the floor moves up to what was seen OVERLAP ago. */
  readonly #marks: { at: number; seq: number }[] = [];
  #highest: number;
  #floor: number;

  constructor(start: number) {
    this.#highest = start;
    this.#floor = start;
  }

  /** The next read asks for the changes numbered above this. */
  get floor(): number {
    return this.#floor;
  }

  /** Takes one read's rows (numbered above `floor`), read at time `now`; gives the products not reported before. */
  take(rows: readonly StockChange[], now: number, overlapMs: number): ChangedProducts {
    const changed: ChangedProducts = new Map();
    for (const row of rows) {
      const key = `${row.siteId}\u0000${row.sku}`;
      if (this.#reported.get(key) === row.seq) continue;
      this.#reported.set(key, row.seq);
      let products = changed.get(row.siteId);
      if (!products) changed.set(row.siteId, (products = new Set()));
      products.add(row.productId);
      if (row.seq > this.#highest) this.#highest = row.seq;
    }
    this.#marks.push({ at: now, seq: this.#highest });
    while (this.#marks.length > 0 && this.#marks[0]!.at <= now - overlapMs) this.#floor = this.#marks.shift()!.seq;
    for (const [key, seq] of this.#reported) if (seq <= this.#floor) this.#reported.delete(key);
    return changed;
  }
}

export interface StockWatchOptions {
  intervalMs?: number;
  overlapMs?: number;
  /** Told when a read fails (once per outage) and when reads work again. */
  warn(message: string, error?: unknown): void;
}

/** Asks the database for stock changes on a timer and hands the new ones to `onChange`. */
export class StockWatch {
  #log: StockChangeLog | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;
  #failing = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onChange: (siteId: string, productIds: ReadonlySet<string>) => void,
    private readonly options: StockWatchOptions,
  ) {}

  /**
   * Learns the latest change number, then reads on a timer. Call before any page is rendered: a change made before
   * this call is already in what a render reads; one after it is reported.
   */
  async start(): Promise<void> {
    // When the database cannot be read now (an outage at start), every change ever made counts as new: the first read
    // that works drops the pages of every product whose stock ever changed, once, and the server starts meanwhile.
    const last = await lastStockChange(this.db).catch((error: unknown) => {
      this.options.warn('cannot read stock changes: cached pages may show old stock until it can', error);
      this.#failing = true;
      return 0;
    });
    this.#log = new StockChangeLog(last);
    this.#timer = setInterval(() => void this.check(), this.options.intervalMs ?? STOCK_WATCH_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Reads the changes now (a read under way is awaited instead of starting another). */
  check(): Promise<void> {
    this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
    return this.#reading;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#reading;
  }

  async #read(): Promise<void> {
    const log = this.#log;
    if (!log) return;
    try {
      const rows = await stockChangesAfter(this.db, log.floor);
      if (this.#failing) this.options.warn('stock changes can be read again: cached pages follow the stock');
      this.#failing = false;
      for (const [siteId, products] of log.take(rows, Date.now(), this.options.overlapMs ?? STOCK_WATCH_OVERLAP_MS))
        this.onChange(siteId, products);
    } catch (error) {
      if (!this.#failing)
        this.options.warn('cannot read stock changes: cached pages may show old stock until it can', error);
      this.#failing = true;
    }
  }
}
