/**
 * Indexes for what the storefront gathers at /admin/gathered (issue 25), found by the query-plans test's day at
 * /admin: each list reads one page in an index's order, newest first with the id breaking ties as the pages do
 * (006's and 005's and 004's indexes ended at the time, and PostgreSQL sorted every row of the site to page them).
 * - a form's submissions (replaces form_submissions_by_form: the same columns, then the id);
 * - the newsletter's addresses, all or of one status (the mailing list had only its (site_id, email) key);
 * - the gift cards (replaces gift_cards_by_site);
 * - the subscriptions, all or of one status (replaces subscriptions_by_site; the list breaks ties by id ascending).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function gatheredIndexes(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('form_submissions_by_form').execute();
      await sql`CREATE INDEX form_submissions_by_form ON form_submissions (site_id, form_id, created_at DESC, id DESC)`.execute(
        db,
      );
      await sql`CREATE INDEX mailing_list_newest ON mailing_list (site_id, created_at DESC, id DESC)`.execute(db);
      await sql`CREATE INDEX mailing_list_by_status ON mailing_list (site_id, status, created_at DESC, id DESC)`.execute(
        db,
      );
      await db.schema.dropIndex('gift_cards_by_site').execute();
      await sql`CREATE INDEX gift_cards_by_site ON gift_cards (site_id, created_at DESC, id DESC)`.execute(db);
      await db.schema.dropIndex('subscriptions_by_site').execute();
      await sql`CREATE INDEX subscriptions_by_site ON subscriptions (site_id, created_at DESC, id)`.execute(db);
      await sql`CREATE INDEX subscriptions_by_site_status ON subscriptions (site_id, status, created_at DESC, id)`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('subscriptions_by_site_status').execute();
      await db.schema.dropIndex('subscriptions_by_site').execute();
      await db.schema
        .createIndex('subscriptions_by_site')
        .on('subscriptions')
        .columns(['site_id', 'created_at'])
        .execute();
      await db.schema.dropIndex('gift_cards_by_site').execute();
      await db.schema.createIndex('gift_cards_by_site').on('gift_cards').columns(['site_id', 'created_at']).execute();
      await db.schema.dropIndex('mailing_list_by_status').execute();
      await db.schema.dropIndex('mailing_list_newest').execute();
      await db.schema.dropIndex('form_submissions_by_form').execute();
      await db.schema
        .createIndex('form_submissions_by_form')
        .on('form_submissions')
        .columns(['site_id', 'form_id', 'created_at'])
        .execute();
    },
  };
}
