/**
 * One write transaction whose Result decides commit or rollback: a failed Result rolls back, so a refused request
 * stores nothing. Every service's writes go through it.
 */
import { sql, type Kysely } from 'kysely';
import type { Result } from '../core/result';
import { engineOf } from './connect';
import { runStatement, whileHeld } from './heldConnection';
import type { Database } from './tables';

class Rollback<T> {
  constructor(readonly result: T) {}
}

/**
 * Runs `work` in one write transaction; a failed Result rolls it back, so a refused request stores nothing.
 * SQLite gets BEGIN IMMEDIATE: the write lock is taken before the first read, so a transaction never has to upgrade
 * a read to a write, which another process's commit can make fail at once (SQLITE_BUSY, not retried by busy_timeout).
 */
export async function inTransaction<T, E>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<Result<T, E>>,
): Promise<Result<T, E>> {
  if (engineOf(db) === 'sqlite') {
    return db.connection().execute((conn) =>
      whileHeld(db, conn, async (statements) => {
        // Straight on the held connection when it is ours (./heldConnection), else through Kysely.
        const run = async (command: 'begin immediate' | 'commit' | 'rollback') => {
          if (statements) runStatement(statements, command, []);
          else await sql.raw(command).execute(conn);
        };
        await run('begin immediate');
        try {
          const result = await work(conn);
          await run(result.ok ? 'commit' : 'rollback');
          return result;
        } catch (error) {
          await run('rollback').catch(() => {});
          throw error;
        }
      }),
    );
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const result = await work(trx);
      if (!result.ok) throw new Rollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.result as Result<T, E>;
    throw error;
  }
}
