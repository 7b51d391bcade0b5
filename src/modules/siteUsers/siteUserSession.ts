/**
 * Who is signed in: the site user of the request's `site_user` cookie (HttpOnly; see src/modules/siteUsers/), looked
 * up at most once per request. Account-area routes call `requireSiteUser(request, roles)`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { roleName } from '../../core/siteUserRoles';
import type { ContributorRole } from '../../core/enums';
import { SESSION_LIFETIME_MS, sessionUser } from './sessions';
import type { SiteUser } from './users';
import { secureCookiesFor, type AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';

export const SITE_USER_COOKIE = 'site_user';

declare module 'fastify' {
  interface FastifyRequest {
    /** Memoized lookup; use `currentSiteUser(request)`. */
    siteUserPromise: Promise<SiteUser | null> | null;
  }
  interface FastifyInstance {
    siteUserLookup: (siteId: string, token: string | undefined) => Promise<SiteUser | null>;
  }
}

export function registerSiteUserSession(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('siteUserPromise', null);
  app.decorate('siteUserLookup', (siteId: string, token: string | undefined) => sessionUser(ctx.db, siteId, token));
}

/** The signed-in site user of this request's site, or null. */
export async function currentSiteUser(request: FastifyRequest): Promise<SiteUser | null> {
  request.siteUserPromise ??= (async () => {
    const token = request.cookies[SITE_USER_COOKIE];
    if (token === undefined) return null;
    const site = await siteOf(request);
    return request.server.siteUserLookup(site.id, token);
  })();
  return request.siteUserPromise;
}

/** The signed-in site user, when their role is one of `roles`; else 401 'sign-in-required' or 403 'role-not-allowed'. */
export async function requireSiteUser(request: FastifyRequest, roles: readonly ContributorRole[]): Promise<SiteUser> {
  const user = await currentSiteUser(request);
  if (!user) throw new ApiError('sign-in-required', 'Please sign in to your account to do this.');
  if (!roles.includes(user.role as ContributorRole)) {
    throw new ApiError(
      'role-not-allowed',
      `Your account (${roleName(user.role)}) may not do this; it needs one of these roles: ${roles.map(roleName).join(', ')}.`,
    );
  }
  return user;
}

export function setSiteUserCookie(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SITE_USER_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookiesFor(ctx, request),
    maxAge: Math.floor(SESSION_LIFETIME_MS / 1000),
  });
}

export function clearSiteUserCookie(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SITE_USER_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookiesFor(ctx, request),
  });
}
