/**
 * Cached pages answered before Fastify (issue 13): a GET or HEAD of a page already in the page cache, in a coding
 * already compressed, is written straight to the socket, from header lists made once per representation (a page
 * with a form gets the visitor's crumb joined into its kept parts: ../render/pageCache.ts). Fastify's routing,
 * request and reply objects, cookie plugin, compression hooks and onSend hook are where a cached page used to spend
 * most of its time; none of them changes such an answer.
 *
 * The answer is the one Fastify's page route gives (./routes/pages.tsx, through ./pageAnswer.ts; a test compares
 * the two): the same status, body and headers, security headers and Content-Security-Policy included, the crumb
 * cookie for a visitor without a valid one, a 304 to a matching If-None-Match, one log line when the app logs
 * requests. Everything else goes to Fastify untouched: other methods, a request with a body, a path that would be
 * redirected, a site or page not known yet (the first request of a site's version, or the site cache's entry older
 * than its second), a request with a cookie the page route reads (PAGE_ROUTE_COOKIES: a no-JavaScript add's
 * notice; the cart cookie on /cart, whose visitor gets their lines), a coding still being compressed, an Accept-Encoding refusing every coding (Fastify answers 406), and
 * every request once the app is draining or closing (./gracefulClose.ts: Fastify's answers then close their
 * connections). Hooks added to Fastify do not run for these answers: a page route that
 * comes to depend on something of the request must make the fast path step aside for it. Password-protected pages
 * (their lock screen, their content) never enter the page cache (./routes/pages.tsx), so they are never answered here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';
import type { TrustProxy } from '../../config';
import { CRUMB_COOKIE, isCrumb, readCookie } from '../../core/crumb';
import { etagMatches, negotiateContentCoding, type ContentCoding } from '../../render/contentCoding';
import { PageCache, type Representation } from '../../render/pageCache';
import { canonicalPath, storefrontEdition } from '../../render/renderPath';
import { crumbCookieOptions, newCrumb } from './crumb';
import {
  notModifiedHeaders,
  PAGE_CACHE_CONTROL,
  rawPageHeaders,
  VISITOR_PAGE_CACHE_CONTROL,
  type RawPageHeaders,
} from './pageAnswer';
import { CART_PAGE_COOKIE, onThisSite, PAGE_ROUTE_COOKIES } from '../../server/routes/pages';
import { ROUTES } from '../../core/purchaseRoute';
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from './securityHeaders';

export interface PageFastPathOptions {
  /** As given to buildApp: which X-Forwarded-* headers to believe (Host, protocol, client address). */
  trustProxy: TrustProxy;
  /** Cookies always Secure (AppContext.secureCookies). */
  secureCookies: boolean;
  /** The app logs one line per answered request (buildApp's `logger`). */
  logRequests: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Cached pages answered before Fastify: `enabled` (tests compare with it off), `answered` (how many so far). */
    pageFastPath: { enabled: boolean; answered: number };
  }
}

/** Accept-Encoding values seen, with their coding (browsers send a handful); restarted past this many. */
const CODINGS_REMEMBERED = 64;

/** The facts of a request Fastify would take from forwarded headers when it trusts the proxy in front. */
interface RequestFacts {
  host(request: IncomingMessage): string | undefined;
  https(request: IncomingMessage): boolean;
  ip(request: IncomingMessage): string | undefined;
}

/**
 * Puts the cached-page answer in front of the app's request handler. Call after the page routes are registered
 * (they decorate `app.pageCache`) and the site plugin (`app.siteCache`).
 */
