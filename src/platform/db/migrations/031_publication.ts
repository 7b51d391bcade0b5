/**
 * Editor statuses (issue 26: Draft, Scheduled, Needs Review; src/core/publishing.ts): from when each page, post and
 * product is on the storefront, beside its record, so the storefront's reads filter in SQL (a product list's page, a
 * count, a search's tiers stay what they were, less what is not live):
 * - products.live_from, pages.live_from, posts.live_from, search_documents.live_from: NULL for a published thing (every
 *   row stored before this migration), the UTC time of a scheduled one, '9999-12-31T23:59:59.999Z' for a draft or one
 *   that needs review. A read at instant t keeps `live_from IS NULL OR live_from <= t` (ISO times in UTC compare as
 *   text in time order).
 * - sites.publish_times: the site's upcoming publish times (JSON array of ISO UTC times, sorted) as of its last save:
 *   the page cache keys on the site's version and how many of them have come (`liveEdition`), so a scheduled thing
 *   appears at its time on every process without a new version.
 * Every row stored before is published, as its site file (no status) says: nothing to fill in.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

const TABLES = ['products', 'pages', 'posts', 'search_documents'] as const;

export function publication(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of TABLES) await db.schema.alterTable(table).addColumn('live_from', 'text').execute();
      await db.schema
        .alterTable('sites')
        .addColumn('publish_times', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('sites').dropColumn('publish_times').execute();
      for (const table of TABLES) await db.schema.alterTable(table).dropColumn('live_from').execute();
    },
  };
}
