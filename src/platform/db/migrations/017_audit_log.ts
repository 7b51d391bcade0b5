/**
 * The owner's area's audit log (issue 25): one row per change a staff member (or a `vitrine` command) made — who,
 * what, on which record, before → after — shown at /admin/audit and on each record's own page (an order's timeline).
 * Rows are only ever added.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function auditLog(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('subject_type', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute();
      await db.schema.createIndex('audit_log_by_site').on('audit_log').columns(['site_id', 'at', 'id']).execute();
      await db.schema
        .createIndex('audit_log_by_subject')
        .on('audit_log')
        .columns(['site_id', 'subject_type', 'subject_id', 'at'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('audit_log').ifExists().execute();
    },
  };
}
