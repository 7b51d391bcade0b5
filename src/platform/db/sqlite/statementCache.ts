/**
 * better-sqlite3 statements kept by their SQL text. Kysely's SQLite driver asks the database to prepare every query
 * anew (compiling the same statement again: 13.5 % of an order's time, issue 13); Kysely takes any object with
 * `prepare` and `close` as its database, so this one answers `prepare` from the statements it keeps.
 *
 * Safe to keep: a statement holds its SQL text, and SQLite compiles it again by itself when the schema changed since
 * (a migration, a table made again), so a kept statement always runs against the current tables and columns. A
 * statement still being read (a streamed query) is not handed out twice: a second one is prepared for that call.
 * PostgreSQL is not concerned: pg sends unnamed statements, planned by the server per query.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept (the app runs a few hundred; lists of `in (?, ?, …)` of every length make more). */
export const STATEMENT_CACHE_CAPACITY = 1000;

export interface StatementCacheStats {
  /** Statements kept now. */
  size: number;
  /** Queries that found their statement kept. */
  hits: number;
  /** Queries that prepared one. */
  misses: number;
}

export class StatementCache implements SqliteDatabase {
  readonly #statements = new Map<string, SQLite.Statement>();
  readonly stats: StatementCacheStats = { size: 0, hits: 0, misses: 0 };

  constructor(
    private readonly database: SQLite.Database,
    private readonly capacity = STATEMENT_CACHE_CAPACITY,
  ) {}

  prepare(sql: string): SQLite.Statement {
    const kept = this.#statements.get(sql);
    if (kept !== undefined && !kept.busy) {
      this.stats.hits++;
      return kept;
    }
    this.stats.misses++;
    const statement = this.database.prepare(sql);
    if (kept === undefined) {
      // The oldest kept first out: the hot statements are prepared again at once, and at most once per overflow.
      if (this.#statements.size >= this.capacity) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, statement);
      this.stats.size = this.#statements.size;
    }
    return statement;
  }

  /** Whether a transaction is open on the database now (SQLite ends one by itself after some errors). */
  get inTransaction(): boolean {
    return this.database.inTransaction;
  }

  close(): void {
    this.#statements.clear();
    this.stats.size = 0;
    this.database.close();
  }
}
