/**
 * What the commands that use the database share: the settings from the environment, and `withDatabase`, which
 * connects, migrates (printing what changed), runs the command's work and closes.
 */
import { sql } from 'kysely';
import { loadConfig, redacted, type Config } from '../config';
import { connect, DatabaseUrlError, type DbHandle } from '../platform/db/connect';
import { MigrationError, migrateToLatest } from '../platform/db/migrations';
import { UserError, type CliIo } from '../platform/cli/command';
import { registerModuleMailKinds } from '../modules/mailKinds';
import { searchFollowUps } from '../modules/search';

/** The settings from the environment (a ConfigError names every wrong one: exit code 1). */
export function loadSettings(): Config {
  return loadConfig(process.env);
}

/** Connects and migrates (printing what changed), runs `body`, closes. */
export async function withDatabase(
  config: Config,
  io: CliIo,
  body: (handle: DbHandle) => Promise<number>,
): Promise<number> {
  const handle = await openDatabase(config, io);
  try {
    return await body(handle);
  } finally {
    await handle.close();
  }
}

/** The database, connected and migrated (printing what changed); the caller closes it. */
export async function openDatabase(config: Config, io: CliIo): Promise<DbHandle> {
  // Whatever opens the database may send or show the outbox's mail: the modules' kinds of mail first (their code is
  // loaded only when a message of theirs is sent or shown).
  registerModuleMailKinds();
  let handle: DbHandle;
  try {
    handle = connect(config.databaseUrl);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new UserError(error.message);
    throw error;
  }
  try {
    await sql`select 1`.execute(handle.db);
  } catch (error) {
    await handle.close().catch(() => {});
    throw new UserError(`cannot use the database ${redacted(config.databaseUrl)}: ${databaseProblem(error)}`);
  }
  try {
    const { applied } = await migrateToLatest(handle.db, searchFollowUps);
    io.out(
      applied.length
        ? `Database ${redacted(config.databaseUrl)}: applied ${applied.join(', ')}`
        : `Database ${redacted(config.databaseUrl)} is up to date`,
    );
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    if (error instanceof MigrationError) throw new UserError(error.message);
    throw error;
  }
}

function databaseProblem(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { errors?: Error[] };
  // pg reports a refused connection as an AggregateError (IPv4 and IPv6) with an empty message.
  const message = e.message || e.errors?.map((x) => x.message).join('; ') || e.code || String(error);
  return message;
}
