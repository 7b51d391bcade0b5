/**
 * One function opens the database for both engines: a file path or `sqlite:` URL opens SQLite (better-sqlite3),
 * a `postgres://` or `postgresql://` URL opens a PostgreSQL pool. Both give the same Kysely<Database>.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  sql,
  SqliteDialect,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { checkpointInBackground, type BackgroundCheckpoints } from './sqlite/checkpointer';
import { connectionWanted } from './sqlite/commitGroup';
import { registerSqliteStatements } from './sqlite/heldConnection';
import { StatementCache, type StatementCacheStats } from './sqlite/statementCache';
import type { Database } from './tables';
import { nameStatements } from './postgres/namedStatements';

export type Engine = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** SQLite: the prepared statements kept by SQL text, and how often they were reused (./statementCache). */
  statements?: StatementCacheStats;
  /** Closes every connection; the handle is unusable afterwards. */
  close(): Promise<void>;
}

export const ACCEPTED_DATABASE_URLS =
  'a SQLite file path (./data/vitrine.db), a sqlite: URL (sqlite:./data/vitrine.db, sqlite::memory:) or a PostgreSQL URL (postgres://user:password@host:5432/name)';

export class DatabaseUrlError extends Error {
  override name = 'DatabaseUrlError';
}

/** How long a SQLite writer waits for another process's lock before failing (ms). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
/**
 * The -wal file's size past which the checkpoints catch up with the last commit (./checkpointer, `onCaughtUp`), and
 * SQLite cuts the file back to. Smaller catch-ups, more often, stall the event loop less.
 */
const SQLITE_WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;
/** SQLite's own checkpoint threshold, used again if the checkpoint worker cannot run. */
const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
const PG_INT8 = 20;

export type ParsedDatabaseUrl = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };

/** Classifies a DATABASE_URL; throws DatabaseUrlError naming the accepted forms. */
export function parseDatabaseUrl(url: string): ParsedDatabaseUrl {
  const value = url.trim();
  if (value === '') throw new DatabaseUrlError(`the database URL is empty; use ${ACCEPTED_DATABASE_URLS}`);
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new DatabaseUrlError(`'${value}' is not a valid PostgreSQL URL; use ${ACCEPTED_DATABASE_URLS}`);
    }
    return { engine: 'postgres', url: value };
  }
  if (/^sqlite:/i.test(value)) {
    let file = value.slice('sqlite:'.length);
    if (file.startsWith('//')) file = file.slice(2); // sqlite:///abs/path and sqlite://relative/path
    if (file === '') throw new DatabaseUrlError(`'${value}' names no file; use ${ACCEPTED_DATABASE_URLS}`);
    return { engine: 'sqlite', file };
  }
  // Any other scheme (mysql://, http://, file:…) is refused; a Windows drive letter (C:\…) is a path.
  if (/^[a-z][a-z0-9+.-]+:/i.test(value)) {
    throw new DatabaseUrlError(`unsupported database URL '${value}'; use ${ACCEPTED_DATABASE_URLS}`);
  }
  return { engine: 'sqlite', file: value };
}

export function connect(url: string): DbHandle {
  const parsed = parseDatabaseUrl(url);
  return parsed.engine === 'postgres' ? connectPostgres(parsed.url) : connectSqlite(parsed.file);
}

/** Kysely's SQLite dialect, telling ./commitGroup whenever a query asks for the connection (a group then lets go). */
class CommitGroupAwareDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly wanted: () => void,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = () => {
      this.wanted();
      return acquire();
    };
    return driver;
  }
}

function connectSqlite(file: string): DbHandle {
  const inMemory = file === ':memory:';
  if (!inMemory) mkdirSync(dirname(resolve(file)), { recursive: true });
  let database: SQLite.Database;
  try {
    database = new SQLite(file);
  } catch (error) {
    throw new DatabaseUrlError(`cannot open the SQLite database '${file}': ${(error as Error).message}`);
  }
  database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  database.pragma('foreign_keys = ON');
  // Durability and its price: docs/architecture.md, "SQLite settings".
  database.pragma('synchronous = NORMAL');
  // Savepoints' journals (./commitGroup) in memory, not in a temporary file opened and removed per transaction.
  database.pragma('temp_store = MEMORY');
  let checkpoints: BackgroundCheckpoints | undefined;
  if (!inMemory) {
    database.pragma('journal_mode = WAL');
    // The -wal file is cut back to this size after the checkpoints caught up.
    database.pragma(`journal_size_limit = ${SQLITE_WAL_SIZE_LIMIT_BYTES}`);
    // Checkpoints are made by a worker thread (./checkpointer), never inside one of this connection's commits.
    database.pragma('wal_autocheckpoint = 0');
  }
  const statements = new StatementCache(database);
  const db = new Kysely<Database>({
    dialect: new CommitGroupAwareDialect({ database: statements }, () => connectionWanted(statements)),
  });
  // Reads outside transactions on a second connection (./outsideTransaction); an in-memory database has only one.
  const reader = inMemory ? undefined : openReader(file);
  registerSqliteStatements(db, statements, reader && new StatementCache(reader));
  if (!inMemory) {
    checkpoints = checkpointInBackground(resolve(file), {
      limitBytes: SQLITE_WAL_SIZE_LIMIT_BYTES,
      // Through Kysely, so it waits for the transaction in progress.
      onCaughtUp: async () => {
        await sql`pragma wal_checkpoint(PASSIVE)`.execute(db);
      },
      onFailure: () => {
        if (database.open) database.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
      },
    });
  }
  return {
    db,
    engine: 'sqlite',
    statements: statements.stats,
    close: async () => {
      await checkpoints?.release();
      reader?.close();
      await db.destroy();
      // Kysely closes the database only if it ran a query; the last connection to close checkpoints the -wal file.
      if (database.open) database.close();
    },
  };
}

/** A second connection to the file, for reads only (SQLite refuses a write on it). */
function openReader(file: string): SQLite.Database {
  const reader = new SQLite(file);
  reader.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  reader.pragma('query_only = ON');
  return reader;
}

function connectPostgres(url: string): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // BIGINT (money, counts) as a JS number: every value we store fits in 2^53.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === PG_INT8
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process; the next query reports the problem.
  pool.on('error', () => {});
  nameStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

/** Which engine a Kysely handle (or transaction) talks to. */
export function engineOf<DB>(db: Kysely<DB>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
