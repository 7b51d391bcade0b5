/**
 * Editor statuses on the storefront (issue 26; src/core/publishing.ts), on SQLite and PostgreSQL, with the demo site:
 * a draft product, a post that needs review, a draft page and things scheduled later are nowhere a visitor looks —
 * navigation, the shop's grid and its count, the home page's blocks, related products and add-ons, the blog, its
 * category lists, the search, likes — and their addresses answer 404; adding a draft product to a cart is refused as a
 * deleted one is, and a cart line of a product unpublished since reads as removed; publishing it again keeps the stock
 * sold meanwhile. A thing scheduled a second ahead appears at its time on two servers sharing the database (the page
 * cache keys on the storefront edition), without a new version. An export keeps the statuses and imports as the same
 * site; a site without statuses exports without them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../src/modules/site/export';
import { importSite } from '../../src/modules/site/import';
import { buildApp } from '../../src/server/app';
import { sendCrumbs } from '../support/crumb';
import { createFreshDb, forEachEngine } from '../support/engines';

const DEMO = join(import.meta.dirname, '../../sites/demo/site.json');
const HOST = 'localhost';

interface Thing {
  id: string;
  status?: string;
  publishAt?: string;
  [key: string]: unknown;
}
interface DemoFile {
  website: Record<string, unknown>;
  products: Thing[];
  pages: Thing[];
  posts: Thing[];
  [key: string]: unknown;
}

const demo = (): DemoFile => JSON.parse(readFileSync(DEMO, 'utf8')) as DemoFile;
const later = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();

/** The demo with a draft product, a post in review, a draft page and a product and a post scheduled in a month. */
function withStatuses(): DemoFile {
  const site = demo();
  delete site.website.promoPopup;
  const set = (list: Thing[], id: string, fields: Partial<Thing>) =>
    Object.assign(
      list.find((t) => t.id === id)!,
      fields,
    );
  set(site.products, 'bud-vase', { status: 'draft' });
  set(site.products, 'coffee-scoop', { status: 'scheduled', publishAt: later });
  set(site.posts, 'brew-ratio', { status: 'needs-review' });
  set(site.posts, 'studio-open-day', { status: 'scheduled', publishAt: later });
  set(site.pages, 'about', { status: 'draft' });
  return site;
}

