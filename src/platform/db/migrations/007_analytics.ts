/**
 * Analytics (issue 11; spec §3, §7, §9): raw events as the storefront's measurement module sends them (page hits,
 * census calls, commerce events, web-vitals records, client errors), kept ANALYTICS_RETENTION_DAYS days; their daily
 * roll-up, kept for good; and the daily salts of the visitor hash (a salt is deleted once its day is over, so a hash
 * can never be linked to another day's). No IP address or user agent is stored: a browser family, a device class, a
 * country when known, and the salted hash. See docs/architecture.md, "Analytics".
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function analytics(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('analytics_events')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('site_id', 'text', (c) => c.notNull())
        /** UTC day, YYYY-MM-DD: the unit of salts, roll-ups and retention. */
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        /** hit | census | commerce | vital | error */
        .addColumn('kind', 'text', (c) => c.notNull())
        /** RecordHit, button-click, CommerceShopping_VisitPDP, LCP, an error's message… */
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('page_type', 'integer')
        .addColumn('visitor_hash', 'text', (c) => c.notNull())
        /** Salted hash of the visitor and the start of their visit: distinct values are visits. */
        .addColumn('visit_hash', 'text')
        .addColumn('browser', 'text', (c) => c.notNull())
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('country', 'text')
        /** What the event is about: an item id (VisitPDP), an order id (purchase), a form id. */
        .addColumn('ref', 'text')
        /** A metric's value, a purchase's value (in currency units, §7). */
        .addColumn('value', 'double precision')
        .addColumn('rating', 'text')
        /** Bounded JSON of the rest (an error's stack, a commerce event's items). */
        .addColumn('detail', 'text')
        .execute();
      await db.schema
        .createIndex('analytics_events_by_day')
        .on('analytics_events')
        .columns(['site_id', 'day', 'kind'])
        .execute();
      await db.schema.createIndex('analytics_events_retention').on('analytics_events').columns(['day']).execute();

      await db.schema
        .createTable('analytics_daily')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('page_type', 'integer', (c) => c.notNull())
        .addColumn('events', 'integer', (c) => c.notNull())
        .addColumn('visitors', 'integer', (c) => c.notNull())
        .addColumn('visits', 'integer', (c) => c.notNull())
        .addColumn('refs', 'integer', (c) => c.notNull())
        .addColumn('value_sum', 'double precision', (c) => c.notNull())
        .addColumn('good', 'integer', (c) => c.notNull())
        .addColumn('needs_improvement', 'integer', (c) => c.notNull())
        .addColumn('poor', 'integer', (c) => c.notNull())
        .addColumn('p75', 'double precision')
        .addColumn('sample', 'text')
        .addPrimaryKeyConstraint('analytics_daily_pk', ['site_id', 'day', 'kind', 'name', 'path', 'page_type'])
        .execute();

      // The report page's tokens (`vitrine report token`), stored as their sha256.
      await db.schema
        .createTable('analytics_report_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('analytics_salts')
        .addColumn('day', 'text', (c) => c.primaryKey())
        .addColumn('salt', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('analytics_report_tokens').execute();
      await db.schema.dropTable('analytics_salts').execute();
      await db.schema.dropTable('analytics_daily').execute();
      await db.schema.dropTable('analytics_events').execute();
    },
  };
}
