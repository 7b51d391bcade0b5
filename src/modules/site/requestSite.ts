/**
 * The site of a request, chosen by its Host (several sites are served by one process). Resolved lazily and at most
 * once per request, so static files that need no site cost no query, and through the app's SiteCache (./siteCache.ts:
 * at most SITE_CACHE_TTL_MS old, dropped at once on an import here or, with Redis, in another process). An unknown
 * host with no default site is a clear 404 (JSON for the API, a short page otherwise, through the error handler).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { SITE_CACHE_TTL_MS, SiteCache, subscribeToSiteChanges } from './siteCache';
import { type findSiteByHost, listSites, onSiteChange } from './sites';

export type RequestSite = NonNullable<Awaited<ReturnType<typeof findSiteByHost>>>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Memoized lookup; use `siteOf(request)`. */
    sitePromise: Promise<RequestSite | null> | null;
  }
}

export function registerSitePlugin(
  app: FastifyInstance,
  ctx: AppContext,
  options: { redisUrl?: string | undefined; ttlMs?: number | undefined } = {},
): void {
  app.decorateRequest('sitePromise', null);
  const cache = new SiteCache(() => listSites(ctx.db), options.ttlMs ?? SITE_CACHE_TTL_MS);
  // The lookup needs the db; keep it on the app so siteOf() needs only the request.
  app.decorate('siteLookup', (host: string) => cache.siteFor(host));
  app.decorate('siteCache', cache);
  const unsubscribers = [onSiteChange(() => cache.invalidate())];
  if (options.redisUrl) unsubscribers.push(subscribeToSiteChanges(options.redisUrl, () => cache.invalidate(), app.log));
  app.addHook('onClose', async () => {
    unsubscribers.forEach((unsubscribe) => unsubscribe());
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    siteLookup: (host: string) => Promise<RequestSite | null | undefined>;
    /** The cached site lookup (tests and tools may `invalidate()` it). */
    siteCache: SiteCache;
  }
}

/** The request's site, or a 404 ApiError('site-not-found') when no site answers to its host. */
export async function siteOf(request: FastifyRequest): Promise<RequestSite> {
  request.sitePromise ??= request.server.siteLookup(request.host ?? '').then((site) => site ?? null);
  const site = await request.sitePromise;
  if (!site) throw new ApiError('site-not-found', `No site is published at ${request.host || 'this address'}.`);
  return site;
}
