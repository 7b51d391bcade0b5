/**
 * The account pages' form actions (every one carries the crumb: src/platform/http/crumb.ts):
 *
 * - POST /account/sign-in {email, password, next?} → 303 to `next` (a path of this site) or /account, with the
 *   HttpOnly session cookie; 401 and the form again when the e-mail or password is wrong; 429 when too many tries
 * - POST /account/sign-out → ends the session, 303 to /
 * - POST /account/invite/:token {password, confirm} → the account made and the link used (one transaction), the
 *   session cookie, 303 to /admin; the form again with the reason (422) or the link's state
 *
 * Sign-in tries are limited per client (the route's rate limit) and per account (ACCOUNT_TRIES per
 * ACCOUNT_WINDOW_MS, counted in Redis when configured), so a password cannot be guessed from many addresses either.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { describeRoute, formBody, htmlAnswer, redirectAnswer } from '../../../platform/http/apiDescription';
import type { AppContext } from '../../../platform/http/appContext';
import { ApiError } from '../../../platform/http/errors';
import { perWindow, RATE_LIMIT_WINDOW_MS, type RateLimitCounters } from '../../../platform/http/rateLimits';
import type { VisitorPages } from '../../../render/visitorPageKind';
import { siteOf } from '../../site';
import { endSession, startSession } from '../sessions';
import { clearSiteUserCookie, SITE_USER_COOKIE, setSiteUserCookie } from '../siteUserSession';
import { acceptInvite, INVITE_MESSAGES, INVITE_PATH, inviteState } from '../staff';
import { PASSWORD_MIN_LENGTH } from '../passwords';
import { checkCredentials } from '../users';
import { invitePath, linkProblem, tokenParams, type invite as inviteKind } from './invite';
import { safeNext, SIGN_IN_MESSAGES, SIGN_IN_PATH, SIGN_OUT_PATH, type signIn as signInKind } from './signIn';

/** Failed and successful tries per account (site + e-mail) in ACCOUNT_WINDOW_MS. */
export const ACCOUNT_TRIES = 10;
export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;

export interface AccountRouteOptions {
  /** Sign-in tries per minute per client IP (default 20). */
  signInsPerMinute?: number;
  counters?: RateLimitCounters;
}

const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;

