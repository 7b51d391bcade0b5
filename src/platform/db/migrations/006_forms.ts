/**
 * Form blocks (spec §4, §5, §7, §8): the single-use submission keys (stored hashed, with an expiry), the stored
 * submissions, the newsletter's mailing list (one row per e-mail and site; double opt-in: pending until the link in
 * the confirmation e-mail is followed, its token stored hashed), and ALTCHA's per-site HMAC secret and the solutions
 * already accepted (UNIQUE per site and challenge: a replay is refused, whatever process it reaches).
 * See docs/architecture.md.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function forms(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('form_keys')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('form_keys_expiry').on('form_keys').column('expires_at').execute();

      await db.schema
        .createTable('form_submissions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('form_id', 'text', (c) => c.notNull())
        .addColumn('form_name', 'text', (c) => c.notNull())
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('answers', 'text', (c) => c.notNull())
        .addColumn('page_path', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('form_submissions_by_form')
        .on('form_submissions')
        .columns(['site_id', 'form_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('mailing_list')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source_form_id', 'text')
        .addColumn('token_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('confirmed_at', 'text')
        .addUniqueConstraint('mailing_list_email_unique', ['site_id', 'email'])
        .execute();
      await db.schema.createIndex('mailing_list_token').on('mailing_list').column('token_hash').execute();

      await db.schema
        .createTable('captcha_secrets')
        .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('captcha_solutions')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('challenge_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('captcha_solutions_pk', ['site_id', 'challenge_id'])
        .execute();
      await db.schema.createIndex('captcha_solutions_expiry').on('captcha_solutions').column('expires_at').execute();
    },

    async down(db: Kysely<any>) {
      for (const table of ['captcha_solutions', 'captcha_secrets', 'mailing_list', 'form_submissions', 'form_keys']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
