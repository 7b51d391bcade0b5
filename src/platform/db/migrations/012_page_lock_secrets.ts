/**
 * One secret per site for the cookies that open password-protected pages (src/modules/pageLocks/pageLocks.ts signs them with
 * it): made on first use, kept across imports (a new import does not sign everyone out of a page; a changed page
 * password does, since the page's password is part of what is signed).
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function pageLockSecrets(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('page_lock_secrets')
        .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('page_lock_secrets').ifExists().execute();
    },
  };
}
