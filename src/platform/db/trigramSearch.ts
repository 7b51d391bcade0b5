/**
 * A search by a part of a text, on the trigram indexes of migration 027 (the terms: src/core/adminSearch.ts):
 * PostgreSQL's LIKE on pg_trgm's GIN indexes, SQLite's MATCH on an FTS5 table of `tokenize='trigram'` (case-folded,
 * a phrase matching where its characters stand together: a part of the text, as LIKE '%…%').
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

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
