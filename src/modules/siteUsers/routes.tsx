/**
 * The site users' sign-in (the account area's door; spec §6): a plain HTML form that works without JavaScript.
 *
 * - GET /account/sign-in[?next=/path] → the form (e-mail, password)
 * - POST /account/sign-in {email, password, next?} → 303 to `next` (a path of this site) or /account, with the
 *   HttpOnly session cookie; 401 and the form again when the e-mail or password is wrong; 429 when too many tries
 * - GET /account → who is signed in, and a sign-out button (303 to the sign-in when nobody is)
 * - POST /account/sign-out → ends the session, 303 to /
 * - GET/POST /account/invite/:token → a staff invitation's link sets the password (./inviteRoutes.tsx)
 *
 * Every POST carries the crumb (src/platform/http/crumb.ts). Tries are limited per client (the route's rate limit) and per
 * account (ACCOUNT_TRIES per ACCOUNT_WINDOW_MS, counted in Redis when configured), so a password cannot be guessed
 * from many addresses either.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { CRUMB_FIELD } from '../../core/crumb';
import { PageType } from '../../core/enums';
import { roleName } from '../../core/siteUserRoles';
import { CLIENT_DIST_DIR, readClientAssets } from '../../render/manifest';
import { PageRenderer } from '../../render/renderPath';
import { endSession, startSession } from './sessions';
import { checkCredentials } from './users';
import { registerInviteRoutes } from './inviteRoutes';
import type { Site } from '../site';
import type { AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { perWindow, RATE_LIMIT_WINDOW_MS, type RateLimitCounters } from '../../platform/http/rateLimits';
import { clearSiteUserCookie, currentSiteUser, SITE_USER_COOKIE, setSiteUserCookie } from './siteUserSession';
import { z } from 'zod';
import { describeRoute, formBody, htmlAnswer, pageRoute, redirectAnswer } from '../../platform/http/apiDescription';

export const SIGN_IN_PATH = '/account/sign-in';
export const ACCOUNT_PATH = '/account';
export const SIGN_OUT_PATH = '/account/sign-out';

export const SIGN_IN_MESSAGES = {
  wrong: 'The e-mail or password is not right. Please try again.',
  missing: 'Please enter your e-mail and password.',
  tooMany: 'Too many sign-in attempts. Please try again in a few minutes.',
} as const;

/** Failed and successful tries per account (site + e-mail) in ACCOUNT_WINDOW_MS. */
export const ACCOUNT_TRIES = 10;
export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;

export interface AccountRouteOptions {
  /** Sign-in tries per minute per client IP (default 20). */
  signInsPerMinute?: number;
  counters?: RateLimitCounters;
}

/** A path of this site to return to after signing in; anything else (another host, `//x`, `/\x`) → /account. */
const safeNext = (value: unknown): string =>
  typeof value === 'string' && value.length <= 500 && /^\/(?![/\\])[^\s]*$/.test(value) ? value : ACCOUNT_PATH;

const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;

