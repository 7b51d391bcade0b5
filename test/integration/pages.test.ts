/** Page and image routes through Fastify's inject, on a fresh SQLite database holding the demo site. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../browser/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

describe('page routes', () => {
  it.each([
    ['/', 'Vitrine Demo Store'],
    ['/about', 'About'],
    ['/contact', 'Contact'],
    ['/shop', 'Shop'],
    ['/shop/p/speckled-mug', 'Speckled Stoneware Mug'],
    ['/cart', 'Cart'],
    ['/blog', 'Journal'],
  ])('renders %s', async (path, title) => {
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/^<!doctype html><html lang="en-US">/);
    expect(res.body).toContain(`<title>${title}`);
    expect(res.body).toContain('<a class="skip-link" href="#main">');
    // The floating cart pill is on every page but the cart's own (issue 23).
    if (path === '/cart') expect(res.body).not.toContain('data-island="CartPill"');
    else expect(res.body).toContain('data-island="CartPill"');
  });

  it('marks each page with its numeric page type of §2', async () => {
    const typeOf = async (url: string) => /<body data-page-type="(\d+)"/.exec((await get(url)).body)?.[1];
    expect(await typeOf('/')).toBe('2');
    expect(await typeOf('/shop')).toBe('1');
    expect(await typeOf('/shop/p/speckled-mug')).toBe('50');
    expect(await typeOf('/cart')).toBe('200');
    expect(await typeOf('/checkout')).toBe('201');
    expect(await typeOf('/no-such-page')).toBe('100');
  });

  it('renders a blog post and the posts block links to it', async () => {
    const home = await get('/blog');
    const link = /href="(\/blog\/[a-z0-9-]+)"/.exec(home.body)?.[1];
    expect(link).toBeDefined();
    const post = await get(link!);
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('<article class="post">');
  });

  it('gives every image its intrinsic size (no layout shift) and loads the first large one at once', async () => {
    const imgs = (body: string) => [...body.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    const home = imgs((await get('/')).body);
    expect(home.length).toBeGreaterThan(1);
    for (const img of home) expect(img).toMatch(/ width="\d+" height="\d+"/);
    // The demo's images are 1500 × 1500: the hero says so, and its srcset offers nothing wider.
    expect(home[0]).toContain('width="1500" height="1500"');
    expect(home[0]).toContain('loading="eager"');
    const widths = [
      ...(/srcSet="([^"]+)"|srcset="([^"]+)"/.exec(home[0]!)?.slice(1).join('') ?? '').matchAll(/ (\d+)w/g),
    ].map((m) => Number(m[1]));
    expect(widths.length).toBeGreaterThan(0);
    expect(Math.max(...widths)).toBeLessThanOrEqual(1500);

    const blog = imgs((await get('/blog')).body);
    expect(blog.length).toBe(3);
    expect(blog.map((img) => /loading="(\w+)"/.exec(img)?.[1])).toEqual(['eager', 'lazy', 'lazy']);
  });

  it('gives the detail page its variant selectors, quantity input and island props', async () => {
    const res = await get('/shop/p/speckled-mug');
    expect(res.body).toContain('aria-label="Select Color"');
    expect(res.body).toMatch(/<option value=""[^>]*>Select Color<\/option>/);
    expect(res.body).toContain('type="number"');
    expect(res.body).toContain('data-island="ProductPurchase"');
    expect(res.body).toMatch(/<link rel="canonical" href="http:\/\/localhost\/shop\/p\/speckled-mug">/);
  });

  it('shows sold-out items with a disabled Sold Out button and no quantity input', async () => {
    const res = await get('/shop/p/bud-vase');
    expect(res.body).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Sold Out<\/button>/);
    expect(res.body).not.toContain('type="number"');
  });

  it('caches pages with an ETag and answers 304 to a matching If-None-Match', async () => {
    const first = await get('/shop');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const second = await get('/shop');
    expect(second.headers.etag).toBe(etag);
    const revalidated = await get('/shop', { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('answers unknown paths with the site 404 page, not cached per path', async () => {
    const before = server.app.pageCache.size;
    for (const path of ['/nope', '/shop/p/nope', '/blog/nope', '/shop/x/y', '/about/deeper']) {
      const res = await get(path);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('<h1>Page not found</h1>');
      expect(res.body).toContain('<meta name="robots" content="noindex">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect(server.app.pageCache.size).toBeLessThanOrEqual(before + 1);
  });

  it('redirects a trailing slash to the one canonical path, keeping the query', async () => {
    const res = await get('/shop/?a=1');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/shop?a=1');
  });

  it('leaves unknown API paths to the API (JSON 404)', async () => {
    const res = await get('/api/nothing-here', { accept: 'text/html' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('renders every page fresh when the cache is disabled', async () => {
    server.app.pageCache.enabled = false;
    try {
      const res = await get('/shop/p/speckled-mug');
      expect(res.statusCode).toBe(200);
    } finally {
      server.app.pageCache.enabled = true;
    }
  });
});

describe('image and bundle routes', () => {
  const imagePath = async () => {
    const res = await get('/shop/p/speckled-mug');
    return /src="(\/assets\/demo\/[^"?]+)\?v=(\d+)/.exec(res.body);
  };

  it('resizes to the asked spec width, as WebP when accepted, cached for a year when versioned', async () => {
    const match = await imagePath();
    expect(match).not.toBeNull();
    const [, path, version] = match!;
    const res = await get(`${path}?v=${version}&format=300w`, { accept: 'image/avif,image/webp,*/*' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBeLessThanOrEqual(300);

    const jpeg = await get(`${path}?format=100w`);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(jpeg.rawPayload).metadata()).width).toBe(100);
    expect(jpeg.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('refuses a width outside the spec list and answers 404 for a missing image', async () => {
    const [, path] = (await imagePath())!;
    const bad = await get(`${path}?format=333w`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('100w, 300w, 500w, 750w, 1000w, 1500w, 2500w');
    const missing = await get('/assets/demo/images/missing.jpg?format=100w');
    expect(missing.statusCode).toBe(404);
  });

  it('serves the built bundle with immutable caching', async () => {
    const page = await get('/');
    const src = /<script type="module" src="([^"]+)"/.exec(page.body)?.[1];
    expect(src).toMatch(/^\/client\/assets\/main-[\w-]+\.js$/);
    const res = await get(src!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });
});
