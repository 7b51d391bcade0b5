/**
 * Page routes: every GET that is not the API, an image or the browser bundle is a site page (home, content pages,
 * the shop, product pages, the blog, the cart) or the site's 404 page. Pages carry no per-visitor state (but a
 * per-visitor kind at a content page's path, the cart page of a visitor with a cart: ./visitorPages.ts), so their HTML
 * is cached per (site id, storefront edition — its version, and its scheduled things gone live —, path), compressed once per coding, and revalidated by ETag; a cached page is
 * answered before Fastify (../pageFastPath.ts), this route answers the rest.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANSWERED, type VisitorPages } from '../../render/visitorPageKind';
import { etagMatches, negotiateContentCoding } from '../../render/contentCoding';
import { EncodedPage, PageCache, withEtag, type RenderedPage } from '../../render/pageCache';
import { StockWatch } from '../../modules/catalog';
import type { Site } from '../../modules/site';
import { canonicalPath, storefrontEdition, type PageRenderer } from '../../render/renderPath';
import type { AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { ApiError } from '../../platform/http/errors';
import {
  NOT_ACCEPTABLE_MESSAGE,
  NOT_FOUND_CACHE_CONTROL,
  notModifiedHeaders,
  PAGE_CACHE_CONTROL,
  PROTECTED_PAGE_CACHE_CONTROL,
  pageHeaders,
  VISITOR_PAGE_CACHE_CONTROL,
  type PageAnswerShape,
} from '../../platform/http/pageAnswer';
import { CRUMB_PLACEHOLDER } from '../../ui/formPost';
import { takeCartNotice, withCartNotice } from '../../modules/cart';
import { CART_NOTICE_COOKIE } from '../../core/cartNotice';
import { siteOf } from '../../modules/site';
import { ROUTES } from '../../core/purchaseRoute';
import { RATE_LIMIT_WINDOW_MS, SEARCH_RATE_LIMIT } from '../../platform/http/rateLimits';
import { pageLockCookie } from '../../core/pageLock';
import { opensPage, type LockedPage } from '../../modules/pageLocks';
import { CART_COOKIE } from '../../modules/cart';
import { z } from 'zod';
import { htmlAnswer, pageRoute, redirectAnswer } from '../../platform/http/apiDescription';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rendered-page cache; `app.pageCache.enabled = false` turns it off (the benchmark's uncached run). */
    pageCache: PageCache;
    /** Reads stock changes for the page cache; `check()` reads now (tests). */
    stockWatch: StockWatch;
  }
}

/**
 * The path with its leading slashes and backslashes collapsed into one slash: a Location of '//evil.example' or
 * '/\evil.example' would send browsers to that host.
 */
export const onThisSite = (path: string): string => path.replace(/^[/\\]+/, '/');

/**
 * The cookies this route reads besides the crumb: a request carrying one may get a page made for it, so it is
 * answered here, never from the cache before Fastify (../pageFastPath.ts). Add to it any cookie a page comes to read.
 */
export const PAGE_ROUTE_COOKIES: readonly string[] = [CART_NOTICE_COOKIE];

/**
 * The cookie that makes /cart a page of its visitor's own (their lines: src/modules/cart/pages/visitorCart.tsx): a
 * request for /cart carrying it is answered here, never from the cache before Fastify.
 */
export const CART_PAGE_COOKIE = `${CART_COOKIE}=`;

/** One 404 rendering per site edition, whatever the unknown path (so random paths cannot flush the cache). */
const NOT_FOUND_KEY = '\u0000404';

