/**
 * Every integration test runs on both engines. `forEachEngine` wraps a block of tests in one `describe` per engine
 * and gives it a fresh, migrated database for that block (one per test file in practice):
 * SQLite in a temporary directory; PostgreSQL in a new database `vitrine_t_<random>` created from
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) and dropped afterwards.
 *
 * When PostgreSQL cannot be reached the postgres block is skipped with a warning, except on CI
 * (CI=true), where its tests fail instead: a green CI run has always exercised both engines.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { connect, type DbHandle, type Engine } from '../../src/platform/db/connect';
import { migrateToLatest } from '../../src/platform/db/migrations';
import { searchFollowUps } from '../../src/modules/search';
import type { Database } from '../../src/platform/db/tables';

export const engines: readonly Engine[] = ['sqlite', 'postgres'];

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const onCI = process.env.CI === 'true';

/** A fresh database: its URL (for child processes), an open migrated handle, and `dispose` to close and delete it. */
export interface FreshDb {
  engine: Engine;
  url: string;
  handle: DbHandle;
  db: Kysely<Database>;
  dispose(): Promise<void>;
}

let postgresProbe: Promise<string | undefined> | undefined;

/** undefined when PostgreSQL answers, else the reason it does not. */
export function postgresUnavailable(): Promise<string | undefined> {
  postgresProbe ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      return undefined;
    } catch (error) {
      return (error as Error).message || String(error);
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return postgresProbe;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Creates an empty database of `engine`; with `migrate` (the default) it is brought to the latest schema. */
export async function createFreshDb(engine: Engine, options: { migrate?: boolean } = {}): Promise<FreshDb> {
  let url: string;
  let remove: () => Promise<void>;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-t-'));
    url = join(dir, 'test.db');
    remove = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const reason = await postgresUnavailable();
    if (reason !== undefined) throw new Error(`PostgreSQL is not reachable at ${TEST_DATABASE_URL}: ${reason}`);
    const name = `vitrine_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const u = new URL(TEST_DATABASE_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    remove = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const handle = connect(url);
  try {
    if (options.migrate !== false) await migrateToLatest(handle.db, searchFollowUps);
  } catch (error) {
    await handle.close();
    await remove();
    throw error;
  }
  let disposed = false;
  return {
    engine,
    url,
    handle,
    db: handle.db,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await handle.close().catch(() => {});
      await remove();
    },
  };
}

const pgReason = await postgresUnavailable();
if (pgReason !== undefined && !onCI) {
  console.warn(
    `[vitrine tests] PostgreSQL unreachable at ${TEST_DATABASE_URL} (${pgReason}); skipping the postgres variants.`,
  );
}

/**
 * Declares `body` once per engine, inside `describe(title(engine))`, with the same rule as forEachEngine: the
 * postgres block is skipped when PostgreSQL is unreachable, except on CI. For suites that make their own databases
 * (browser tests start a server per engine).
 */
export function describeEachEngine(title: (engine: Engine) => string, body: (engine: Engine) => void): void {
  for (const engine of engines) {
    const skip = engine === 'postgres' && pgReason !== undefined && !onCI;
    (skip ? describe.skip : describe)(title(engine), () => body(engine));
  }
}

/**
 * Declares `body` once per engine, inside `describe(engine)`, with a fresh migrated database shared by its tests.
 * `getDb()` / `getFresh()` are valid inside tests and hooks (after the block's beforeAll ran).
 */
export function forEachEngine(
  body: (engine: Engine, getDb: () => Kysely<Database>, getFresh: () => FreshDb) => void,
  options: { migrate?: boolean } = {},
): void {
  describeEachEngine(
    (engine) => engine,
    (engine) => {
      let fresh: FreshDb | undefined;
      beforeAll(async () => {
        fresh = await createFreshDb(engine, options);
      });
      afterAll(async () => {
        await fresh?.dispose();
      });
      const getFresh = () => {
        if (!fresh) throw new Error(`the ${engine} test database is not ready (did its beforeAll fail?)`);
        return fresh;
      };
      body(engine, () => getFresh().db, getFresh);
    },
  );
}
