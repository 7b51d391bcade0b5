/**
 * SQLite's write transactions committed in groups (issue 13).
 *
 * A commit writes every page the transaction changed to the -wal file, two system calls a page: for an add to cart,
 * about eight pages and a fifth of its time. Transactions that follow one another closely share one commit here:
 * the first opens a write transaction (BEGIN IMMEDIATE) on the connection and holds Kysely's lock on it; each runs
 * inside it as a savepoint, one after another, its own writes undone alone when it fails; the group commits once
 * GROUP_LIMIT transactions have joined, as soon as an event-loop turn passes without a new one, or at once when
 * another query asks for the connection (`connectionWanted`) or a lone transaction follows a lone group
 * (`waitsAlone`). Pages several of them change (the tables' last leaves, the file's header) are then written once,
 * and so is the commit.
 *
 * Nothing is answered before it is committed: each transaction's promise settles after its group's COMMIT, and if
 * that fails every transaction of the group fails with it (and nothing of any is stored). One that failed on its
 * own settles at once: nothing of it is in the group. While a group is open no other query can reach the connection
 * (Kysely's lock is held), so none reads what is not yet committed; such queries run after the commit, at most one
 * turn after the last transaction that joined.
 */
import type { Kysely } from 'kysely';
import type { Result } from '../../../core/result';
import { holdConnection, runStatement } from './heldConnection';
import type { StatementCache } from './statementCache';

/** Transactions per commit at most: what they wait for their answer is at most this many turns. */
export const GROUP_LIMIT = 16;

interface Group {
  /** The held connection, once the group's transaction is open. */
  ready: Promise<Kysely<never>>;
  /** Settles when the group has committed (or failed to). */
  committed: Promise<void>;
  /** Transactions that joined, and those done with their own work. */
  joined: number;
  finished: number;
  /** The last joiner's end: the next one starts after it. */
  tail: Promise<void>;
  /** Set when the group's transaction was lost (an error SQLite ended it for): joiners fail with it. */
  lost: unknown;
  /** Another query waits for the connection: commit as soon as no member is running. */
  wanted: boolean;
  /** Whether a lone transaction waits a turn for others: see `waitsAlone`. */
  waitAlone: boolean;
  commit(): void;
}

/** The group new transactions join, and the one holding the connection (the same one, or the last while the next waits). */
const openGroups = new WeakMap<StatementCache, Group>();
const holdingGroups = new WeakMap<StatementCache, Group>();

/**
 * Called whenever a query asks Kysely for the connection (./connect): a group holding it lets go as soon as its running
 * member is done, so reads and writes outside transactions wait one transaction at most, not a turn or more.
 */
export function connectionWanted(statements: StatementCache): void {
  const holding = holdingGroups.get(statements);
  if (holding === undefined) return;
  holding.wanted = true;
  if (holding.finished === holding.joined) holding.commit();
}

const SAVEPOINT = 'savepoint grouped';

/** Runs `work` as one transaction of a commit group of `db` (a SQLite database made by ./connect). */
export async function inGroupedTransaction<DB, T, E>(
  db: Kysely<DB>,
  statements: StatementCache,
  work: (trx: Kysely<DB>) => Promise<Result<T, E>>,
): Promise<Result<T, E>> {
  let group = openGroups.get(statements);
  if (group === undefined) openGroups.set(statements, (group = openGroup(db, statements)));
  const { committed } = group;
  // Joined before anything is awaited: a transaction started in the same turn joins the same group.
  group.joined++;
  if (group.joined >= GROUP_LIMIT) openGroups.delete(statements);
  const previous = group.tail;
  let done!: () => void;
  group.tail = new Promise((resolve) => (done = resolve));
  let result: Result<T, E>;
  try {
    await previous;
    const connection = (await group.ready) as unknown as Kysely<DB>;
    if (group.lost !== undefined) throw group.lost;
    result = await runSavepoint(group, statements, connection, work);
  } finally {
    group.finished++;
    done();
    scheduleCommit(group);
  }
  if (!result.ok) return result;
  await committed;
  return result;
}

/** `work` inside a savepoint: released when it succeeds, undone when it fails or throws. */
async function runSavepoint<DB, T, E>(
  group: Group,
  statements: StatementCache,
  connection: Kysely<DB>,
  work: (trx: Kysely<DB>) => Promise<Result<T, E>>,
): Promise<Result<T, E>> {
  runStatement(statements, SAVEPOINT, []);
  let result: Result<T, E>;
  try {
    result = await work(connection);
  } catch (error) {
    undo(group, statements, error);
    throw error;
  }
  if (!result.ok) {
    undo(group, statements, result.error);
    return result;
  }
  try {
    runStatement(statements, 'release grouped', []);
  } catch (error) {
    // Its writes must not stay in the group to be committed with the others.
    undo(group, statements, error);
    throw error;
  }
  return result;
}

