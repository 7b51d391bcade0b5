/**
 * Finding a site's documents: every term must match a word (by its start). The order is by tiers, then the site
 * file's order within a tier:
 *   1. every term is found in the title;
 *   2. every term is found in the title or the details (tags, variant values, headings);
 *   3. the others (some term only in the text).
 * So a match in the title beats one in the details, which beats one in the text, and equal tiers keep the order the
 * merchant gave the catalog.
 *
 * Why tiers and not a relevance score (bm25 / ts_rank, used before issue 13): a score is known only once every match
 * has been scored, so the first page of a word most products contain cost a row lookup and a rank for each of them
 * (4.85× slower at 10,000 products than at 100, and growing with the catalog). A tier is a full-text query of its
 * own whose matches come out of the index in row order (= the site file's order: `indexSite` inserts the documents in
 * that order), so a page needs only the first `offset + limit + 1` rows of a tier or two, whatever the catalog's size.
 * The total is counted up to SEARCH_COUNT_CAP (the page says "More than 100 results" beyond it), as large search
 * engines do: an exact count of a common word costs as much as ranking it.
 *
 * SQLite: FTS5, a tier being a column filter ({title_terms}: …) and NOT the tiers before it; the index hands its
 * matches in rowid order, so LIMIT stops the scan. What remains proportional to the matches is FTS5 reading its
 * doclists: the merge of the words a prefix stands for, and a tier few matches belong to (a word in every description
 * and no title) read to its end, a few tens of ns per match against a row lookup and a bm25 before. PostgreSQL: the tsvector's weights (A title, B details,
 * C text) give the tiers ('mug':*A); GIN answers a set, not an order, so the matches are read and sorted by tier (one
 * heap read each, no score computed); the count stops at the cap.
 *
 * The terms come from src/core/search.ts `parseSearchQuery` (letters and digits only) and are still quoted here, so
 * no query can be read as full-text syntax.
 */
import { sql, type Kysely } from 'kysely';
import { utcTime } from '../../core/publishing';
import { SEARCH_COUNT_CAP } from '../../core/search';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import type { SearchKind } from './documents';

export interface SearchHit {
  kind: SearchKind;
  itemId: string;
  path: string;
  title: string;
  details: string;
  summary: string;
  /** The terms this document holds (only set by `searchSiteSomeWords`: every term otherwise). */
  termsFound?: string[];
}

export interface SearchResults {
  /** Every document the terms find, counted up to SEARCH_COUNT_CAP + 1. */
  total: number;
  /** Whether there are more than SEARCH_COUNT_CAP (then `total` is only a lower bound). */
  totalCapped: boolean;
  /** The asked-for slice, best first. */
  hits: SearchHit[];
  /** Whether a result follows the slice. */
  more: boolean;
}

/** What the storefront shows at `liveAt`: documents of published things and of scheduled ones whose time has come. */
const isLive = (liveAt: string, table = '') =>
  sql`(${sql.raw(`${table}live_from`)} IS NULL OR ${sql.raw(`${table}live_from`)} <= ${liveAt})`;

const quoted = (term: string) => `"${term.replaceAll('"', '""')}"*`;
/** FTS5: each term a quoted prefix ("mug"*), all required; `columns` limits where they may be found. */
const ftsQuery = (terms: readonly string[], columns?: string): string => {
  const all = terms.map(quoted).join(' AND ');
  return columns ? `{${columns}} : (${all})` : all;
};
/** The FTS5 query of each tier, best first: its own matches and none of an earlier tier's. */
const ftsTiers = (terms: readonly string[]): string[] => {
  const title = ftsQuery(terms, 'title_terms');
  const details = ftsQuery(terms, 'title_terms detail_terms');
  return [title, `(${details}) NOT (${title})`, `(${ftsQuery(terms)}) NOT (${details})`];
};

/** tsquery: each term a quoted prefix ('mug':*), all required; `weights` limits where they may be found ('mug':*AB). */
const tsQuery = (terms: readonly string[], weights = ''): string =>
  terms.map((t) => `'${t.replaceAll('\\', '\\\\').replaceAll("'", "''")}':*${weights}`).join(' & ');

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

