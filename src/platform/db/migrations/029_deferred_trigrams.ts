/**
 * SQLite: the FTS5 trigram indexes of the orders' and customers' texts (migration 027) are filled when they are
 * searched, not in the order's transaction. FTS5 writes a segment of its index whenever a transaction or savepoint
 * ends, so each order (a savepoint of its commit group) paid for two segments (its e-mail and name; a new customer's),
 * and the merges that follow: about a tenth of an order's time, for a search an owner runs now and then.
 *
 * - trigram_pending (tbl, id): the rows of `orders_search` and `customers` not yet in their FTS5 index. An insert adds
 *   its row here (a plain B-tree row) instead of to the index;
 * - a change or removal of a row already indexed updates the index at once (as before); of a pending row, nothing to
 *   do (a removed row leaves the list; a changed one is indexed as it is when its turn comes). A customer's row is
 *   re-indexed only when its e-mail or name really changed (every order sets its name: the upsert's SET).
 * - src/platform/db/trigramSearch.ts `indexPendingTrigrams` indexes the pending rows, in one transaction, before a
 *   search reads the index; so a search sees every order placed before it.
 * The variants' index (changed by imports, not by sales) stays as it was. PostgreSQL's GIN indexes are unchanged.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

/** The deferred indexes: the content table and its searched columns. */
export const DEFERRED_TRIGRAMS = { orders_search: ['email', 'name'], customers: ['email', 'name'] } as const;

const trigger = (name: string, when: string, table: string, condition: string, statements: readonly string[]) =>
  `CREATE TRIGGER ${name} ${when} ON ${table} FOR EACH ROW${condition ? ` WHEN ${condition}` : ''}
   BEGIN ${statements.map((s) => `${s};`).join(' ')} END`;

export function deferredTrigrams(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres') return;
      await sql`CREATE TABLE trigram_pending (tbl TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (tbl, id))
        WITHOUT ROWID`.execute(db);
      for (const [table, columns] of Object.entries(DEFERRED_TRIGRAMS)) {
        const fts = `${table}_fts`;
        const list = columns.join(', ');
        const of = (row: string) => columns.map((c) => `${row}.${c}`).join(', ');
        const indexed = (row: string) =>
          `NOT EXISTS (SELECT 1 FROM trigram_pending WHERE tbl = '${table}' AND id = ${row}.id)`;
        const changed = columns.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
        for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`DROP TRIGGER ${fts}_${suffix}`).execute(db);
        await sql
          .raw(
            trigger(`${table}_fts_ai`, 'AFTER INSERT', table, '', [
              `INSERT INTO trigram_pending (tbl, id) VALUES ('${table}', new.id)`,
            ]),
          )
          .execute(db);
        await sql
          .raw(
            trigger(`${table}_fts_ad`, 'AFTER DELETE', table, '', [
              `INSERT INTO ${fts}(${fts}, rowid, ${list}) SELECT 'delete', old.id, ${of('old')} WHERE ${indexed('old')}`,
              `DELETE FROM trigram_pending WHERE tbl = '${table}' AND id = old.id`,
            ]),
          )
          .execute(db);
        await sql
          .raw(
            trigger(`${table}_fts_au`, `AFTER UPDATE OF ${list}`, table, `(${changed}) AND ${indexed('new')}`, [
              `INSERT INTO ${fts}(${fts}, rowid, ${list}) VALUES ('delete', old.id, ${of('old')})`,
              `INSERT INTO ${fts}(rowid, ${list}) VALUES (new.id, ${of('new')})`,
            ]),
          )
          .execute(db);
      }
    },
    async down(db: Kysely<any>) {
      if (engine === 'postgres') return;
      // The rows still waiting go into their index, then the triggers of 027 come back.
      for (const [table, columns] of Object.entries(DEFERRED_TRIGRAMS)) {
        const fts = `${table}_fts`;
        const list = columns.join(', ');
        const of = (row: string) => columns.map((c) => `${row}.${c}`).join(', ');
        await sql
          .raw(
            `INSERT INTO ${fts}(rowid, ${list}) SELECT s.id, ${of('s')}
             FROM trigram_pending p JOIN ${table} s ON s.id = p.id WHERE p.tbl = '${table}'`,
          )
          .execute(db);
        for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`DROP TRIGGER ${fts}_${suffix}`).execute(db);
        await sql
          .raw(
            trigger(`${fts}_ai`, 'AFTER INSERT', table, '', [
              `INSERT INTO ${fts}(rowid, ${list}) VALUES (new.id, ${of('new')})`,
            ]),
          )
          .execute(db);
        await sql
          .raw(
            trigger(`${fts}_ad`, 'AFTER DELETE', table, '', [
              `INSERT INTO ${fts}(${fts}, rowid, ${list}) VALUES ('delete', old.id, ${of('old')})`,
            ]),
          )
          .execute(db);
        await sql
          .raw(
            trigger(`${fts}_au`, `AFTER UPDATE OF ${list}`, table, '', [
              `INSERT INTO ${fts}(${fts}, rowid, ${list}) VALUES ('delete', old.id, ${of('old')})`,
              `INSERT INTO ${fts}(rowid, ${list}) VALUES (new.id, ${of('new')})`,
            ]),
          )
          .execute(db);
      }
      await sql`DROP TABLE trigram_pending`.execute(db);
    },
  };
}