const load = (db: Parameters<typeof importSite>[0], site: DemoFile) =>
  importSite(db, JSON.stringify(site), dirname(DEMO));

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    await load(getDb(), withStatuses());
    const options = { db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 } as const;
    app = sendCrumbs(await buildApp(options));
    // A second server on the same database: another process, as far as its caches know.
    second = sendCrumbs(await buildApp(options));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await second?.close();
  });

  const get = (url: string, server = app) => server.inject({ method: 'GET', url, headers: { host: HOST } });
  const addToCart = (itemId: string, sku: string, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { host: HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify({ itemId, sku, quantity: 1, additionalFields: '' }),
    });

  describe('what a visitor sees', () => {
    it('answers 404 at the addresses of drafts, things in review and things scheduled later', async () => {
      for (const url of [
        '/shop/p/bud-vase',
        '/shop/p/coffee-scoop',
        '/blog/the-only-brew-ratio-you-need',
        '/blog/studio-open-day',
        '/about',
      ]) {
        const answer = await get(url);
        expect(answer.statusCode, url).toBe(404);
        // Asked again: still the not-found page (a kept 404 is the site's one, not the draft).
        expect((await get(url)).statusCode, url).toBe(404);
      }
      expect((await get('/shop/p/speckled-mug')).statusCode).toBe(200);
      expect((await get('/blog/glaze-notes-cobalt')).statusCode).toBe(200);
    });

    it('leaves them out of navigation, the grid and its count, the blog and its lists, blocks, shelves and the search', async () => {
      const home = (await get('/')).body;
      expect(home).not.toContain('href="/about"');
      expect(home).toContain('href="/contact"');
      expect(home).not.toContain('Cobalt Bud Vase');
      expect(home).not.toContain('The only brew ratio you need');
      const shop = (await get('/shop')).body;
      expect(shop).toContain('Speckled Stoneware Mug');
      expect(shop).not.toContain('Cobalt Bud Vase');
      expect(shop).not.toContain('/shop/p/coffee-scoop');
      const blog = (await get('/blog')).body;
      expect(blog).toContain('/blog/glaze-notes-cobalt');
      expect(blog).not.toContain('/blog/the-only-brew-ratio-you-need');
      expect(blog).not.toContain('/blog/studio-open-day');
      // The category only that post had has no list.
      expect((await get('/blog/category/coffee')).statusCode).toBe(404);
      // The dripper names the scoop as an add-on: not offered while it is not live.
      const dripper = (await get('/shop/p/pour-over-dripper')).body;
      expect(dripper).toContain('Ethiopia Yirgacheffe');
      expect(dripper).not.toContain('/shop/p/coffee-scoop');
      const search = (await get('/search?q=vase')).body;
      expect(search).not.toContain('/shop/p/bud-vase');
      expect((await get('/search?q=brew+ratio')).body).not.toContain('/blog/the-only-brew-ratio-you-need');
      expect((await get('/search?q=studio')).body).not.toContain('href="/about"');
      // §7's stock call knows it no more than a deleted product.
      const stock = await get('/api/commerce/inventory/stock/?itemId=bud-vase');
      expect(stock.statusCode).toBe(404);
      expect(stock.json()).toMatchObject({ code: 'product-not-found', message: "No product has the id 'bud-vase'." });
    });

    it("refuses a draft product's add to cart as a deleted one's", async () => {
      const added = await addToCart('bud-vase', 'VASE-12');
      expect(added.statusCode).toBe(404);
      expect(added.json()).toMatchObject({
        code: 'product-not-found',
        message: 'Sorry, that item is no longer available.',
      });
    });
  });

  describe('a product unpublished while in a cart, then published again', () => {
    it('reads the line as a removed product meanwhile, and keeps the stock sold meanwhile', async () => {
      const added = await addToCart('dinner-plate', 'PLATE-OAT');
      expect(added.statusCode, added.body).toBe(200);
      const cookie = `CART=${added.cookies.find((c) => c.name === 'CART')!.value}`;
      const line = async () =>
        (
          await app.inject({
            method: 'GET',
            url: '/api/commerce/shopping-cart',
            headers: { host: HOST, cookie },
          })
        ).json().entries[0] as { title: string; productType: number | null };
      expect(await line()).toMatchObject({ title: 'Oat Dinner Plate', productType: 1 });
      const stockOf = async () =>
        (
          await getDb()
            .selectFrom('variants')
            .select('qty_in_stock')
            .where('site_id', '=', 'demo')
            .where('sku', '=', 'PLATE-OAT')
            .executeTakeFirstOrThrow()
        ).qty_in_stock;
      const site = withStatuses();
      site.products.find((p) => p.id === 'dinner-plate')!.status = 'draft';
      await load(getDb(), site);
      expect(await line()).toMatchObject({ title: 'PLATE-OAT', productType: null });
      // A sale elsewhere meanwhile (a change of the live stock), then the product is published again.
      await getDb()
        .updateTable('variants')
        .set({ qty_in_stock: 3 })
        .where('site_id', '=', 'demo')
        .where('sku', '=', 'PLATE-OAT')
        .execute();
      await load(getDb(), withStatuses());
      expect(await stockOf()).toBe(3);
      expect(await line()).toMatchObject({ title: 'Oat Dinner Plate', productType: 1 });
      expect((await get('/shop/p/dinner-plate')).statusCode).toBe(200);
    });
  });

  describe('a scheduled post', () => {
    it('appears on both servers at its time, cached pages and all, without a new version', async () => {
      const site = withStatuses();
      const at = Date.now() + 1500;
      const post = site.posts.find((p) => p.id === 'studio-open-day')!;
      post.publishAt = new Date(at).toISOString();
      await load(getDb(), site);
      const version = (
        await getDb().selectFrom('sites').select('version').where('id', '=', 'demo').executeTakeFirstOrThrow()
      ).version;
      const shows = async (server: FastifyInstance) =>
        (await get('/blog', server)).body.includes('href="/blog/studio-open-day"');
      // Before its time: not listed (and the list is now in each server's page cache), its page a 404.
      for (const server of [app, second]) {
        // Each server's site list may be up to a second old: ask until it knows the import.
        await expect
          .poll(async () => (await get('/blog', server)).body.includes('Studio open day'), { timeout: 3000 })
          .toBe(false);
        expect(await shows(server)).toBe(false);
      }
      expect(Date.now()).toBeLessThan(at);
      expect((await get('/blog/studio-open-day')).statusCode).toBe(404);
      // At its time, on both servers (polled: no fixed wait).
      for (const server of [app, second]) {
        await expect.poll(() => shows(server), { timeout: 5000, interval: 50 }).toBe(true);
        expect(Date.now()).toBeGreaterThanOrEqual(at);
      }
      expect((await get('/blog/studio-open-day', second)).statusCode).toBe(200);
      expect((await get('/search?q=open+day')).body).toContain('/blog/studio-open-day');
      const now = (
        await getDb().selectFrom('sites').select('version').where('id', '=', 'demo').executeTakeFirstOrThrow()
      ).version;
      expect(now).toBe(version);
    }, 30_000);
  });

  describe('the site file', () => {
    it('exports the statuses and imports them as the same site; a site without statuses exports without them', async () => {
      await load(getDb(), withStatuses());
      const exported = await exportSite(getDb(), 'demo');
      expect(exported.site.products.find((p) => p.id === 'bud-vase')).toMatchObject({ status: 'draft' });
      expect(exported.site.posts.find((p) => p.id === 'studio-open-day')).toMatchObject({
        status: 'scheduled',
        publishAt: later,
      });
      expect(exported.site.pages.find((p) => p.id === 'about')).toMatchObject({ status: 'draft' });
      expect(exported.site.products.find((p) => p.id === 'speckled-mug')).not.toHaveProperty('status');
      const fresh = await createFreshDb(engine);
      try {
        await importSite(fresh.db, exported.json, dirname(DEMO), 'round trip');
        const again = await exportSite(fresh.db, 'demo');
        expect(again.json).toBe(exported.json);
      } finally {
        await fresh.dispose();
      }
      const plain = demo();
      await load(getDb(), plain);
      expect((await exportSite(getDb(), 'demo')).json).not.toMatch(/"status"|"publishAt"/);
    });

    it('refuses a scheduled thing without its time, a time on a thing not scheduled, and a home page that is not live', async () => {
      const site = demo();
      site.posts[0]!.status = 'scheduled';
      site.products[0]!.publishAt = later;
      site.pages.find((p) => p.id === 'home')!.status = 'draft';
      site.pages.find((p) => p.id === 'contact')!.status = 'hidden';
      await expect(load(getDb(), site)).rejects.toMatchObject({
        problems: expect.arrayContaining([
          expect.stringMatching(/^posts\[0\].*\.publishAt: is needed with status 'scheduled': when it goes live$/),
          expect.stringMatching(/^products\[0\].*\.publishAt: is only for status 'scheduled' \(leave it out\)$/),
          expect.stringMatching(/^pages\[0\].*\.status: the home page \(\/\) is always published: leave status out$/),
          expect.stringMatching(
            /^pages\[2\].*\.status: must be 'draft', 'scheduled' or 'needs-review' \(leave status out for a published one\)$/,
          ),
        ]),
      });
    });
  });
});