/**
 * The documents of `siteId` that `terms` find: `limit` of them from `offset`, whether more follow, and how many
 * there are (up to the cap). The work is bounded by `offset + limit` and the cap, not by the number of matches.
 */
export async function searchSite(
  db: Kysely<Database>,
  siteId: string,
  terms: readonly string[],
  limit: number,
  offset: number,
  liveAt: string = utcTime(Date.now()),
): Promise<SearchResults> {
  if (terms.length === 0) return { total: 0, totalCapped: false, hits: [], more: false };
  const { counted, hits, more } =
    engineOf(db) === 'postgres'
      ? await searchPostgres(db, siteId, terms, limit, offset, liveAt)
      : await searchSqlite(db, siteId, terms, limit, offset, liveAt);
  return { total: Math.min(counted, SEARCH_COUNT_CAP + 1), totalCapped: counted > SEARCH_COUNT_CAP, hits, more };
}

interface Found {
  /** Matches counted, up to SEARCH_COUNT_CAP + 1. */
  counted: number;
  hits: SearchHit[];
  more: boolean;
}

async function searchSqlite(
  db: Kysely<Database>,
  siteId: string,
  terms: readonly string[],
  limit: number,
  offset: number,
  liveAt: string,
): Promise<Found> {
  const live = isLive(liveAt, 'd.');
  /** A query's first `n` matches in the site, in the site file's order (FTS5's rowid order: no sort). */
  const first = async (match: string, n: number) =>
    (
      await sql<Row>`SELECT d.kind, d.item_id, d.path, d.title, d.details, d.summary
        FROM search_documents_fts JOIN search_documents d ON d.id = search_documents_fts.rowid
        WHERE search_documents_fts MATCH ${match} AND d.site_id = ${siteId} AND ${live}
        ORDER BY search_documents_fts.rowid LIMIT ${n}`.execute(db)
    ).rows;
  // One row past the slice says whether a next page exists.
  const wanted = offset + limit + 1;
  const rows: Row[] = [];
  // Tiers in order until the slice (and the row after it) is filled: later tiers are not read for an early page.
  for (const tier of ftsTiers(terms)) {
    rows.push(...(await first(tier, wanted - rows.length)));
    if (rows.length >= wanted) break;
  }
  // Every tier read to its end: `rows` is every match. Otherwise they are counted, up to the cap.
  const counted =
    rows.length < wanted || rows.length > SEARCH_COUNT_CAP
      ? rows.length
      : (
          await sql<{
            n: number;
          }>`SELECT count(*) AS n FROM (SELECT 1 FROM search_documents_fts JOIN search_documents d ON d.id = search_documents_fts.rowid
          WHERE search_documents_fts MATCH ${ftsQuery(terms)} AND d.site_id = ${siteId} AND ${live} LIMIT ${SEARCH_COUNT_CAP + 1})`.execute(
            db,
          )
        ).rows[0]!.n;
  return { counted, hits: rows.slice(offset, offset + limit).map(hitOf), more: rows.length > offset + limit };
}

async function searchPostgres(
  db: Kysely<Database>,
  siteId: string,
  terms: readonly string[],
  limit: number,
  offset: number,
  liveAt: string,
): Promise<Found> {
  const live = isLive(liveAt);
  const all = sql`to_tsquery('simple', ${tsQuery(terms)})`;
  const title = sql`to_tsquery('simple', ${tsQuery(terms, 'A')})`;
  const details = sql`to_tsquery('simple', ${tsQuery(terms, 'AB')})`;
  const [count, rows] = await Promise.all([
    // Stops at the cap: the heap is read in the bitmap's order until enough rows were found.
    sql<{ n: number | string }>`SELECT count(*) AS n FROM (SELECT 1 FROM search_documents
      WHERE site_id = ${siteId} AND ${live} AND terms @@ ${all} LIMIT ${SEARCH_COUNT_CAP + 1}) capped`.execute(db),
    sql<Row & { rank: number }>`SELECT kind, item_id, path, title, details, summary,
        CASE WHEN terms @@ ${title} THEN 1 WHEN terms @@ ${details} THEN 2 ELSE 3 END AS rank
      FROM search_documents
      WHERE site_id = ${siteId} AND ${live} AND terms @@ ${all}
      ORDER BY rank, position
      LIMIT ${limit + 1} OFFSET ${offset}`.execute(db),
  ]);
  return {
    counted: Number(count.rows[0]?.n ?? 0),
    hits: rows.rows.slice(0, limit).map(hitOf),
    more: rows.rows.length > limit,
  };
}

