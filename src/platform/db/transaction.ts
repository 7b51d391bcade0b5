/**
 * One write transaction whose Result decides commit or rollback: a failed Result rolls back, so a refused request
 * stores nothing. Every service's writes go through it.
 */
import { sql, type Kysely } from 'kysely';
import type { Result } from '../../core/result';
import { engineOf } from './connect';
import { inGroupedTransaction } from './sqlite/commitGroup';
import { statementsOf } from './sqlite/heldConnection';
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
    // A database made by ./connect: its transactions share commits (./commitGroup); any other goes through Kysely.
    const statements = statementsOf(db);
    if (statements) return inGroupedTransaction(db, statements, work);
    return db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await work(conn);
        await sql.raw(result.ok ? 'commit' : 'rollback').execute(conn);
        return result;
      } catch (error) {
        await sql`rollback`.execute(conn).catch(() => {});
        throw error;
      }
    });
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
