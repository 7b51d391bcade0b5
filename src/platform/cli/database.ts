/**
 * What the commands that use the database share: `withDatabase` connects, migrates (printing what changed), runs the
 * command's work and closes. What the modules add to every database a command opens — their kinds of mail, the
 * migrations' follow-ups — is set once by the composition (src/cli/run.ts) with `setUpCommandDatabase`, so a module's
 * cli.ts reaches the database through the platform and never through the composition.
 */
import { sql } from 'kysely';
import { connect, DatabaseUrlError, type DbHandle } from '../db/connect';
import { MigrationError, migrateToLatest, type MigrationFollowUps } from '../db/migrations';
import { redacted } from '../redactedUrl';
import { UserError, type CliIo } from './command';

/**
 * Run before a database is opened (loaded then, so a command that opens none loads none of it): the modules register
 * their kinds of mail (the outbox may send or show them) and give the work a migration leaves to today's code.
 */
export type CommandDatabaseSetup = () => Promise<{ followUps?: MigrationFollowUps }>;

let setup: CommandDatabaseSetup = async () => ({});

/** What every command's database gets; the composition calls it before a command runs. */
export function setUpCommandDatabase(next: CommandDatabaseSetup): void {
  setup = next;
}

/** Connects and migrates (printing what changed), runs `body`, closes. */
export async function withDatabase(
  config: { databaseUrl: string },
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
export async function openDatabase(config: { databaseUrl: string }, io: CliIo): Promise<DbHandle> {
  const { followUps } = await setup();
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
    const { applied } = await migrateToLatest(handle.db, followUps);
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
  return e.message || e.errors?.map((x) => x.message).join('; ') || e.code || String(error);
}
