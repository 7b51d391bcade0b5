/**
 * A prepared statement run outside any transaction on a SQLite database made by ./connect (issue 13).
 *
 * Through Kysely such a query waits for the writing connection, and asking for it ends the commit group holding it
 * (./commitGroup): with an order's reads and its three single writes between its transactions, no group ever held
 * more than one transaction, and each write paid a commit of its own. Here instead:
 * - a read runs on the database's second, reading connection (WAL: it sees every committed transaction and none that
 *   is not, as a read through Kysely after the group's commit would), so it neither waits nor ends a group;
 * - a write joins a commit group as a transaction of one statement, and is answered once the group committed, as
 *   an autocommitted statement is answered once it committed.
 * An in-memory database has no second connection: its statements go through Kysely as before.
 */
import type { Kysely, QueryResult } from 'kysely';
import { ok, type Result } from '../../../core/result';
import { inGroupedTransaction } from './commitGroup';
import { runStatement } from './heldConnection';
import type { StatementCache } from './statementCache';

/**
 * Runs `sql` outside any transaction on `db`, a SQLite file opened by ./connect: `statements` are its writing
 * connection's, `reader` its reading connection's.
 */
export async function runOutsideTransaction<DB, R>(
  db: Kysely<DB>,
  statements: StatementCache,
  reader: StatementCache,
  sql: string,
  parameters: readonly unknown[],
): Promise<QueryResult<R>> {
  if (reader.prepare(sql).readonly) return runStatement<R>(reader, sql, parameters);
  const written = await inGroupedTransaction(db, statements, async (): Promise<Result<QueryResult<R>, never>> =>
    ok(runStatement<R>(statements, sql, parameters)),
  );
  if (!written.ok) throw written.error;
  return written.value;
}
