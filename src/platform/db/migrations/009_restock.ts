/**
 * Restock (back in stock) notifications (spec §2–§7): the shoppers' sign-ups — one per e-mail (lower-cased) and
 * variant of a site, UNIQUE (site_id, sku, email) — each with the time it was e-mailed (`notified_at`, set by the
 * send's conditional update: the claim that makes every sign-up e-mailed once) and the sha256 of its unsubscribe
 * link's token; and per variant with sign-ups, when it last came back in stock (import, refund) and whether the
 * automatic send still has to look at it. The row of a variant is also what a send locks, so that two sends of one
 * variant take turns. See docs/architecture.md.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function restock(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('restock_sign_ups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('joined_mailing_list', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('base_url', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('notified_at', 'text')
        .addColumn('unsubscribe_token_hash', 'text')
        .addUniqueConstraint('restock_sign_ups_one_per_email', ['site_id', 'sku', 'email'])
        .execute();
      // The waiting line of a variant, oldest first; the groups (product, variant) with their counts.
      await db.schema
        .createIndex('restock_sign_ups_line')
        .on('restock_sign_ups')
        .columns(['site_id', 'sku', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('restock_sign_ups_groups')
        .on('restock_sign_ups')
        .columns(['site_id', 'product_id', 'sku'])
        .execute();
      await db.schema
        .createIndex('restock_sign_ups_unsubscribe')
        .on('restock_sign_ups')
        .column('unsubscribe_token_hash')
        .execute();

      await db.schema
        .createTable('restock_variants')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('restocked_at', 'text')
        .addColumn('restock_source', 'text')
        .addColumn('restocked_qty', 'integer')
        .addColumn('auto_send_pending', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('restock_variants_pk', ['site_id', 'sku'])
        .execute();
      await db.schema
        .createIndex('restock_variants_pending')
        .on('restock_variants')
        .column('auto_send_pending')
        .execute();
    },

    async down(db: Kysely<any>) {
      await db.schema.dropTable('restock_variants').ifExists().execute();
      await db.schema.dropTable('restock_sign_ups').ifExists().execute();
    },
  };
}