/** Undoes the savepoint's writes; when SQLite already ended the whole transaction, the group is lost. */
function undo(group: Group, statements: StatementCache, cause: unknown): void {
  if (statements.inTransaction) {
    try {
      runStatement(statements, 'rollback to grouped', []);
      runStatement(statements, 'release grouped', []);
      return;
    } catch (error) {
      cause = error;
    }
  }
  group.lost ??= cause instanceof Error ? cause : new Error(`the transaction was ended by an error: ${String(cause)}`);
}

/** After a transaction is done: commits when nobody else joined by the next turn (or the group is full). */
function scheduleCommit(group: Group): void {
  if (group.finished !== group.joined) return;
  if (group.wanted || group.joined >= GROUP_LIMIT) return group.commit();
  if (group.joined === 1 && !group.waitAlone) return group.commit();
  const joined = group.joined;
  setImmediate(() => {
    if (group.joined === joined && group.finished === joined) group.commit();
  });
}

/** The size of each database's last group, and how many groups in a row were alone and did not wait. */
const lastGroupSize = new WeakMap<StatementCache, number>();
const aloneInARow = new WeakMap<StatementCache, number>();
/** One lone group in this many waits a turn anyway, to find out whether others would join again. */
const PROBE_EVERY = 8;

/**
 * Whether a group's first transaction, if it stays alone, waits a turn for others before committing. Waiting pays
 * when transactions come close together (adds to cart under load: groups of 16); when the last group had one
 * transaction (one shopper at a time, or queries through Kysely between them ending every group) it only delays
 * the answer, so the commit is made at once, but for one group in PROBE_EVERY.
 */
function waitsAlone(statements: StatementCache): boolean {
  if ((lastGroupSize.get(statements) ?? 1) > 1) return true;
  const alone = (aloneInARow.get(statements) ?? 0) + 1;
  aloneInARow.set(statements, alone % PROBE_EVERY);
  return alone % PROBE_EVERY === 0;
}

function openGroup<DB>(db: Kysely<DB>, statements: StatementCache): Group {
  let resolveReady!: (connection: Kysely<never>) => void;
  let rejectReady!: (error: unknown) => void;
  let resolveCommitted!: () => void;
  let rejectCommitted!: (error: unknown) => void;
  // Until the group's transaction is open, there is nothing to commit or let go of.
  let opened = false;
  let unmark = () => {};
  let letGo = () => {};
  const group: Group = {
    ready: new Promise((resolve, reject) => ((resolveReady = resolve), (rejectReady = reject))),
    committed: new Promise((resolve, reject) => ((resolveCommitted = resolve), (rejectCommitted = reject))),
    joined: 0,
    finished: 0,
    tail: Promise.resolve(),
    lost: undefined,
    wanted: false,
    waitAlone: waitsAlone(statements),
    commit: () => {
      // No one joins a group being committed.
      if (openGroups.get(statements) === group) openGroups.delete(statements);
      if (!opened || holdingGroups.get(statements) !== group) return;
      holdingGroups.delete(statements);
      lastGroupSize.set(statements, group.joined);
      // Not held any more once its members hear of the commit: from then on their queries go through Kysely.
      unmark();
      try {
        if (group.lost !== undefined) throw group.lost;
        runStatement(statements, 'commit', []);
        resolveCommitted();
      } catch (error) {
        try {
          if (statements.inTransaction) runStatement(statements, 'rollback', []);
        } catch {
          // The connection reports its own state on the next query.
        }
        rejectCommitted(error);
      } finally {
        letGo();
      }
    },
  };
  // A group that failed is awaited by its members only: never an unhandled rejection.
  group.committed.catch(() => {});
  group.ready.catch(() => {});
  // Holds Kysely's lock on the connection until the group is done (letGo).
  void db
    .connection()
    .execute(async (connection) => {
      runStatement(statements, 'begin immediate', []);
      opened = true;
      holdingGroups.set(statements, group);
      unmark = holdConnection(connection, statements);
      await new Promise<void>((resolve) => {
        letGo = resolve;
        resolveReady(connection as unknown as Kysely<never>);
      });
    })
    .catch((error: unknown) => {
      // BEGIN failed (another process kept the write lock past busy_timeout, say): this group's members fail.
      if (openGroups.get(statements) === group) openGroups.delete(statements);
      rejectReady(error);
      rejectCommitted(error);
    });
  return group;
}
