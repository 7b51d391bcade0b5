/**
 * Keeping the index in step: an import calls `indexSite` inside its own transaction (src/modules/site/sites.ts
 * `replaceSite`), so the index always describes the stored version: a removed product is gone from it, a renamed
 * one is found by its new name, and a refused import changes neither. On SQLite the FTS5 table follows the rows
 * through triggers; on PostgreSQL the tsvector column is generated from them (migration 010).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { searchDocuments, type SearchableContent } from './documents';

/** Rows per INSERT (a post's text can be long: stay well under the engines' statement limits). */
const CHUNK = 50;

/** Replaces a site's documents with those of `content`. Call it inside the transaction that writes the content. */
export async function indexSite(
  trx: Transaction<Database> | Kysely<Database>,
  siteId: string,
  content: SearchableContent,
): Promise<number> {
  await trx.deleteFrom('search_documents').where('site_id', '=', siteId).execute();
  // Inserted in the site file's order, so the ids follow `position`: the search reads a tier's matches in id order
  // (FTS5's rowid order) as the site file's order, without sorting them (./searchSite.ts).
  const rows = searchDocuments(content).map((d) => ({ site_id: siteId, ...d }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto('search_documents')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
  return rows.length;
}
