/**
 * The server's side of CSRF defence (spec §7, §8; names in src/core/crumb.ts):
 *
 * - every HTML answer gives a visitor without a crumb a new one, in a cookie the page's scripts can read
 *   (SameSite=Lax, session-long);
 * - every state-changing request (POST, PUT, PATCH, DELETE) is refused with 403 when its Origin names another host
 *   or its Sec-Fetch-Site says cross-site, and when it does not send back the crumb cookie's value in the crumb header
 *   (or, for a form posted without JavaScript, in its hidden crumb field). The §8 crumb failure text is the answer.
 *
 * Another site can make a browser send this site's cookies, but can read none of them, so it cannot write the header.
 * Routes called by other servers (payment webhooks) opt out with `config: { crumb: false }` and authenticate
 * themselves (signatures); beacon routes (analytics) take `config: { crumb: 'origin-only' }`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADD_TO_CART_MESSAGES } from '../../core/addToCartErrors';
import { CRUMB_COOKIE, CRUMB_FAILURE_CODE, CRUMB_FIELD, CRUMB_HEADER, isCrumb } from '../../core/crumb';
import { secureCookiesFor, type AppContext } from './appContext';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the route is called by other servers and authenticates itself; no crumb or Origin check.
     * 'origin-only': browsers call it without a way to add a header (navigator.sendBeacon) and it changes nothing a
     * shopper owns (analytics); another website's requests are still refused, the crumb is not asked for.
     * 'crumb-or-same-origin': a form of a shared cached page posted without JavaScript (add to cart), which cannot
     * carry a per-visitor crumb: the crumb, or the browser's word that the form is this site's own (Sec-Fetch-Site
     * same-origin, or an Origin naming this host; every current browser sends one on a form post). A request with
     * neither is refused like a missing crumb.
     */
    crumb?: boolean | 'origin-only' | 'crumb-or-same-origin';
  }
}

export const CROSS_SITE_MESSAGE =
  'This request came from another website, so it was refused. Please use this shop’s own pages.';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The crumb a request was given during this answer (so one answer never sets two). */
const given = new WeakMap<FastifyRequest, string>();

/** A new crumb: 128 random bits. */
export const newCrumb = (): string => randomBytes(16).toString('base64url');

/** The crumb cookie's attributes: readable by the page's scripts, sent with same-site requests, for the whole site. */
export const crumbCookieOptions = (secure: boolean) =>
  ({ path: '/', sameSite: 'lax', httpOnly: false, secure }) as const;

/** The visitor's crumb, for a form's hidden field; a visitor without one is given one (cookie set on this answer). */
export function pageCrumb(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): string {
  // No cookies parsed when the request was refused before the cookie plugin ran (no Host, a bad request line).
  const known = given.get(request) ?? request.cookies?.[CRUMB_COOKIE];
  if (isCrumb(known)) return known;
  const crumb = newCrumb();
  reply.setCookie(CRUMB_COOKIE, crumb, crumbCookieOptions(secureCookiesFor(ctx, request)));
  given.set(request, crumb);
  return crumb;
}

/**
 * Puts the check on every state-changing route as it is declared (GETs, the hot path of cached pages, never run it),
 * and returns what the app's one onSend hook calls for each answer: pages (cached ones too) hand out the crumb the
 * page's scripts will send back.
 */
export function registerCrumb(
  app: FastifyInstance,
  ctx: AppContext,
): (request: FastifyRequest, reply: FastifyReply) => void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => STATE_CHANGING.has(m)) || route.config?.crumb === false) return;
    const existing = route.preValidation === undefined ? [] : [route.preValidation].flat();
    // After body parsing, so a plain form's hidden field can be read; before validation and the handler.
    route.preValidation = [...existing, checkCrumb];
  });
  return (request, reply) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html') && !isCrumb(request.cookies?.[CRUMB_COOKIE]))
      pageCrumb(request, reply, ctx);
  };
}

function checkCrumb(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  // A route taking several methods (GET and POST) checks only its writes.
  if (!STATE_CHANGING.has(request.method)) return done();
  if (isCrossSite(request)) return done(new ApiError('cross-site-refused', CROSS_SITE_MESSAGE));
  const mode = request.routeOptions.config?.crumb;
  if (mode !== 'origin-only' && !crumbMatches(request) && !(mode === 'crumb-or-same-origin' && isSameOrigin(request))) {
    return done(new ApiError(CRUMB_FAILURE_CODE, ADD_TO_CART_MESSAGES.sessionExpired));
  }
  done();
}

/** The Origin header names another host (or is opaque: "null"), or the browser says the request is cross-site. */
function isCrossSite(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true; // "null" (a sandboxed frame, a redirect across sites) or garbage: nothing says it is this site.
  }
  // The host only: behind a TLS proxy that is not trusted (TRUST_PROXY unset) the scheme seen here is http while the
  // browser's is https, and host:port already tells this site from another.
  return host.toLowerCase() !== (request.headers.host ?? '').toLowerCase();
}

/** The browser says the request came from this site's own page (checked after isCrossSite). */
function isSameOrigin(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'same-origin') return true;
  return (
    request.headers.origin !== undefined && request.headers['sec-fetch-site'] !== 'same-site' && !isCrossSite(request)
  );
}

function crumbMatches(request: FastifyRequest): boolean {
  const cookie = request.cookies[CRUMB_COOKIE];
  if (!isCrumb(cookie)) return false;
  const header = request.headers[CRUMB_HEADER];
  const sent = typeof header === 'string' ? header : isForm(request) ? formField(request.body) : undefined;
  return isCrumb(sent) && timingSafeEqual(Buffer.from(sent), Buffer.from(cookie));
}

const isForm = (request: FastifyRequest) => {
  const type = request.headers['content-type'] ?? '';
  // multipart/form-data: an upload form (./uploads.ts), parsed into the same object of fields.
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
};

/** The hidden field of a form posted without JavaScript (@fastify/formbody or ./uploads.ts parse it into an object). */
function formField(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[CRUMB_FIELD];
  return typeof value === 'string' ? value : undefined;
}