export function installPageFastPath(app: FastifyInstance, options: PageFastPathOptions): void {
  const state = { enabled: true, answered: 0 };
  app.decorate('pageFastPath', state);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  const facts = requestFacts(options.trustProxy);
  const codings = new Map<readonly ContentCoding[], Map<string, ContentCoding | null>>();
  const headersOf = new WeakMap<Representation, RawPageHeaders>();

  const codingFor = (acceptEncoding: string | undefined, available: readonly ContentCoding[]): ContentCoding | null => {
    if (acceptEncoding === undefined) return 'identity';
    let seen = codings.get(available);
    if (!seen) codings.set(available, (seen = new Map()));
    let coding = seen.get(acceptEncoding);
    if (coding === undefined) {
      coding = negotiateContentCoding(acceptEncoding, available);
      if (seen.size >= CODINGS_REMEMBERED) seen.clear();
      seen.set(acceptEncoding, coding);
    }
    return coding;
  };

  /** True when the request was answered here. */
  const answer = (request: IncomingMessage, response: ServerResponse): boolean => {
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = request.url ?? '';
    const headers = request.headers;
    if (
      url.charCodeAt(0) !== 47 /* / */ ||
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] ?? '0') !== '0'
    )
      return false;
    // HTTP/1.1 without Host is refused by the app (400), whatever a proxy forwarded.
    if (!headers.host) return false;
    const host = facts.host(request);
    if (!host) return false;
    const site = app.siteCache.knownSiteFor(host);
    if (!site) return false;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    // The page route redirects these (a trailing slash, a doubled leading slash, a '#'); a plain path is its own.
    if (!isPlainPath(path) && onThisSite(canonicalPath(url)) !== path) return false;
    const page = app.pageCache.get(PageCache.key(site.id, storefrontEdition(site, Date.now()), path));
    if (!page || page.status !== 200) return false;
    const cookieHeader = headers.cookie;
    // Any mention of a cookie the route reads sends the request there (a stray match only costs the fast answer).
    if (cookieHeader !== undefined && PAGE_ROUTE_COOKIES.some((name) => cookieHeader.includes(name))) return false;
    // The cart page of a visitor with a cart is made for them (./routes/cartPage.tsx).
    if (cookieHeader !== undefined && path === ROUTES.cart && cookieHeader.includes(CART_PAGE_COOKIE)) return false;
    const knownCrumb = cookieHeader === undefined ? undefined : crumbOf(app, cookieHeader);
    const acceptEncoding = headers['accept-encoding'];
    const coding = codingFor(typeof acceptEncoding === 'string' ? acceptEncoding : undefined, page.codings);
    if (coding === null) return false;

    const https = facts.https(request);
    const crumb = isCrumb(knownCrumb) ? knownCrumb : newCrumb();
    const crumbCookie =
      crumb === knownCrumb
        ? undefined
        : app.serializeCookie(CRUMB_COOKIE, crumb, crumbCookieOptions(options.secureCookies || https));
    let status: 200 | 304;
    let fixed: readonly string[];
    let chunks: readonly Buffer[] = [];
    if (!page.perVisitor) {
      const representation = page.ready(coding);
      if (!representation) return false;
      let raw = headersOf.get(representation);
      if (!raw) {
        raw = rawPageHeaders(representation, {
          cacheControl: PAGE_CACHE_CONTROL,
          contentSecurityPolicy: page.page.contentSecurityPolicy,
          withEtag: true,
        });
        headersOf.set(representation, raw);
      }
      status = etagMatches(headers['if-none-match'], representation.etag) ? 304 : 200;
      fixed = status === 304 ? raw.notModified : raw.ok;
      chunks = representation.chunks;
    } else {
      // Its bytes hold the visitor's crumb (a form's hidden field): joined around it for this answer.
      const shape = {
        cacheControl: VISITOR_PAGE_CACHE_CONTROL,
        contentSecurityPolicy: page.page.contentSecurityPolicy,
        withEtag: true,
      };
      const etag = page.etag(coding, crumb);
      if (etagMatches(headers['if-none-match'], etag)) {
        status = 304;
        fixed = [...notModifiedHeaders(etag, shape).flat(), ...SECURITY_HEADERS.flat()];
      } else {
        const representation = page.ready(coding, crumb);
        if (!representation) return false;
        status = 200;
        fixed = rawPageHeaders(representation, shape).ok;
        chunks = representation.chunks;
      }
    }
    const list =
      https || crumbCookie
        ? [...fixed, ...(https ? STRICT_TRANSPORT_SECURITY : []), ...(crumbCookie ? ['set-cookie', crumbCookie] : [])]
        : fixed;
    response.writeHead(status, list as string[]);
    if (status === 304 || method === 'HEAD') response.end();
    else if (chunks.length === 1) response.end(chunks[0]);
    else {
      // The pieces of a page filled in for this visitor go out in one write, never joined in memory.
      response.cork();
      for (const chunk of chunks) response.write(chunk);
      response.end();
    }
    state.answered++;
    if (options.logRequests) {
      app.log.info(
        { ip: facts.ip(request) },
        `${method} ${url} ${status} ${(performance.now() - start(request)).toFixed(1)} ms`,
      );
    }
    return true;
  };

  const [handler, ...others] = app.server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  if (!handler || others.length > 0)
    throw new Error(
      `the page fast path expects one request handler on the server, found ${others.length + (handler ? 1 : 0)}`,
    );
  app.server.removeListener('request', handler);
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (state.enabled && !closing && !app.draining) {
      try {
        if (options.logRequests) started.set(request, performance.now());
        if (answer(request, response)) return;
      } catch (error) {
        // Before the answer began: Fastify's way (and its error handling) answers instead. After: nothing more can
        // be said on this connection but closing it.
        if (response.headersSent) {
          app.log.error({ err: error }, 'a cached page answer failed');
          if (!response.writableEnded) response.destroy();
          return;
        }
      }
    }
    handler(request, response);
  });
}