/**
 * The fallback when no document holds every term (two or more terms): the documents of `siteId` holding at least one,
 * those holding the most terms first, then in the site file's order; each hit says which terms it holds. Unlike
 * `searchSite`, every match is read and sorted (the count of terms found is known only per match); it runs only after
 * `searchSite` found nothing, and the total is still counted up to the cap.
 */
export async function searchSiteSomeWords(
  db: Kysely<Database>,
  siteId: string,
  terms: readonly string[],
  limit: number,
  offset: number,
  liveAt: string = utcTime(Date.now()),
): Promise<SearchResults> {
  if (terms.length === 0) return { total: 0, totalCapped: false, hits: [], more: false };
  const postgres = engineOf(db) === 'postgres';
  // PostgreSQL's queries here name no table; SQLite's join the FTS table, whose columns differ.
  const live = isLive(liveAt, postgres ? '' : 'd.');
  // Whether the document holds each term: one 0/1 column per term (found_0, found_1, …), summed for the order.
  const found = terms.map((term) =>
    postgres
      ? sql<number>`(terms @@ to_tsquery('simple', ${tsQuery([term])}))::int`
      : sql<number>`(d.id IN (SELECT rowid FROM search_documents_fts WHERE search_documents_fts MATCH ${ftsQuery([term])}))`,
  );
  const columns = sql.join(found.map((f, i) => sql`${f} AS ${sql.ref(`found_${i}`)}`));
  const score = sql.join(found, sql` + `);
  const any = postgres ? terms.map((t) => tsQuery([t])).join(' | ') : terms.map(quoted).join(' OR ');
  const [count, rows] = postgres
    ? await Promise.all([
        sql<{ n: number | string }>`SELECT count(*) AS n FROM (SELECT 1 FROM search_documents
          WHERE site_id = ${siteId} AND ${live} AND terms @@ to_tsquery('simple', ${any}) LIMIT ${SEARCH_COUNT_CAP + 1}) capped`.execute(
          db,
        ),
        sql<Row & Record<string, number>>`SELECT kind, item_id, path, title, details, summary, ${columns}
          FROM search_documents d
          WHERE site_id = ${siteId} AND ${live} AND terms @@ to_tsquery('simple', ${any})
          ORDER BY ${score} DESC, position
          LIMIT ${limit + 1} OFFSET ${offset}`.execute(db),
      ])
    : [
        await sql<{
          n: number;
        }>`SELECT count(*) AS n FROM (SELECT 1 FROM search_documents_fts JOIN search_documents d ON d.id = search_documents_fts.rowid
          WHERE search_documents_fts MATCH ${any} AND d.site_id = ${siteId} AND ${live} LIMIT ${SEARCH_COUNT_CAP + 1})`.execute(
          db,
        ),
        await sql<
          Row & Record<string, number>
        >`SELECT d.kind, d.item_id, d.path, d.title, d.details, d.summary, ${columns}
          FROM search_documents_fts JOIN search_documents d ON d.id = search_documents_fts.rowid
          WHERE search_documents_fts MATCH ${any} AND d.site_id = ${siteId} AND ${live}
          ORDER BY ${score} DESC, d.position
          LIMIT ${limit + 1} OFFSET ${offset}`.execute(db),
      ];
  const counted = Number(count.rows[0]?.n ?? 0);
  const hits = rows.rows
    .slice(0, limit)
    .map((r) => ({ ...hitOf(r), termsFound: terms.filter((_, i) => Number(r[`found_${i}`]) === 1) }));
  return {
    total: Math.min(counted, SEARCH_COUNT_CAP + 1),
    totalCapped: counted > SEARCH_COUNT_CAP,
    hits,
    more: rows.rows.length > limit,
  };
}
