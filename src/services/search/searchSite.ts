/**
 * Finding a site's documents: every term must match a word (by its start), ranked so that a match in the title
 * beats one in the tags, variant values or headings, which beats one in the text; equal ranks keep the site file's
 * order. SQLite: FTS5 with bm25 weights per column. PostgreSQL: the tsvector's weights (A title, B details, C text)
 * with ts_rank. The terms come from src/core/search.ts `parseSearchQuery` (letters and digits only) and are still
 * quoted here, so no query can be read as full-text syntax.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../../db/connect';
import type { Database } from '../../db/tables';
import type { SearchKind } from './documents';

/** bm25 column weights on SQLite (title, details, text): a title match outweighs many text matches. */
const SQLITE_WEIGHTS = sql.raw('10.0, 4.0, 1.0');

export interface SearchHit {
  kind: SearchKind;
  itemId: string;
  path: string;
  title: string;
  details: string;
  summary: string;
}

export interface SearchResults {
  /** Every document the terms find. */
  total: number;
  /** The asked-for slice, best first. */
  hits: SearchHit[];
}

/** FTS5: each term a quoted prefix ("mug"*), all required. */
const ftsQuery = (terms: readonly string[]): string => terms.map((t) => `"${t.replaceAll('"', '""')}"*`).join(' AND ');
/** tsquery: each term a quoted prefix ('mug':*), all required. */
const tsQuery = (terms: readonly string[]): string => terms.map((t) => `'${t.replaceAll('\\', '\\\\').replaceAll("'", "''")}':*`).join(' & ');

interface Row {
  kind: string;
  item_id: string;
  path: string;
  title: string;
  details: string;
  summary: string;
}

const hitOf = (r: Row): SearchHit => ({
  kind: r.kind as SearchKind,
  itemId: r.item_id,
  path: r.path,
  title: r.title,
  details: r.details,
  summary: r.summary,
});

/** The documents of `siteId` that `terms` find: `limit` of them from `offset`, and how many there are in all. */
export async function searchSite(db: Kysely<Database>, siteId: string, terms: readonly string[], limit: number, offset: number): Promise<SearchResults> {
  if (terms.length === 0) return { total: 0, hits: [] };
  if (engineOf(db) === 'postgres') {
    const query = sql`to_tsquery('simple', ${tsQuery(terms)})`;
    const [count, rows] = await Promise.all([
      sql<{ n: number | string }>`SELECT count(*) AS n FROM search_documents WHERE site_id = ${siteId} AND terms @@ ${query}`.execute(db),
      sql<Row>`SELECT kind, item_id, path, title, details, summary FROM search_documents
        WHERE site_id = ${siteId} AND terms @@ ${query}
        ORDER BY ts_rank(terms, ${query}) DESC, position
        LIMIT ${limit} OFFSET ${offset}`.execute(db),
    ]);
    return { total: Number(count.rows[0]?.n ?? 0), hits: rows.rows.map(hitOf) };
  }
  const match = ftsQuery(terms);
  const [count, rows] = await Promise.all([
    sql<{ n: number }>`SELECT count(*) AS n FROM search_documents_fts JOIN search_documents d ON d.id = search_documents_fts.rowid
      WHERE search_documents_fts MATCH ${match} AND d.site_id = ${siteId}`.execute(db),
    sql<Row>`SELECT d.kind, d.item_id, d.path, d.title, d.details, d.summary
      FROM search_documents_fts JOIN search_documents d ON d.id = search_documents_fts.rowid
      WHERE search_documents_fts MATCH ${match} AND d.site_id = ${siteId}
      ORDER BY bm25(search_documents_fts, ${SQLITE_WEIGHTS}), d.position
      LIMIT ${limit} OFFSET ${offset}`.execute(db),
  ]);
  return { total: Number(count.rows[0]?.n ?? 0), hits: rows.rows.map(hitOf) };
}
