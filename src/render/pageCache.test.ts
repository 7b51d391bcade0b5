import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LruCache } from './lru';
import { EncodedPage, etagOf, PAGE_CACHE_CAPACITY, PageCache, withEtag } from './pageCache';

const page = (html: string) => new EncodedPage(withEtag({ status: 200, html }), 'once');

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
    for (let i = 0; i <= PAGE_CACHE_CAPACITY; i++) cache.set(PageCache.key('demo', 1, `/p${i}`), page(`${i}`));
    expect(PAGE_CACHE_CAPACITY).toBe(100);
    expect(cache.size).toBe(100);
    expect(cache.get(PageCache.key('demo', 1, '/p0'))).toBeUndefined();
    expect(cache.get(PageCache.key('demo', 1, '/p100'))?.page.html).toBe('100');
    // A new site version never reads the old rendering.
    expect(cache.get(PageCache.key('demo', 2, '/p100'))).toBeUndefined();
  });

  it('drops the pages showing a product whose stock changed, and only those (issue 23)', () => {
    const cache = new PageCache();
    const key = (path: string) => PageCache.key('demo', 1, path);
    const since = cache.stockEpoch;
    cache.set(key('/shop/p/plate'), page('plate'), { siteId: 'demo', productIds: ['plate'], since });
    cache.set(key('/shop'), page('list'), { siteId: 'demo', productIds: ['plate', 'mug'], since });
    cache.set(key('/shop/p/mug'), page('mug'), { siteId: 'demo', productIds: ['mug'], since });
    cache.set(key('/about'), page('about'));
    cache.set(PageCache.key('other', 1, '/shop/p/plate'), page('other plate'), {
      siteId: 'other',
      productIds: ['plate'],
      since,
    });

    expect(cache.stockChanged('demo', ['plate'])).toBe(2);
    expect(cache.get(key('/shop/p/plate'))).toBeUndefined();
    expect(cache.get(key('/shop'))).toBeUndefined();
    expect(cache.get(key('/shop/p/mug'))?.page.html).toBe('mug');
    expect(cache.get(key('/about'))?.page.html).toBe('about');
    // Another site's product of the same id is another product.
    expect(cache.get(PageCache.key('other', 1, '/shop/p/plate'))?.page.html).toBe('other plate');
    // Kept again, dropped again.
    cache.set(key('/shop/p/plate'), page('plate 2'), {
      siteId: 'demo',
      productIds: ['plate'],
      since: cache.stockEpoch,
    });
    expect(cache.stockChanged('demo', ['plate'])).toBe(1);
  });

  it('does not keep a page whose stock changed while it was being rendered', () => {
    const cache = new PageCache();
    const since = cache.stockEpoch; // the render reads the stock…
    cache.stockChanged('demo', ['plate']); // …a sale lands meanwhile…
    cache.set(PageCache.key('demo', 1, '/shop/p/plate'), page('old stock'), {
      siteId: 'demo',
      productIds: ['plate'],
      since,
    });
    expect(cache.get(PageCache.key('demo', 1, '/shop/p/plate'))).toBeUndefined();
    // A page of another product rendered meanwhile is kept.
    cache.set(PageCache.key('demo', 1, '/shop/p/mug'), page('mug'), { siteId: 'demo', productIds: ['mug'], since });
    expect(cache.get(PageCache.key('demo', 1, '/shop/p/mug'))?.page.html).toBe('mug');
  });

  it('forgets a page pushed out of the LRU in its product lists', () => {
    const cache = new PageCache(true, 2);
    const since = cache.stockEpoch;
    cache.set(PageCache.key('demo', 1, '/a'), page('a'), { siteId: 'demo', productIds: ['plate'], since });
    cache.set(PageCache.key('demo', 1, '/b'), page('b'));
    cache.set(PageCache.key('demo', 1, '/c'), page('c'));
    // '/a' left the LRU: nothing of it is dropped (nor kept listed).
    expect(cache.stockChanged('demo', ['plate'])).toBe(0);
    expect(cache.size).toBe(2);
  });

  it('stores and answers nothing when disabled', () => {
    const cache = new PageCache(false);
    cache.set('k', page('x'));
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('gives a quoted ETag that changes with the bytes', () => {
    expect(etagOf('a')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(etagOf('a')).toBe(etagOf('a'));
    expect(etagOf('a')).not.toBe(etagOf('b'));
  });
});

describe('EncodedPage', () => {
  const html = `<!doctype html><p>${'Speckled stoneware mug. '.repeat(200)}</p>`;

  it('keeps the page in br and gzip, each decoding to the same bytes, each with its own strong ETag', async () => {
    const encoded = page(html);
    const identity = await encoded.representation('identity');
    const br = await encoded.representation('br');
    const gzip = await encoded.representation('gzip');
    expect(identity.body.toString('utf8')).toBe(html);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(html);
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(html);
    expect(br.body.length).toBeLessThan(gzip.body.length);
    expect(gzip.body.length).toBeLessThan(identity.body.length / 10);
    expect(identity.etag).toBe(etagOf(html));
    expect(br.etag).toBe(`${etagOf(html).slice(0, -1)}-br"`);
    expect(gzip.etag).toBe(`${etagOf(html).slice(0, -1)}-gzip"`);
  });

  it('compresses each coding once: later asks get the same bytes at once', async () => {
    const encoded = page(html);
    expect(encoded.ready('identity')?.body.toString('utf8')).toBe(html);
    expect(encoded.ready('gzip')).toBeUndefined();
    const first = encoded.representation('gzip');
    expect(encoded.representation('gzip')).toBe(first);
    const gzip = await first;
    expect(encoded.ready('gzip')).toBe(gzip);
    expect(encoded.representation('gzip')).toBe(gzip);
  });

  it('is compressed in every coding when it enters the cache', async () => {
    const cache = new PageCache();
    const kept = page(html);
    cache.set('kept', kept);
    await kept.encodeAll();
    expect(kept.ready('br')).toBeDefined();
    expect(kept.ready('gzip')).toBeDefined();
  });
});

describe("EncodedPage filled in per answer (a form's crumb)", () => {
  const PLACEHOLDER = 'vitrine-crumb-placeholder';
  const form = (n: number) =>
    `<form method="post"><input type="hidden" name="crumb" value="${PLACEHOLDER}"><button>Add ${n}</button></form>`;

  it.each([
    [
      'in the middle, twice',
      `<!doctype html><main>${'Mug. '.repeat(300)}${form(1)}${'Vase. '.repeat(300)}${form(2)}</main>`,
    ],
    ['at both ends', `${PLACEHOLDER}<p>${'Tea. '.repeat(50)}</p>${PLACEHOLDER}`],
    ['side by side', `<p>${PLACEHOLDER}${PLACEHOLDER}</p>`],
  ])(
    'gives every visitor their own bytes, plain and gzip, from parts compressed once (%s)',
    async (_where, template) => {
      const encoded = new EncodedPage(withEtag({ status: 200, html: template }), 'once', PLACEHOLDER);
      expect(encoded.perVisitor).toBe(true);
      expect(encoded.codings).toEqual(['gzip', 'identity']);
      expect(encoded.ready('gzip', 'crumb-of-ada-0123456789')).toBeUndefined();
      await encoded.encodeAll();
      for (const crumb of ['crumb-of-ada-0123456789', 'crumb-of-bob-9876543210', 'x']) {
        const expected = template.replaceAll(PLACEHOLDER, crumb);
        const identity = encoded.ready('identity', crumb)!;
        const gzip = encoded.ready('gzip', crumb)!;
        expect(identity.body.toString('utf8')).toBe(expected);
        expect(gunzipSync(gzip.body).toString('utf8')).toBe(expected);
        expect(identity.etag).toBe(encoded.etag('identity', crumb));
        expect(gzip.etag).toBe(encoded.etag('gzip', crumb));
      }
    },
  );

  it("names the visitor's crumb in its ETags, one per coding, and refuses to be sent without one", async () => {
    const encoded = new EncodedPage(withEtag({ status: 200, html: form(1) }), 'once', PLACEHOLDER);
    const ada = encoded.etag('gzip', 'ada');
    expect(ada).not.toBe(encoded.etag('gzip', 'bob'));
    expect(ada).not.toBe(encoded.etag('identity', 'ada'));
    expect(ada.startsWith(encoded.page.etag.slice(0, -1))).toBe(true);
    expect(() => encoded.ready('identity')).toThrow(/give the value/);
    expect(() => encoded.representation('br', 'ada')).toThrow(/not kept in br/);
    expect((await encoded.representation('gzip', 'ada')).etag).toBe(ada);
  });

  it('is a plain page when the placeholder is not in it', () => {
    const encoded = new EncodedPage(withEtag({ status: 200, html: '<p>no form</p>' }), 'once', PLACEHOLDER);
    expect(encoded.perVisitor).toBe(false);
    expect(encoded.codings).toEqual(['br', 'gzip', 'identity']);
  });
});
