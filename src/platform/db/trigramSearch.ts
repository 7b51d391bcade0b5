/**
 * A search by a part of a text, on the trigram indexes of migration 027 (the terms: src/core/adminSearch.ts):
 * PostgreSQL's LIKE on pg_trgm's GIN indexes, SQLite's MATCH on an FTS5 table of `tokenize='trigram'` (case-folded,
 * a phrase matching where its characters stand together: a part of the text, as LIKE '%…%').
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { ok } from '../../core/result';
import { engineOf } from './connect';
import { DEFERRED_TRIGRAMS } from './migrations/029_deferred_trigrams';
import type { Database } from './tables';
import { inTransaction } from './transaction';

/** A LIKE pattern of a text anywhere (PostgreSQL's LIKE escapes with a backslash by default). */
export const likeAnywhere = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An FTS5 query matching every term, each as a phrase (its characters together, in any column). */
export const ftsAllOf = (terms: readonly string[]): string =>
  terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');

/**
 * Every term in one of `texts` (SQL expressions, lower-cased), e.g. `(lower(email) LIKE '%ada%' OR lower(name) LIKE
 * '%ada%') AND (…)`: on PostgreSQL, what its GIN trigram indexes serve (each expression as its index has it); on
 * SQLite (whose LIKE takes its escape character from ESCAPE), a filter of rows read otherwise.
 */
export function likeAllOf(
  texts: readonly RawBuilder<string>[],
  terms: readonly string[],
  engine: 'sqlite' | 'postgres' = 'postgres',
): RawBuilder<SqlBool> {
  const escape = engine === 'sqlite' ? sql` ESCAPE '\\'` : sql``;
  return sql<SqlBool>`(${sql.join(
    terms.map(
      (term) =>
        sql`(${sql.join(
          texts.map((text) => sql`${text} LIKE ${likeAnywhere(term)}${escape}`),
          sql` OR `,
        )})`,
    ),
    sql` AND `,
  )})`;
}

/** PostgreSQL: every term in one of `texts`, from their GIN trigram indexes (likeAllOf). */
export const pgAllOf = (texts: readonly RawBuilder<string>[], terms: readonly string[]): RawBuilder<SqlBool> =>
  likeAllOf(texts, terms, 'postgres');

/**
 * SQLite: puts the rows of `table` that are waiting for its FTS5 trigram index (migration 029: inserted since the
 * last search) into the index, in one write transaction; a search calls it before reading the index, so it sees every
 * row written before it. Nothing waiting: one read, no write. PostgreSQL keeps its GIN indexes itself: nothing to do.
 */
export async function indexPendingTrigrams(db: Kysely<Database>, table: keyof typeof DEFERRED_TRIGRAMS): Promise<void> {
  if (engineOf(db) !== 'sqlite') return;
  const waiting = await sql`SELECT 1 FROM trigram_pending WHERE tbl = ${table} LIMIT 1`.execute(db);
  if (waiting.rows.length === 0) return;
  const columns = DEFERRED_TRIGRAMS[table];
  const list = columns.join(', ');
  await inTransaction(db, async (trx) => {
    // Another search may have indexed them meanwhile: the rows still listed, under the write lock.
    await sql
      .raw(
        `INSERT INTO ${table}_fts(rowid, ${list}) SELECT s.id, ${columns.map((c) => `s.${c}`).join(', ')}
         FROM trigram_pending p JOIN ${table} s ON s.id = p.id WHERE p.tbl = '${table}'`,
      )
      .execute(trx);
    await sql`DELETE FROM trigram_pending WHERE tbl = ${table}`.execute(trx);
    return ok(undefined);
  });
}
