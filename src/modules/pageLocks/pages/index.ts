/**
 * The lock screen's form (spec §2, lock screen 103 → protected content 105), which works without JavaScript: a form
 * action of the page locks' module, whose refusals are the locked page's lock screen made again for this visitor (a
 * per-visitor page kind: src/render/visitorPageKind.ts).
 *
 * - POST /unlock-page {path, password, crumb?} → 303 to the page with the cookie that opens it (HttpOnly,
 *   SameSite=Lax, Secure on https, Path = the page's path, PAGE_UNLOCK_SECONDS) when the password is right; the lock
 *   screen again with the message beside the field when it is not (401) or is missing (400); 429 with Retry-After
 *   past PAGE_LOCK_TRIES tries per client and site in PAGE_LOCK_WINDOW_MS (counted in Redis when configured); 400
 *   (the app's error answer) when `path` names no protected page of this site.
 *
 * The lock screen is made per request, so its form carries the visitor's crumb; the browser's word that the form is
 * this site's own is enough too (src/platform/http/crumb.ts 'crumb-or-same-origin'), as for the other forms without
 * JavaScript. The cookie is checked by the page route (src/server/routes/pages.tsx) and signed by ../pageLocks.ts.
 */
import fastifyFormbody from '@fastify/formbody';
import { normalizeIP } from '@fastify/rate-limit';
import { z } from 'zod';
import {
  PAGE_LOCK_FIELDS,
  PAGE_LOCK_MESSAGES,
  PAGE_LOCK_PATH,
  PAGE_LOCK_TRIES,
  PAGE_LOCK_WINDOW_MS,
  PAGE_PASSWORD_MAX_LENGTH,
  PAGE_UNLOCK_SECONDS,
  pageLockCookie,
} from '../../../core/pageLock';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  redirectAnswer,
} from '../../../platform/http/apiDescription';
import { secureCookiesFor, type AppContext } from '../../../platform/http/appContext';
import { ApiError } from '../../../platform/http/errors';
import { PROTECTED_PAGE_CACHE_CONTROL } from '../../../platform/http/pageAnswer';
import type { RateLimitCounters } from '../../../platform/http/rateLimits';
import { visitorPageKind, type VisitorPageModule } from '../../../render/visitorPageKind';
import { siteOf } from '../../site';
import { checkPagePassword, unlockToken, type LockedPage } from '../pageLocks';

export interface PageLockRouteOptions {
  /** The app's rate-limit counters (src/platform/http/rateLimits.ts): tries are counted per client and site. */
  counters: RateLimitCounters;
  /** Tries per client and site in PAGE_LOCK_WINDOW_MS (default PAGE_LOCK_TRIES). */
  triesPerWindow?: number;
}

export const NOT_A_LOCKED_PAGE_MESSAGE = `The form's '${PAGE_LOCK_FIELDS.path}' does not name a password-protected page of this site.`;

const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;

/** A refused try: the page's lock screen again, with what was wrong beside the field (shown by the form only). */
export const lockScreenAgain = visitorPageKind<{ page: LockedPage; status: number; error: string }>({
  name: 'lockScreenAgain',
  paths: [],
  headers: { 'cache-control': PROTECTED_PAGE_CACHE_CONTROL },
  view: (_visit, { page, status, error }) => ({
    contentPage: { path: page.path, lock: { unlocked: false, status, error } },
  }),
});

export function pageLockPages(ctx: AppContext, options: PageLockRouteOptions): VisitorPageModule {
  const tries = options.triesPerWindow ?? PAGE_LOCK_TRIES;
  return {
    name: 'pageLocks',
    kinds: [lockScreenAgain],
    scope: async (scope) => {
      await scope.register(fastifyFormbody, { bodyLimit: 8 * 1024 });
    },
    actions: (scope, pages) => {
      const unlockOptions = { config: { crumb: 'crumb-or-same-origin' as const }, schema: unlockPageRoute };
      scope.post(PAGE_LOCK_PATH, unlockOptions, async (request, reply) => {
        const site = await siteOf(request);
        const path = field(request.body, PAGE_LOCK_FIELDS.path);
        const page = typeof path === 'string' && path.length <= 500 ? await pages.lockedPage(site, path) : undefined;
        if (!page) throw new ApiError('invalid-input', NOT_A_LOCKED_PAGE_MESSAGE, { field: PAGE_LOCK_FIELDS.path });
        const refused = (status: number, error: string) =>
          pages.send(lockScreenAgain, { request, reply, site }, { page, status, error });
        // Every try counts, right or wrong: a password cannot be found by many quick guesses from one client.
        const { current, ttl } = await options.counters.incr(
          `page-lock:${site.id}:${normalizeIP(request.ip)}`,
          PAGE_LOCK_WINDOW_MS,
        );
        if (current > tries) {
          reply.header('retry-after', Math.max(1, Math.ceil(ttl / 1000)));
          return refused(429, PAGE_LOCK_MESSAGES.tooMany);
        }
        const password = field(request.body, PAGE_LOCK_FIELDS.password);
        if (typeof password !== 'string' || password === '') return refused(400, PAGE_LOCK_MESSAGES.missing);
        if (password.length > PAGE_PASSWORD_MAX_LENGTH || !(await checkPagePassword(page, password))) {
          request.log.info({ site: site.id, page: page.id }, 'page password refused');
          return refused(401, PAGE_LOCK_MESSAGES.wrong);
        }
        reply.setCookie(pageLockCookie(page.id), await unlockToken(ctx.db, site, page), {
          path: page.path,
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookiesFor(ctx, request),
          maxAge: PAGE_UNLOCK_SECONDS,
        });
        return reply.header('cache-control', 'no-store').redirect(page.path, 303);
      });
    },
  };
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const unlockPageRoute = describeRoute({
  operationId: 'unlockPage',
  summary: 'Open a password-protected page (form post)',
  tags: ['pages'],
  body: formBody(z.object({ path: z.string(), password: z.string(), crumb: z.string().optional() })),
  response: {
    303: redirectAnswer('The right password: to path, with the page’s cookie (7 days).'),
    400: errorAnswer(
      "'Please enter the password.' (the lock screen); invalid-input: path names no protected page (an HTML page for a browser).",
    ),
    401: htmlAnswer("The lock screen: 'That password is not right. Please try again.'"),
    429: htmlAnswer("The lock screen: 'Too many tries. Please wait a minute and try again.', Retry-After."),
  },
});
