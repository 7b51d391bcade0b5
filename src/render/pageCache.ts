import { createHash } from 'node:crypto';
import { contentSecurityPolicyFor } from './contentSecurityPolicy';
import { LruCache } from './lru';

/** §9 cache capacity. */
export const PAGE_CACHE_CAPACITY = 100;

export interface RenderedPage {
  status: number;
  html: string;
  /** Strong validator of the exact bytes: a quoted hash of the HTML. */
  etag: string;
  /** Its Content-Security-Policy (./contentSecurityPolicy: the hashes of its inline styles). */
  contentSecurityPolicy: string;
}

/** A rendering made ready to cache and serve: its ETag and its policy, computed once. */
export const withEtag = (page: Omit<RenderedPage, 'etag' | 'contentSecurityPolicy'>): RenderedPage => ({
  ...page,
  etag: etagOf(page.html),
  contentSecurityPolicy: contentSecurityPolicyFor(page.html),
});

export const etagOf = (html: string): string => `"${createHash('sha1').update(html).digest('base64url').slice(0, 22)}"`;

/**
 * Rendered page HTML per (site id, site version, path). Pages carry no per-visitor state, so one rendering serves
 * every visitor; a re-import bumps the site version, so stale entries are never read again and age out of the LRU.
 */
export class PageCache {
  readonly #lru: LruCache<string, RenderedPage>;

  constructor(
    /** Off for measuring (the benchmark's uncached run): every request renders. */
    public enabled = true,
    capacity = PAGE_CACHE_CAPACITY,
  ) {
    this.#lru = new LruCache(capacity);
  }

  static key(siteId: string, siteVersion: number, path: string): string {
    return `${siteId}\u0000${siteVersion}\u0000${path}`;
  }

  get size(): number {
    return this.#lru.size;
  }

  get(key: string): RenderedPage | undefined {
    return this.enabled ? this.#lru.get(key) : undefined;
  }

  set(key: string, page: RenderedPage): void {
    if (this.enabled) this.#lru.set(key, page);
  }

  clear(): void {
    this.#lru.clear();
  }
}
