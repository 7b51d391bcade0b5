/**
 * Page routes: every GET that is not the API, an image or the browser bundle is a site page (home, content pages,
 * the shop, product pages, the blog, the cart shell) or the site's 404 page. Pages carry no per-visitor state, so
 * their HTML is cached per (site id, site version, path) and revalidated by ETag.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readClientAssets, CLIENT_DIST_DIR } from '../../render/manifest';
import { PageCache, withEtag, type RenderedPage } from '../../render/pageCache';
import type { Site } from '../../services/sites';
import { canonicalPath, PageRenderer } from '../../render/renderPath';
import type { AppContext } from '../context';
import { pageCrumb } from '../crumb';
import { withVisitorCrumb } from './formCrumb';
import { siteOf } from '../plugins/site';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rendered-page cache; `app.pageCache.enabled = false` turns it off (the benchmark's uncached run). */
    pageCache: PageCache;
  }
}

/** Browsers and proxies may keep a page but must ask again (cheaply, by ETag) before showing it. */
const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/**
 * The path with its leading slashes and backslashes collapsed into one slash: a Location of '//evil.example' or
 * '/\evil.example' would send browsers to that host.
 */
export const onThisSite = (path: string): string => path.replace(/^[/\\]+/, '/');

/** One 404 rendering per site version, whatever the unknown path (so random paths cannot flush the cache). */
const NOT_FOUND_KEY = '\u0000404';

export async function registerPageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const renderer = new PageRenderer(ctx.db, readClientAssets(ctx.clientDir ?? CLIENT_DIST_DIR, (m) => app.log.warn(m)));
  const cache = new PageCache(process.env.VITRINE_PAGE_CACHE !== 'off');
  app.decorate('pageCache', cache);

  const notFound = async (site: Site): Promise<RenderedPage> => {
    const key = PageCache.key(site.id, site.version, NOT_FOUND_KEY);
    const cached = cache.get(key);
    if (cached) return cached;
    const page = withEtag(await renderer.renderNotFound(site));
    cache.set(key, page);
    return page;
  };

  const send = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const site = await siteOf(request);
    const key = PageCache.key(site.id, site.version, path);
    let page = cache.get(key);
    if (!page) {
      const rendered = await renderer.render(site, path);
      // Only real pages enter the LRU: random unknown paths must not push them out.
      if (rendered.status === 200) cache.set(key, (page = withEtag(rendered)));
      else page = await notFound(site);
    }
    if (page.status !== 200) return sendNotFound(reply, page);
    // A page with a form block carries the visitor's crumb in the form's hidden field (a post without JavaScript):
    // its ETag then names the crumb too, so a browser never keeps a copy with another visitor's (or an old) crumb.
    const crumbed = withVisitorCrumb(page, () => pageCrumb(request, reply, ctx));
    reply.header('etag', crumbed.etag).header('cache-control', PAGE_CACHE_CONTROL).header('content-security-policy', page.contentSecurityPolicy);
    if (crumbed !== page) reply.header('cache-control', 'private, max-age=0, must-revalidate');
    if (request.headers['if-none-match'] === crumbed.etag) {
      // A page kept by the browser still needs a crumb for its scripts' writes (a reload after the crumb was lost).
      pageCrumb(request, reply, ctx);
      return reply.code(304).send();
    }
    return reply.code(200).header('content-type', 'text/html; charset=utf-8').send(crumbed.html);
  };

  const sendNotFound = (reply: FastifyReply, page: RenderedPage) =>
    reply
      .code(404)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', page.contentSecurityPolicy)
      .send(page.html);

  ctx.notFoundPage = async (request, reply) => {
    return sendNotFound(reply, await notFound(await siteOf(request)));
  };

  app.get('/*', async (request, reply) => {
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