export async function registerPageRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  renderer: PageRenderer,
  visitorPages: VisitorPages,
): Promise<void> {
  const cache = new PageCache(process.env.VITRINE_PAGE_CACHE !== 'off');
  app.decorate('pageCache', cache);
  // Pages that show stock are dropped when it changes, in this process or any other (../stockWatch.ts).
  const stockWatch = new StockWatch(ctx.db, (siteId, productIds) => cache.stockChanged(siteId, productIds), {
    warn: (message, error) => app.log.warn({ err: error }, message),
  });
  app.decorate('stockWatch', stockWatch);
  app.addHook('onReady', async () => stockWatch.start());
  app.addHook('onClose', async () => stockWatch.stop());

  /**
   * A rendering as served: compressed once if it is kept, else per answer. A page with a form carries the visitor's
   * crumb in the form's hidden field (a post without JavaScript), filled in per answer.
   */
  const encoded = (page: RenderedPage, kept: boolean) =>
    new EncodedPage(page, kept ? 'once' : 'per-request', CRUMB_PLACEHOLDER);

  const notFound = async (site: Site, at = Date.now()): Promise<EncodedPage> => {
    const key = PageCache.key(site.id, storefrontEdition(site, at), NOT_FOUND_KEY);
    const cached = cache.get(key);
    if (cached) return cached;
    const page = encoded(withEtag(await renderer.renderNotFound(site, at)), cache.enabled);
    cache.set(key, page);
    return page;
  };

  const send = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const site = await siteOf(request);
    // The instant the page is for: its edition (what is live: issue 26) is the cache key's and the render's.
    const at = Date.now();
    try {
      // A password-protected page is made per request from the visitor's cookie, before and apart from the cache:
      // neither its lock screen nor its content is ever kept under its path (nor answered by ../pageFastPath.ts).
      const locked = await renderer.lockedPage(site, path, at);
      if (locked) return await sendLockedPage(request, reply, site, locked);
      return await sendPage(request, reply, site, path, at);
    } catch (error) {
      // A refusal meant for the client (406), or an answer already begun: the app's error handler, as before.
      if (error instanceof ApiError || reply.sent) throw error;
      return sendErrorPage(request, reply, site, path, error);
    }
  };

  /** A page that failed to render: the site's error page (101, status 500, never cached), and the failure logged. */
  const sendErrorPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    site: Site,
    path: string,
    error: unknown,
  ) => {
    request.log.error({ err: error, path }, 'a page failed to render: the error page (101) was shown');
    // When even the error page cannot be made (the database is down), the app's plain error answer.
    const rendered = await renderer.renderError(site, path).catch(() => {
      throw error;
    });
    const page = encoded(withEtag(rendered), false);
    return sendRepresentation(request, reply, 500, page, {
      cacheControl: 'no-store',
      contentSecurityPolicy: page.page.contentSecurityPolicy,
      withEtag: false,
    });
  };

  /** The lock screen (103, 401), or the page's content (105) when the visitor's cookie opens it: this visitor's only. */
  const sendLockedPage = async (request: FastifyRequest, reply: FastifyReply, site: Site, locked: LockedPage) => {
    const unlocked = await opensPage(ctx.db, site, locked, request.cookies[pageLockCookie(locked.id)]);
    const rendered = await renderer.render(site, locked.path, unlocked ? { lock: { unlocked: true } } : {});
    const page = encoded(withEtag(rendered), false);
    return sendRepresentation(request, reply, rendered.status, page, {
      cacheControl: PROTECTED_PAGE_CACHE_CONTROL,
      contentSecurityPolicy: page.page.contentSecurityPolicy,
      withEtag: false,
    });
  };

  /** The page at `path` made anew, kept in the cache when it may be. */
  const makePage = async (
    request: FastifyRequest,
    site: Site,
    path: string,
    key: string,
    at: number,
  ): Promise<EncodedPage> => {
    const since = cache.stockEpoch;
    const rendered = await renderer.render(site, path, {
      query: new URLSearchParams(request.url.slice(path.length + 1)),
      at,
    });
    const stock = rendered.productIds && { siteId: site.id, productIds: rendered.productIds, since };
    // Only real pages enter the LRU: random unknown paths must not push them out; nor pages made for the query.
    if (rendered.cacheable === false) return encoded(withEtag(rendered), false);
    if (rendered.status !== 200) return notFound(site, at);
    const page = encoded(withEtag(rendered), cache.enabled);
    cache.set(key, page, stock);
    return page;
  };

  /**
   * Renders under way, by cache key and address: the requests that arrive while a page is being made (after a sale
   * dropped it, many at once) wait for that rendering instead of each making their own. With the cache off (the
   * benchmark's uncached rows) every request makes its own: a page that is not kept is not shared either.
   */
  const rendering = new Map<string, Promise<EncodedPage>>();
  const pageFor = (
    request: FastifyRequest,
    site: Site,
    path: string,
    key: string,
    at: number,
  ): Promise<EncodedPage> => {
    if (!cache.enabled) return makePage(request, site, path, key, at);
    const renderKey = `${key}\u0000${request.url}`;
    let made = rendering.get(renderKey);
    if (!made) {
      made = makePage(request, site, path, key, at).finally(() => rendering.delete(renderKey));
      rendering.set(renderKey, made);
    }
    return made;
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply, site: Site, path: string, at: number) => {
    // A page made for one visitor at a content page's path (a visitor with a cart gets the cart page with their
    // lines and its forms' crumb): made for them only (../../render/visitorPageKind.ts), sent as pages are.
    const kind = visitorPages.takenBy(path, request);
    if (kind?.load) {
      const visit = { request, reply, site };
      const data: unknown = await kind.load(visit);
      if (data === ANSWERED) return reply;
      const rendered = await visitorPages.render(kind, visit, data);
      const page = encoded(withEtag(rendered), false);
      return sendRepresentation(request, reply, rendered.status, page, {
        cacheControl: kind.headers['cache-control'] ?? 'no-store',
        contentSecurityPolicy: page.page.contentSecurityPolicy,
        withEtag: false,
      });
    }
    const key = PageCache.key(site.id, storefrontEdition(site, at), path);
    const page = cache.get(key) ?? (await pageFor(request, site, path, key, at));
    if (page.status === 404) return sendNotFound(request, reply, page);
    // A page made for the query that refuses it (a search too long: 400) shows the refusal in the site's design.
    if (page.status !== 200) {
      return sendRepresentation(request, reply, page.status, page, {
        cacheControl: 'no-store',
        contentSecurityPolicy: page.page.contentSecurityPolicy,
        withEtag: false,
      });
    }
    // The outcome of an add posted without JavaScript, shown once: a copy of the page for this visitor only.
    const notice =
      request.cookies[CART_NOTICE_COOKIE] === undefined ? null : await takeCartNotice(request, reply, ctx, site);
    if (notice !== null) {
      const noticed = new EncodedPage(
        { ...page.page, html: withCartNotice(page.page.html, notice) },
        'per-request',
        CRUMB_PLACEHOLDER,
      );
      return sendRepresentation(request, reply, 200, noticed, {
        cacheControl: 'no-store',
        contentSecurityPolicy: page.page.contentSecurityPolicy,
        withEtag: false,
      });
    }
    // A page holding the visitor's crumb is theirs only; its ETag names the crumb too, so a browser never keeps a copy
    // with another visitor's (or an old) crumb.
    const cacheControl = page.perVisitor ? VISITOR_PAGE_CACHE_CONTROL : PAGE_CACHE_CONTROL;
    return sendRepresentation(request, reply, 200, page, {
      cacheControl,
      contentSecurityPolicy: page.page.contentSecurityPolicy,
      withEtag: true,
    });
  };

  const sendNotFound = (request: FastifyRequest, reply: FastifyReply, page: EncodedPage) =>
    sendRepresentation(request, reply, 404, page, {
      cacheControl: NOT_FOUND_CACHE_CONTROL,
      contentSecurityPolicy: page.page.contentSecurityPolicy,
      withEtag: false,
    });

  /**
   * The page in the coding the request asks for among those it is kept in (br, gzip or none; 406 when the request
   * refuses them all), with its ETag per coding and a 304 when If-None-Match names it; a page with a form gets the
   * visitor's crumb. ../pageFastPath.ts answers cached pages the same way.
   */
  const sendRepresentation = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    page: EncodedPage,
    shape: PageAnswerShape,
  ) => {
    const coding = negotiateContentCoding(request.headers['accept-encoding'], page.codings);
    if (coding === null) throw new ApiError('not-acceptable', NOT_ACCEPTABLE_MESSAGE);
    const crumb = page.perVisitor ? pageCrumb(request, reply, ctx) : undefined;
    if (shape.withEtag && etagMatches(request.headers['if-none-match'], page.etag(coding, crumb))) {
      for (const [name, value] of notModifiedHeaders(page.etag(coding, crumb), shape)) reply.header(name, value);
      // A page kept by the browser still needs a crumb for its scripts' writes (a reload after the crumb was lost).
      pageCrumb(request, reply, ctx);
      return reply.code(304).send();
    }
    const representation = await page.representation(coding, crumb);
    for (const [name, value] of pageHeaders(representation, shape)) reply.header(name, value);
    return reply.code(status).send(representation.body);
  };

  ctx.notFoundPage = async (request, reply) => {
    return sendNotFound(request, reply, await notFound(await siteOf(request)));
  };

  // The search renders for every query (never cached): it has a per-client budget (../rateLimits.ts).
  app.get(
    ROUTES.search,
    {
      compress: false,
      config: { rateLimit: { max: SEARCH_RATE_LIMIT, timeWindow: RATE_LIMIT_WINDOW_MS } },
      schema: searchPageRoute,
    },
    async (request, reply) => send(request, reply, ROUTES.search),
  );

  // Compressed here, once per page and coding (../../render/pageCache.ts), not by @fastify/compress on every answer.
  app.get('/*', { compress: false, schema: sitePageRoute }, async (request, reply) => {
    // Unknown API paths get the API's JSON 404, not a page.
    if (request.url.startsWith('/api/')) return reply.callNotFound();
    const path = onThisSite(canonicalPath(request.url));
    const requested = request.url.split('?')[0] ?? '/';
    if (requested !== path) {
      // One address per page: '/shop/' answers with a permanent redirect to '/shop' (query kept), and '//x/' or
      // '/\x' to '/x', never to the host x.
      const query = request.url.slice(requested.length);
      return reply.redirect(path + query, 301);
    }
    return send(request, reply, path);
  });
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const searchPageRoute = pageRoute('searchPage', 'Search (page type 102)', {
  querystring: z.object({
    q: z.string().max(200).optional(),
    page: z.string().optional().describe('1 to 100.'),
  }),
  response: { 400: htmlAnswer('Too long, or a bad page number: said beside the field.') },
});

const sitePageRoute = pageRoute('sitePage', 'Any page of the site (products, collections, posts, pages; cached)', {
  params: z.object({ path: z.string().describe('The page’s path.') }),
  response: {
    301: redirectAnswer('To the page’s one address (no trailing slash).'),
    401: htmlAnswer('A password-protected page: its lock screen.'),
    404: htmlAnswer('The site’s 404 page.'),
  },
});
