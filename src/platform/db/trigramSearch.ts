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
 * PostgreSQL: every term in one of `texts` (SQL expressions, each lower-cased as its GIN index is), e.g.
 * `(lower(email) LIKE '%ada%' OR lower(name) LIKE '%ada%') AND (…)`.
 */
export function pgAllOf(texts: readonly RawBuilder<string>[], terms: readonly string[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.join(
    terms.map(
      (term) =>
        sql`(${sql.join(
          texts.map((text) => sql`${text} LIKE ${likeAnywhere(term)}`),
          sql` OR `,
        )})`,
    ),
    sql` AND `,
  )})`;
}
