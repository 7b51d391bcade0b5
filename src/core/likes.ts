/**
 * Likes of blog posts (spec §3: website setting simpleLikingEnabled, a post's likeCount): one per visitor and post,
 * counted by the server (src/modules/likes/likes.ts), asked for and given through LIKES_API.
 */

/** `GET {LIKES_API}/{postId}` → the count and whether this visitor liked it; `POST` likes it. */
export const LIKES_API = '/api/content/likes';

/** The cookie that makes a visitor one liker (random, HttpOnly, a year long); the server keeps only its sha256. */
export const LIKER_COOKIE = 'vitrine_liker';
export const LIKER_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** A liker cookie's value as the server makes it: 128 random bits in base64url. */
export const isLikerId = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);

/** '0 likes', '1 like', '12 likes' (bad counts read as none). */
export function likeCountLabel(count: unknown): string {
  const n = typeof count === 'number' && Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  return n === 1 ? '1 like' : `${n} likes`;
}

/** What the likes call answers. */
export interface PostLikes {
  postId: string;
  likeCount: number;
  /** Whether the visitor asking has liked it. */
  liked: boolean;
}
