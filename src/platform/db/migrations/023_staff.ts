/**
 * Staff at /admin (issue 25): the staff by role (the shop's notices go to its admins and store managers), invitations (an e-mailed one-time link that sets a password; only the token's sha256 is
 * kept), what each session shows the admin (last seen, the browser), and the day each site's low-stock e-mail went out
 * (at most one a day per site, claimed by the row's primary key in the e-mail's own transaction).
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function staff(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('staff_invites')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'integer', (c) => c.notNull())
        .addColumn('invited_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('staff_invites_by_email').on('staff_invites').columns(['site_id', 'email']).execute();
      await db.schema
        .createIndex('staff_invites_open')
        .on('staff_invites')
        .columns(['site_id', 'used_at', 'created_at'])
        .execute();
      // The staff who get the shop's notices (every order reads them: admins and store managers) and the staff list.
      await db.schema
        .createIndex('site_users_by_role')
        .on('site_users')
        .columns(['site_id', 'role', 'email'])
        .execute();
      await db.schema.alterTable('site_user_sessions').addColumn('last_seen_at', 'text').execute();
      await db.schema.alterTable('site_user_sessions').addColumn('user_agent', 'text').execute();
      await db.schema
        .createTable('low_stock_notices')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('variants', 'integer', (c) => c.notNull())
        .addColumn('sent_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('low_stock_notices_pk', ['site_id', 'day'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('low_stock_notices').ifExists().execute();
      await db.schema.alterTable('site_user_sessions').dropColumn('user_agent').execute();
      await db.schema.alterTable('site_user_sessions').dropColumn('last_seen_at').execute();
      await db.schema.dropIndex('site_users_by_role').ifExists().execute();
      await db.schema.dropTable('staff_invites').ifExists().execute();
    },
  };
}
