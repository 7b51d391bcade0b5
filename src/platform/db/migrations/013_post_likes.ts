/**
 * Likes of blog posts (spec §3 simpleLikingEnabled, likeCount): one row per post and visitor — the visitor being the
 * sha256 of their liker cookie (src/modules/likes/likes.ts), so a second like of the same visitor changes nothing
 * (PRIMARY KEY). Posts are rewritten by every import, so likes name their post by id without a foreign key: they
 * survive an import, and a post that comes back keeps its likes.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function postLikes(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('post_likes')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('post_id', 'text', (c) => c.notNull())
        .addColumn('liker_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('post_likes_pk', ['site_id', 'post_id', 'liker_hash'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('post_likes').ifExists().execute();
    },
  };
}
