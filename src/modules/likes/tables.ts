/** The tables the likes module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */

/** A visitor's like of a blog post (src/modules/likes/likes.ts): one per post and liker cookie (its sha256). */
export interface PostLikesTable {
  site_id: string;
  post_id: string;
  liker_hash: string;
  created_at: string;
}

declare module '../../platform/db/tables' {
  interface Database {
    post_likes: PostLikesTable;
  }
}
