/**
 * Statements run straight on better-sqlite3 while a transaction holds SQLite's writing connection (issue 13).
 *
 * Kysely runs every query through its executor: the connection provider's lock, the driver, a promise at each step,
 * the result frozen. On SQLite that cost a tenth of an add to cart's time, as much again as SQLite took to run the
 * add's statements. Inside `inTransaction` (./transaction, ./commitGroup) the connection is already ours: Kysely's
 * lock is held for the whole transaction, so no other query can run on it until we let go, and a statement run
 * directly runs in the transaction exactly as Kysely would have run it. Outside a held connection every query goes
 * through Kysely as before, waiting its turn for the connection.
 */
import type { Kysely, QueryResult } from 'kysely';
import type { StatementCache } from './statementCache';

/** Each SQLite database's kept statements, and its reading connection's, by the Kysely handle made for it (./connect). */
const statementsOfDatabase = new WeakMap<object, StatementCache>();
const readerOfDatabase = new WeakMap<object, StatementCache>();
/** The connections held now by a transaction, and their database's statements. */
const heldConnections = new WeakMap<object, StatementCache>();

/** `reader`: a second connection to the same file, for reads outside transactions (./outsideTransaction). */
export function registerSqliteStatements<DB>(
  db: Kysely<DB>,
  statements: StatementCache,
  reader?: StatementCache,
): void {
  statementsOfDatabase.set(db, statements);
  if (reader !== undefined) readerOfDatabase.set(db, reader);
}

/** The statements of `db` when it is a SQLite database made by ./connect. */
export const statementsOf = <DB>(db: Kysely<DB>): StatementCache | undefined => statementsOfDatabase.get(db);

/** The reading connection's statements of `db`, when it is a SQLite file opened by ./connect (not `:memory:`). */
export const readerOf = <DB>(db: Kysely<DB>): StatementCache | undefined => readerOfDatabase.get(db);

/** Marks `connection` (a handle on its database's writing connection, held by the caller) as held; returns the unmarking. */
export function holdConnection<DB>(connection: Kysely<DB>, statements: StatementCache): () => void {
  heldConnections.set(connection, statements);
  return () => heldConnections.delete(connection);
}

/** The statements to run directly on `db`, when it is a SQLite connection held by a transaction now. */
export const heldStatements = <DB>(db: Kysely<DB>): StatementCache | undefined => heldConnections.get(db);

/** One statement run as Kysely's SQLite driver runs it, with the same result. */
export function runStatement<R>(
  statements: StatementCache,
  sql: string,
  parameters: readonly unknown[],
): QueryResult<R> {
  const statement = statements.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
