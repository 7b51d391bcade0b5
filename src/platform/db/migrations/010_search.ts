/**
 * Site search (issue 10): `search_documents`, one row per product, page and blog post of a site (src/modules/search),
 * and each engine's full-text index over its folded words:
 * - SQLite: the FTS5 table `search_documents_fts` (external content: it indexes the rows' `*_terms` columns and
 *   stores no copy), kept in step by triggers on insert, update and delete; `id` is an INTEGER PRIMARY KEY so a
 *   VACUUM never renumbers the rows the index points at.
 * - PostgreSQL: the generated column `terms`, a tsvector of the 'simple' configuration (no stemming, no stop words:
 *   the words are already folded, and matching by prefix stands in for stemming in every language, as on SQLite)
 *   weighted A (title), B (details), C (text), with a GIN index.
 * It only makes the schema: the sites stored before it are indexed by the search module once it has run (its
 * follow-up, src/modules/search/indexStoredSites.ts), so this migration runs no code of today's rules.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function search(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('search_documents')
        .addColumn('id', engine === 'postgres' ? 'serial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title_terms', 'text', (c) => c.notNull())
        .addColumn('detail_terms', 'text', (c) => c.notNull())
        .addColumn('summary_terms', 'text', (c) => c.notNull())
        .addUniqueConstraint('search_documents_item', ['site_id', 'kind', 'item_id'])
        .execute();

      if (engine === 'postgres') {
        await sql`ALTER TABLE search_documents ADD COLUMN terms tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('simple', title_terms), 'A') ||
          setweight(to_tsvector('simple', detail_terms), 'B') ||
          setweight(to_tsvector('simple', summary_terms), 'C')) STORED`.execute(db);
        await sql`CREATE INDEX search_documents_terms ON search_documents USING GIN (terms)`.execute(db);
      } else {
        // unicode61 without its own diacritics folding: the columns hold words already folded (src/core/search.ts).
        await sql`CREATE VIRTUAL TABLE search_documents_fts USING fts5(
          title_terms, detail_terms, summary_terms,
          content='search_documents', content_rowid='id', tokenize='unicode61 remove_diacritics 0')`.execute(db);
        await sql`CREATE TRIGGER search_documents_ai AFTER INSERT ON search_documents BEGIN
          INSERT INTO search_documents_fts(rowid, title_terms, detail_terms, summary_terms)
          VALUES (new.id, new.title_terms, new.detail_terms, new.summary_terms);
        END`.execute(db);
        await sql`CREATE TRIGGER search_documents_ad AFTER DELETE ON search_documents BEGIN
          INSERT INTO search_documents_fts(search_documents_fts, rowid, title_terms, detail_terms, summary_terms)
          VALUES ('delete', old.id, old.title_terms, old.detail_terms, old.summary_terms);
        END`.execute(db);
        await sql`CREATE TRIGGER search_documents_au AFTER UPDATE ON search_documents BEGIN
          INSERT INTO search_documents_fts(search_documents_fts, rowid, title_terms, detail_terms, summary_terms)
          VALUES ('delete', old.id, old.title_terms, old.detail_terms, old.summary_terms);
          INSERT INTO search_documents_fts(rowid, title_terms, detail_terms, summary_terms)
          VALUES (new.id, new.title_terms, new.detail_terms, new.summary_terms);
        END`.execute(db);
      }
    },

    async down(db: Kysely<any>) {
      if (engine === 'sqlite') {
        for (const trigger of ['search_documents_ai', 'search_documents_ad', 'search_documents_au'])
          await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
        await sql`DROP TABLE IF EXISTS search_documents_fts`.execute(db);
      }
      await db.schema.dropTable('search_documents').ifExists().execute();
    },
  };
}
