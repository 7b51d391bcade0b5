import { describe, expect, it } from 'vitest';
import { LruCache } from './lru';
import { etagOf, PAGE_CACHE_CAPACITY, PageCache, withEtag } from './pageCache';

describe('LruCache', () => {
  it('evicts the least recently used entry past capacity', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
    expect(() => new LruCache(1.5)).toThrow(RangeError);
  });
});

describe('PageCache', () => {
  it('holds 100 pages (§9 cache capacity) keyed by site, version and path', () => {
    const cache = new PageCache();
    for (let i = 0; i <= PAGE_CACHE_CAPACITY; i++) cache.set(PageCache.key('demo', 1, `/p${i}`), withEtag({ status: 200, html: `${i}` }));
    expect(PAGE_CACHE_CAPACITY).toBe(100);
    expect(cache.size).toBe(100);
    expect(cache.get(PageCache.key('demo', 1, '/p0'))).toBeUndefined();
    expect(cache.get(PageCache.key('demo', 1, '/p100'))?.html).toBe('100');
    // A new site version never reads the old rendering.
    expect(cache.get(PageCache.key('demo', 2, '/p100'))).toBeUndefined();
  });

  it('stores and answers nothing when disabled', () => {
    const cache = new PageCache(false);
    cache.set('k', withEtag({ status: 200, html: 'x' }));
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('gives a quoted ETag that changes with the bytes', () => {
    expect(etagOf('a')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(etagOf('a')).toBe(etagOf('a'));
    expect(etagOf('a')).not.toBe(etagOf('b'));
  });
});
