/** The tables the search module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Generated } from 'kysely';

/**
 * The site search's index (src/modules/search): one row per product, page and post, rewritten by every import.
 * `*_terms` are the folded words (src/core/search.ts `indexText`) the engines index: SQLite in the FTS5 table
 * `search_documents_fts` (kept in step by triggers), PostgreSQL in the generated tsvector column `terms` (GIN).
 */
export interface SearchDocumentsTable {
  id: Generated<number>;
  site_id: string;
  /** 'product' | 'page' | 'post' */
  kind: string;
  item_id: string;
  /** The result's site path. */
  path: string;
  title: string;
  /** Shown when a result matched them: tags and variant values, a page's headings, a post's tags and categories. */
  details: string;
  /** The text the snippet is cut from: a description, a page's text, a post's excerpt and body. */
  summary: string;
  /** Order among equally ranked results (the site file's order: products, pages, posts). */
  position: number;
  title_terms: string;
  detail_terms: string;
  summary_terms: string;
  /** From when its thing is on the storefront (migration 031; src/core/publishing.ts `liveFrom`): null = always. */
  live_from: string | null;
}

declare module '../../platform/db/tables' {
  interface Database {
    search_documents: SearchDocumentsTable;
  }
}