/** No '#', no trailing slash, no second leading slash or backslash: the page route takes it as it is. */
function isPlainPath(path: string): boolean {
  const last = path.charCodeAt(path.length - 1);
  const second = path.charCodeAt(1);
  return path.indexOf('#') === -1 && (path.length === 1 || last !== 47) && second !== 47 && second !== 92;
}

/**
 * The crumb cookie's value as @fastify/cookie reads it (the first one; %-escapes and quotes decoded): read directly
 * when it has neither, which every crumb this server gives satisfies.
 */
function crumbOf(app: FastifyInstance, cookieHeader: string): string | undefined {
  const value = readCookie(cookieHeader, CRUMB_COOKIE);
  if (value === null) return undefined;
  return value.includes('%') || value.includes('"') ? app.parseCookie(cookieHeader)[CRUMB_COOKIE] : value;
}

const started = new WeakMap<IncomingMessage, number>();
const start = (request: IncomingMessage) => started.get(request) ?? performance.now();

const lastEntry = (value: string) => {
  const comma = value.lastIndexOf(',');
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim();
};

/** Host, protocol and client address as Fastify's request reads them (fastify/lib/request.js), for this trust setting. */
function requestFacts(trustProxy: TrustProxy): RequestFacts {
  const encrypted = (request: IncomingMessage) => (request.socket as TLSSocket).encrypted === true;
  if (trustProxy === false) {
    return {
      host: (request) => request.headers.host,
      https: encrypted,
      ip: (request) => request.socket.remoteAddress,
    };
  }
  const trust =
    trustProxy === true
      ? () => true
      : typeof trustProxy === 'number'
        ? (_address: string, hop: number) => hop < trustProxy
        : proxyAddr.compile(trustProxy);
  const fromProxy = (request: IncomingMessage) =>
    request.socket.remoteAddress !== undefined && trust(request.socket.remoteAddress, 0);
  return {
    host(request) {
      const forwarded = request.headers['x-forwarded-host'];
      return typeof forwarded === 'string' && forwarded !== '' && fromProxy(request)
        ? lastEntry(forwarded)
        : request.headers.host;
    },
    https(request) {
      const forwarded = request.headers['x-forwarded-proto'];
      return typeof forwarded === 'string' && forwarded !== '' && fromProxy(request)
        ? lastEntry(forwarded) === 'https'
        : encrypted(request);
    },
    ip(request) {
      const addresses = proxyAddr.all(request, trust);
      return addresses[addresses.length - 1];
    },
  };
}
