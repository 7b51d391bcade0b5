/**
 * Likes of blog posts (spec §3 simpleLikingEnabled, likeCount): one per post and visitor, the visitor known by their
 * liker cookie (src/core/likes.ts) of which only the sha256 is stored — a like says nothing about who gave it. Liking
 * twice changes nothing (the table's primary key; `ON CONFLICT DO NOTHING`), so two tabs racing count once.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PostLikes } from '../../core/likes';
import { utcTime } from '../../core/publishing';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import type { Site } from '../site';

type Db = Kysely<Database>;

export type LikeRefusal = 'post-not-found' | 'likes-not-enabled';

/** What the database keeps of a liker cookie. */
export const likerHash = (likerId: string): string =>
  createHash('sha256').update(`post-like\n${likerId}`, 'utf8').digest('base64url');

/** Likes are a site setting (off by default). */
export const likesEnabled = (site: Pick<Site, 'settings'>): boolean =>
  site.settings.comments?.simpleLikingEnabled === true;

// The post's row is the catalog's; only whether it exists on the storefront now (not a draft: src/core/publishing.ts)
// is read here, by its primary key.
const postExists = async (db: Db, siteId: string, postId: string): Promise<boolean> => {
  const liveAt = utcTime(Date.now());
  return (
    (await db
      .selectFrom('posts')
      .select('id')
      .where('site_id', '=', siteId)
      .where('id', '=', postId)
      .where((eb) => eb.or([eb('live_from', 'is', null), eb('live_from', '<=', liveAt)]))
      .executeTakeFirst()) !== undefined
  );
};

const countLikes = async (db: Db, siteId: string, postId: string): Promise<number> => {
  const row = await db
    .selectFrom('post_likes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('site_id', '=', siteId)
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

const hasLiked = async (db: Db, siteId: string, postId: string, likerId: string | undefined): Promise<boolean> =>
  likerId !== undefined &&
  (await db
    .selectFrom('post_likes')
    .select('post_id')
    .where('site_id', '=', siteId)
    .where('post_id', '=', postId)
    .where('liker_hash', '=', likerHash(likerId))
    .executeTakeFirst()) !== undefined;

/** The like counts of several posts of a site (a blog list); posts nobody liked are absent. */
export async function likeCounts(db: Db, siteId: string, postIds: readonly string[]): Promise<Map<string, number>> {
  if (postIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('post_likes')
    .select(['post_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('site_id', '=', siteId)
    .where('post_id', 'in', [...postIds])
    .groupBy('post_id')
    .execute();
  return new Map(rows.map((r) => [r.post_id, Number(r.n)]));
}

/** A post's like count and whether the visitor with `likerId` liked it. */
export async function getPostLikes(
  db: Db,
  site: Site,
  postId: string,
  likerId: string | undefined,
): Promise<Result<PostLikes, LikeRefusal>> {
  if (!likesEnabled(site)) return err('likes-not-enabled');
  if (!(await postExists(db, site.id, postId))) return err('post-not-found');
  const [likeCount, liked] = await Promise.all([
    countLikes(db, site.id, postId),
    hasLiked(db, site.id, postId, likerId),
  ]);
  return ok({ postId, likeCount, liked });
}

/** The visitor with `likerId` likes the post (once: a second like is the first one); the count after it. */
export async function likePost(
  db: Db,
  site: Site,
  postId: string,
  likerId: string,
  now = new Date(),
): Promise<Result<PostLikes, LikeRefusal>> {
  if (!likesEnabled(site)) return err('likes-not-enabled');
  return inTransaction(db, async (trx) => {
    if (!(await postExists(trx, site.id, postId))) return err('post-not-found');
    await trx
      .insertInto('post_likes')
      .values({ site_id: site.id, post_id: postId, liker_hash: likerHash(likerId), created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['site_id', 'post_id', 'liker_hash']).doNothing())
      .execute();
    return ok({ postId, likeCount: await countLikes(trx, site.id, postId), liked: true });
  });
}

/** The post's page, /{collection}/{slug} (where a like posted without JavaScript returns to); undefined: no such post. */
export async function likedPostPath(db: Db, siteId: string, postId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('posts')
    .innerJoin('collections', (j) =>
      j.onRef('collections.site_id', '=', 'posts.site_id').onRef('collections.id', '=', 'posts.collection_id'),
    )
    .select(['collections.slug as collectionSlug', 'posts.slug as postSlug'])
    .where('posts.site_id', '=', siteId)
    .where('posts.id', '=', postId)
    .executeTakeFirst();
  return row && `/${row.collectionSlug}/${row.postSlug}`;
}
