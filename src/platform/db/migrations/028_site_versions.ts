/**
 * Site versions (issue 26): every save of a site (an import, an admin save, a restore) keeps the site file it made,
 * so that the history can list, compare and restore them.
 * - site_versions: one row per save, numbered by the sites.version it made; `content` is the site file (JSON, gzip)
 *   with its image paths mapped to the images' hashes;
 * - site_version_assets: the images those versions name, each stored once per site by its SHA-256, however many
 *   versions name it.
 * A site imported before this migration has no row yet: its history starts from its current state on first look.
 */
import { type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function siteVersions(engine: Engine): Migration {
  const binary = engine === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('site_versions')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('content', binary, (c) => c.notNull())
        .addPrimaryKeyConstraint('site_versions_pk', ['site_id', 'number'])
        .execute();
      await db.schema
        .createTable('site_version_assets')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .addPrimaryKeyConstraint('site_version_assets_pk', ['site_id', 'sha256'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('site_version_assets').execute();
      await db.schema.dropTable('site_versions').execute();
    },
  };
}
