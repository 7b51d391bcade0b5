/**
 * The site of a Host, cached. Resolving it (`findSiteByHost`) reads and parses every site row; pages need it on every
 * request, so the parsed list of sites is kept for at most SITE_CACHE_TTL_MS and each host's answer is memoized
 * against that list.
 *
 * Staleness is bounded for every deployment:
 * - an import in this process (`replaceSite`) drops the cache at once (`onSiteChange`);
 * - an import in another process (`vitrine import` next to `vitrine serve`, or several servers on one PostgreSQL)
 *   is published on Redis (SITE_CHANGES_CHANNEL) when REDIS_URL is set, and every subscribed server drops its cache;
 * - whatever happens to Redis (down, never configured, a message lost while reconnecting), an entry is never used
 *   after SITE_CACHE_TTL_MS: the next request after that reads the sites again. Redis problems are logged, never
 *   raised to a request.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { siteForHost, type Site } from './sites';

/** Longest time a cached site list is used (ms): the worst-case delay before another process's import is seen. */
export const SITE_CACHE_TTL_MS = 1000;
/** Hosts memoized per site list; beyond that the memo restarts (Host headers are chosen by clients). */
export const SITE_CACHE_MAX_HOSTS = 1000;
/** Redis pub/sub channel on which `vitrine import` announces a changed site (the message is the site id). */
export const SITE_CHANGES_CHANNEL = 'vitrine:site-changed';

interface Snapshot {
  expiresAt: number;
  sites: Promise<readonly Site[]>;
  byHost: Map<string, Site | undefined>;
}

export class SiteCache {
  #snapshot: Snapshot | undefined;

  constructor(
    private readonly loadSites: () => Promise<readonly Site[]>,
    private readonly ttlMs = SITE_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The site answering `host` (see `findSiteByHost`), from a site list at most `ttlMs` old. */
  async siteFor(host: string): Promise<Site | undefined> {
    const snapshot = this.#current();
    const key = host.trim().toLowerCase();
    if (snapshot.byHost.has(key)) return snapshot.byHost.get(key);
    const site = siteForHost(await snapshot.sites, key);
    // Only memoize against the list that is still current (an invalidation may have come while we waited).
    if (this.#snapshot === snapshot) {
      if (snapshot.byHost.size >= SITE_CACHE_MAX_HOSTS) snapshot.byHost.clear();
      snapshot.byHost.set(key, site);
    }
    return site;
  }

  /**
   * What `siteFor(host)` would answer, when that is known now without waiting (a current list, the host already
   * looked up in it); undefined otherwise. For answers that must not wait (cached pages: ./pageFastPath).
   */
  knownSiteFor(host: string): Site | undefined {
    const snapshot = this.#snapshot;
    if (!snapshot || snapshot.expiresAt <= this.now()) return undefined;
    return snapshot.byHost.get(host.trim().toLowerCase());
  }

  /** The site of this id (undefined when there is none), from the same list as `siteFor`. */
  async siteById(id: string): Promise<Site | undefined> {
    return (await this.#current().sites).find((site) => site.id === id);
  }

  /** Drops everything: the next lookup reads the sites again. */
  invalidate(): void {
    this.#snapshot = undefined;
  }

  #current(): Snapshot {
    const now = this.now();
    if (this.#snapshot && this.#snapshot.expiresAt > now) return this.#snapshot;
    // One load shared by the concurrent requests; its age counts from the start of the read.
    const snapshot: Snapshot = { expiresAt: now + this.ttlMs, sites: this.loadSites(), byHost: new Map() };
    this.#snapshot = snapshot;
    snapshot.sites.catch(() => {
      // A failed read is not cached: the next request tries again.
      if (this.#snapshot === snapshot) this.#snapshot = undefined;
    });
    return snapshot;
  }
}

const REDIS_OPTIONS = { connectTimeout: 2000, lazyConnect: true } as const;

/**
 * Subscribes to SITE_CHANGES_CHANNEL and calls `onChange` for every message, and also after every (re)connection
 * (messages published while disconnected are lost). Connection problems are logged once per outage; reconnection is
 * retried in the background. Returns the function that closes the subscription.
 */
export function subscribeToSiteChanges(
  redisUrl: string,
  onChange: (siteId: string | undefined) => void,
  log: FastifyBaseLogger,
): () => void {
  const redis = new Redis(redisUrl, {
    ...REDIS_OPTIONS,
    enableOfflineQueue: false,
    autoResubscribe: false,
    maxRetriesPerRequest: 1,
  });
  let down = false;
  redis.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    log.warn(
      { err: error },
      `site change notices (Redis) unavailable; other processes' imports are seen within ${SITE_CACHE_TTL_MS} ms`,
    );
  });
  redis.on('ready', () => {
    if (down) log.info('site change notices (Redis) available again');
    down = false;
    onChange(undefined);
    redis
      .subscribe(SITE_CHANGES_CHANNEL)
      .catch((error: unknown) => log.warn({ err: error }, 'cannot subscribe to site change notices (Redis)'));
  });
  redis.on('message', (channel: string, message: string) => {
    if (channel === SITE_CHANGES_CHANNEL) onChange(message);
  });
  redis.connect().catch(() => {
    // Reported by the 'error' handler; ioredis keeps reconnecting.
  });
  return () => redis.disconnect();
}

/**
 * Announces a changed site to every server subscribed on `redisUrl`. Resolves false (never throws) when Redis cannot
 * be reached in time; the servers then see the change when their cache entries expire (SITE_CACHE_TTL_MS).
 */
export async function publishSiteChange(redisUrl: string, siteId: string): Promise<boolean> {
  const redis = new Redis(redisUrl, {
    ...REDIS_OPTIONS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.publish(SITE_CHANGES_CHANNEL, siteId);
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