export async function registerAccountRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: AccountRouteOptions = {},
): Promise<void> {
  const renderer = new PageRenderer(
    ctx.db,
    readClientAssets(ctx.clientDir ?? CLIENT_DIST_DIR, (m) => app.log.warn(m)),
  );
  const config = {
    rateLimit: {
      max: perWindow(options.signInsPerMinute ?? 20),
      timeWindow: RATE_LIMIT_WINDOW_MS,
      errorResponseBuilder: () => new ApiError('rate-limited', SIGN_IN_MESSAGES.tooMany),
    },
  };

  const sendPage = async (
    reply: FastifyReply,
    site: Site,
    path: string,
    title: string,
    body: ReactNode,
    status = 200,
  ) => {
    const rendered = await renderer.renderVisitorPage(site, {
      path,
      pageType: PageType.PAGE,
      title,
      description: title,
      body,
      status,
    });
    return reply
      .code(rendered.status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(rendered.html);
  };

  const signInForm = (request: FastifyRequest, reply: FastifyReply, next: string, error: string | null, email = '') => (
    <section className="account-sign-in" aria-labelledby="sign-in-title">
      <h1 className="page-title" id="sign-in-title">
        Sign in
      </h1>
      {error !== null ? (
        <p className="form-error" role="alert" id="sign-in-error">
          {error}
        </p>
      ) : null}
      <form
        method="post"
        action={SIGN_IN_PATH}
        className="account-form"
        {...(error !== null ? { 'aria-describedby': 'sign-in-error' } : {})}
      >
        <input type="hidden" name={CRUMB_FIELD} value={pageCrumb(request, reply, ctx)} />
        <input type="hidden" name="next" value={next} />
        <div className="form-field">
          <label htmlFor="sign-in-email">E-mail</label>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={256}
            defaultValue={email}
          />
        </div>
        <div className="form-field">
          <label htmlFor="sign-in-password">Password</label>
          <input
            id="sign-in-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={256}
          />
        </div>
        <button type="submit" className="button button--primary">
          Sign in
        </button>
      </form>
    </section>
  );

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 8 * 1024 });

    scope.get<{ Querystring: { next?: string } }>(SIGN_IN_PATH, { schema: signInPageRoute }, async (request, reply) => {
      const site = await siteOf(request);
      return sendPage(
        reply,
        site,
        SIGN_IN_PATH,
        'Sign in',
        signInForm(request, reply, safeNext(request.query.next), null),
      );
    });

    scope.post(SIGN_IN_PATH, { config, schema: signInRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const email = field(request.body, 'email');
      const password = field(request.body, 'password');
      const next = safeNext(field(request.body, 'next'));
      const typed = typeof email === 'string' ? email.slice(0, 256) : '';
      const again = (status: number, message: string) =>
        sendPage(reply, site, SIGN_IN_PATH, 'Sign in', signInForm(request, reply, next, message, typed), status);
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

    scope.get(ACCOUNT_PATH, { schema: accountPageRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const user = await currentSiteUser(request);
      if (!user)
        return reply
          .header('cache-control', 'no-store')
          .redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(ACCOUNT_PATH)}`, 303);
      return sendPage(
        reply,
        site,
        ACCOUNT_PATH,
        'Your account',
        <section className="account" aria-labelledby="account-title">
          <h1 className="page-title" id="account-title">
            Your account
          </h1>
          <p>
            Signed in as <strong>{user.email}</strong> {`(${roleName(user.role)}).`}
          </p>
          <form method="post" action={SIGN_OUT_PATH}>
            <input type="hidden" name={CRUMB_FIELD} value={pageCrumb(request, reply, ctx)} />
            <button type="submit" className="button">
              Sign out
            </button>
          </form>
        </section>,
      );
    });

    registerInviteRoutes(scope, ctx, sendPage);

    scope.post(SIGN_OUT_PATH, { schema: signOutRoute }, async (request, reply) => {
      await endSession(ctx.db, request.cookies[SITE_USER_COOKIE]);
      clearSiteUserCookie(ctx, request, reply);
      return reply.header('cache-control', 'no-store').redirect('/', 303);
    });
  });
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const signInPageRoute = pageRoute('signInPage', 'The site users’ sign-in form', {
  querystring: z.object({ next: z.string().optional().describe('A path of this site to go to after.') }),
});

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

const accountPageRoute = pageRoute('accountPage', 'Who is signed in, with a sign-out button', {
  response: { 303: redirectAnswer('Nobody is signed in: to the sign-in.') },
});

const signOutRoute = describeRoute({
  operationId: 'signOut',
  summary: 'Sign out (form post)',
  tags: ['account'],
  body: formBody(z.object({ crumb: z.string() })),
  response: { 303: redirectAnswer('Signed out: to /.') },
});