export function accountActions(
  ctx: AppContext,
  options: AccountRouteOptions,
  kinds: { signIn: ReturnType<typeof signInKind>; invite: ReturnType<typeof inviteKind> },
): (scope: FastifyInstance, pages: VisitorPages) => void {
  const config = {
    rateLimit: {
      max: perWindow(options.signInsPerMinute ?? 20),
      timeWindow: RATE_LIMIT_WINDOW_MS,
      errorResponseBuilder: () => new ApiError('rate-limited', SIGN_IN_MESSAGES.tooMany),
    },
  };
  return (scope, pages) => {
    scope.post(SIGN_IN_PATH, { config, schema: signInRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const email = field(request.body, 'email');
      const password = field(request.body, 'password');
      const next = safeNext(field(request.body, 'next'));
      const typed = typeof email === 'string' ? email.slice(0, 256) : '';
      const again = (status: number, message: string) =>
        pages.send(kinds.signIn, { request, reply, site }, { next, error: message, email: typed, status });
      if (typeof email !== 'string' || typeof password !== 'string' || email.trim() === '' || password === '')
        return again(400, SIGN_IN_MESSAGES.missing);
      if (options.counters) {
        const { current, ttl } = await options.counters.incr(
          `sign-in:${site.id}:${email.trim().toLowerCase()}`,
          ACCOUNT_WINDOW_MS,
        );
        if (current > ACCOUNT_TRIES) {
          reply.header('retry-after', Math.max(1, Math.ceil(ttl / 1000)));
          return again(429, SIGN_IN_MESSAGES.tooMany);
        }
      }
      const user = await checkCredentials(ctx.db, site.id, email, password);
      if (!user) {
        request.log.info({ site: site.id }, 'site user sign-in refused');
        return again(401, SIGN_IN_MESSAGES.wrong);
      }
      await endSession(ctx.db, request.cookies[SITE_USER_COOKIE]);
      const { token } = await startSession(ctx.db, user, new Date(), request.headers['user-agent']);
      setSiteUserCookie(ctx, request, reply, token);
      return reply.header('cache-control', 'no-store').redirect(next, 303);
    });

    scope.post<{ Params: { token: string } }>(
      `${INVITE_PATH}/:token`,
      { schema: acceptInviteRoute },
      async (request, reply) => {
        const site = await siteOf(request);
        const visit = { request, reply, site };
        const token = request.params.token;
        const path = invitePath(token);
        const password = field(request.body, 'password');
        const confirm = field(request.body, 'confirm');
        const state = await inviteState(ctx.db, site.id, token);
        if (state.state !== 'open') return pages.send(kinds.invite, visit, linkProblem(path, state.state));
        const again = (message: string) =>
          pages.send(kinds.invite, visit, { shown: 'form', path, invite: state, error: message, status: 422 });
        if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH)
          return again(INVITE_MESSAGES.tooShort);
        if (typeof confirm !== 'string' || confirm !== password) return again(INVITE_MESSAGES.mismatch);
        const accepted = await acceptInvite(ctx.db, site.id, token, password);
        if (!accepted.ok) {
          const failure = accepted.error;
          if (failure.type === 'password') return again(failure.message);
          if (failure.type === 'alreadyUser')
            return pages.send(kinds.invite, visit, {
              shown: 'link',
              path,
              message: failure.message,
              signIn: true,
              status: 409,
            });
          return pages.send(kinds.invite, visit, linkProblem(path, failure.type));
        }
        await endSession(ctx.db, request.cookies[SITE_USER_COOKIE]);
        const { token: session } = await startSession(
          ctx.db,
          accepted.value,
          new Date(),
          request.headers['user-agent'],
        );
        setSiteUserCookie(ctx, request, reply, session);
        return reply.header('cache-control', 'no-store').redirect('/admin', 303);
      },
    );

    scope.post(SIGN_OUT_PATH, { schema: signOutRoute }, async (request, reply) => {
      await endSession(ctx.db, request.cookies[SITE_USER_COOKIE]);
      clearSiteUserCookie(ctx, request, reply);
      return reply.header('cache-control', 'no-store').redirect('/', 303);
    });
  };
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const signInRoute = describeRoute({
  operationId: 'signIn',
  summary: 'Sign a site user in (form post)',
  tags: ['account'],
  body: formBody(z.object({ email: z.string(), password: z.string(), next: z.string().optional(), crumb: z.string() })),
  response: {
    303: redirectAnswer('Signed in (the site_user cookie): to next, else /account.'),
    400: htmlAnswer("'Please enter your e-mail and password.'"),
    401: htmlAnswer("'The e-mail or password is not right. Please try again.'"),
    429: htmlAnswer("'Too many sign-in attempts. Please try again in a few minutes.', Retry-After."),
  },
});

const acceptInviteRoute = describeRoute({
  operationId: 'acceptStaffInvite',
  summary: 'Set the password of an invitation and sign in (form post)',
  tags: ['account'],
  params: tokenParams,
  body: formBody(z.object({ password: z.string(), confirm: z.string(), crumb: z.string() })),
  response: {
    303: redirectAnswer('The account is made, the link used, the site_user cookie set: to /admin.'),
    404: htmlAnswer(`'${INVITE_MESSAGES.unknown}'`),
    409: htmlAnswer(`'${INVITE_MESSAGES.alreadyUser}'`),
    410: htmlAnswer('The link was used or has expired (the page says which).'),
    422: htmlAnswer('A password too short or long, or the two not the same: the form again with the reason.'),
  },
});

const signOutRoute = describeRoute({
  operationId: 'signOut',
  summary: 'Sign out (form post)',
  tags: ['account'],
  body: formBody(z.object({ crumb: z.string() })),
  response: { 303: redirectAnswer('Signed out: to /.') },
});
