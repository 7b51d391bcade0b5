/**
 * Site users (spec §3 contributor roles, §6): the people who sign in to a site's account area — the shop's staff
 * (admin, store manager, …). One row per e-mail and site; the password is kept only as a slow-KDF hash (scrypt, see
 * src/modules/siteUsers/passwords.ts). Sessions are stored as the sha256 of the cookie's token, so a leaked
 * database cannot be replayed as a sign-in. See docs/architecture.md.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function siteUsers(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('site_users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('site_users_email_unique', ['site_id', 'email'])
        .execute();

      await db.schema
        .createTable('site_user_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('site_user_id', 'text', (c) => c.notNull().references('site_users.id').onDelete('cascade'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('site_user_sessions_by_user')
        .on('site_user_sessions')
        .column('site_user_id')
        .execute();
      await db.schema.createIndex('site_user_sessions_expiry').on('site_user_sessions').column('expires_at').execute();
    },

    async down(db: Kysely<any>) {
      await db.schema.dropTable('site_user_sessions').ifExists().execute();
      await db.schema.dropTable('site_users').ifExists().execute();
    },
  };
}
