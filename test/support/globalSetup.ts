/**
 * Runs once per `vitest run`, before any test file: migrates one SQLite file and one PostgreSQL database to the
 * latest schema, as templates that ./engines.ts copies for each fresh database (a file copy; CREATE DATABASE …
 * TEMPLATE) instead of running the migrations again in every test file. A copy holds exactly what a migrated
 * database holds (tables, indexes, the migration table), so a test cannot tell it from one migrated for it.
 *
 * The PostgreSQL databases a run makes are named vitrine_t_<run>_…; they are dropped here when the run ends, all at
 * once, rather than one DROP DATABASE (and the checkpoint it forces on the whole server) at the end of every file.
 * Without PostgreSQL the tests make and migrate their databases themselves, as before (./engines.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { searchFollowUps } from '../../src/modules/search';
import { connect } from '../../src/platform/db/connect';
import { migrateToLatest } from '../../src/platform/db/migrations';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `task` over `items`, `limit` at a time. */
async function inBatches<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Set when the templates are made: two projects of a run (vitest.config.ts) list this setup, the second finds them. */
const made = globalThis as { vitrineTestTemplates?: boolean };

export default async function setup(): Promise<() => Promise<void>> {
  if (made.vitrineTestTemplates) return async () => {};
  made.vitrineTestTemplates = true;
  const run = randomBytes(4).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-template-'));
  const sqliteTemplate = join(dir, 'template.db');
  const sqlite = connect(sqliteTemplate);
  try {
    await migrateToLatest(sqlite.db, searchFollowUps);
  } finally {
    // Closing checkpoints the -wal file into the database file: the file alone is the whole database.
    await sqlite.close();
  }
  process.env.VITRINE_TEST_SQLITE_TEMPLATE = sqliteTemplate;

  let pgTemplate: string | undefined;
  try {
    await adminQuery('select 1');
    pgTemplate = `vitrine_t_${run}_template`;
  } catch {
    // No PostgreSQL: ./engines.ts skips (or, on CI, fails) the postgres variants and says why.
  }
  if (pgTemplate !== undefined) {
    await adminQuery(`CREATE DATABASE ${pgTemplate}`);
    const handle = connect(databaseUrl(pgTemplate));
    try {
      await migrateToLatest(handle.db, searchFollowUps);
    } finally {
      // CREATE DATABASE … TEMPLATE refuses a template anyone is connected to.
      await handle.close();
    }
    process.env.VITRINE_TEST_PG_TEMPLATE = pgTemplate;
    process.env.VITRINE_TEST_PG_RUN = run;
  }

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (pgTemplate === undefined) return;
    const rows = await adminQuery<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'vitrine\\_t\\_${run}\\_%'`,
    );
    // Concurrent drops share their checkpoints.
    await inBatches(
      rows.map((r) => r.datname),
      8,
      async (name) => {
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    );
  };
}
