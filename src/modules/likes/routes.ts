/**
 * Likes of blog posts (src/core/likes.ts):
 *
 * - `GET /api/content/likes/{postId}` → `{ postId, likeCount, liked }` for the visitor asking (never cached);
 * - `POST /api/content/likes/{postId}` likes it, once per visitor (their liker cookie, given here when missing) →
 *   the same answer; a form posted without JavaScript (the post page's like form) is sent back to the post (303).
 *
 * A like is a write: posted from the post's shared cached page, which carries no per-visitor crumb, so the crumb or
 * the browser's word that the form is this site's own is asked for (src/platform/http/crumb.ts 'crumb-or-same-origin');
 * another website's request is refused. Each route has its own rate limit per client IP.
 */
import fastifyFormbody from '@fastify/formbody';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLikerId, LIKER_COOKIE, LIKER_COOKIE_MAX_AGE_SECONDS, LIKES_API } from '../../core/likes';
import type { Result } from '../../core/result';
import { getPostLikes, likedPostPath, likePost, type LikeRefusal } from './likes';
import { secureCookiesFor, type AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { RATE_LIMIT_WINDOW_MS } from '../../platform/http/rateLimits';
import { parseInput } from '../../platform/http/validation';
import { getLikesRoute, likeRoute, likesParams } from './routes.schema';

/** Likes and like-count reads per client IP per 10 s, on each of the two routes. */
export const LIKES_RATE_LIMIT = 30;

const REFUSALS: Record<LikeRefusal, () => ApiError> = {
  'post-not-found': () =>
    new ApiError('post-not-found', 'This site has no blog post with that id.', { field: 'postId' }),
  'likes-not-enabled': () => new ApiError('likes-not-enabled', 'Likes are not turned on for this site.'),
};

const answer = <T>(result: Result<T, LikeRefusal>): T => {
  if (!result.ok) throw REFUSALS[result.error]();
  return result.value;
};

const isForm = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

/** The visitor's liker id, or a new one given in a cookie on this answer. */
function likerOf(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): string {
  const known = request.cookies[LIKER_COOKIE];
  if (isLikerId(known)) return known;
  const likerId = randomBytes(16).toString('base64url');
  reply.setCookie(LIKER_COOKIE, likerId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookiesFor(ctx, request),
    maxAge: LIKER_COOKIE_MAX_AGE_SECONDS,
  });
  return likerId;
}

export async function registerLikeRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { ratePer10s?: number } = {},
): Promise<void> {
  const rateLimit = { max: options.ratePer10s ?? LIKES_RATE_LIMIT, timeWindow: RATE_LIMIT_WINDOW_MS };

  app.get(`${LIKES_API}/:postId`, { config: { rateLimit }, schema: getLikesRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { postId } = parseInput(likesParams, request.params, 'params');
    const site = await siteOf(request);
    const likerId = request.cookies[LIKER_COOKIE];
    return answer(await getPostLikes(ctx.db, site, postId, isLikerId(likerId) ? likerId : undefined));
  });

  await app.register(async (scope) => {
    // The like form of a post page, posted without JavaScript, is form-encoded (it has no fields).
    await scope.register(fastifyFormbody);
    scope.post(
      `${LIKES_API}/:postId`,
      { config: { rateLimit, crumb: 'crumb-or-same-origin' }, schema: likeRoute },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { postId } = parseInput(likesParams, request.params, 'params');
        const site = await siteOf(request);
        const likes = answer(await likePost(ctx.db, site, postId, likerOf(request, reply, ctx)));
        if (!isForm(request)) return likes;
        const path = await likedPostPath(ctx.db, site.id, postId);
        return reply.redirect(`${path ?? '/'}#likes`, 303);
      },
    );
  });
}
