/**
 * `GET /api/context/config` (spec §7) on SQLite and PostgreSQL: the bootstrap configuration of the host's site
 * (website id, locale, time zone, currency, CAPTCHA provider and site key, labels, store settings), nothing secret or
 * internal from the site file, an ETag per site version (304 until the next import), and the browser's loader
 * (src/client/contextConfig.ts) against the running server: the configuration, or null and a report when the call fails.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContextConfig } from '../../src/client/contextConfig';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { buildApp } from '../../src/server/app';
import { seedSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';

const CONFIG = '/api/context/config';
const HOST = 'config.test';
const OTHER_HOST = 'plain.test';

/** Secrets and internal settings that must never reach the browser. */
const SECRETS = ['orders@config.test', 'STAFF50', 'Pay to IBAN DE00 1234', 'config.test', 'Sales tax', 'Courier'];

const site = (title: string): SiteFileInput => ({
  version: 1,
  website: {
    id: 'config-shop',
    title,
    domains: [HOST],
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
    locale: 'de-DE',
    labels: { addToCart: 'In den Warenkorb', quickView: '', sale: 'Angebot' },
    captcha: { provider: 'turnstile', siteKey: '0x4AAAAAAAB-site_key' },
    store: {
      multipleQuantityAllowedForServices: false,
      expressCheckout: { enabled: true },
      minimumSubtotal: 1500,
      payLater: { enabled: true, min: 3500, max: 100_000, accountCountry: 'GB' },
      checkout: {
        shopEmail: 'orders@config.test',
        shipsTo: ['US'],
        shippingOptions: [{ id: 'courier', name: 'Courier', rate: 900 }],
        tax: { rates: [{ country: 'US', rate: 8, name: 'Sales tax' }] },
        coupons: [{ code: 'STAFF50', type: 'percent', amount: 50 }],
        payments: { provider: 'manual', manualInstructions: 'Pay to IBAN DE00 1234' },
      },
    },
    comments: { commentsEnabled: false, simpleLikingEnabled: true },
  },
  collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
  products: [
    {
      id: 'mug',
      collectionId: 'shop',
      slug: 'mug',
      name: 'Mug',
      productType: 1,
      variants: [{ sku: 'mug-1', price: 1000, stock: { qtyInStock: 1 } }],
    },
  ],
});

const plainSite: SiteFileInput = {
  version: 1,
  website: { id: 'plain', title: 'Plain', domains: [OTHER_HOST] },
  collections: [],
  products: [],
};

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    await seedSite(getDb(), site('Config shop'));
    await seedSite(getDb(), plainSite);
    app = await buildApp({ db: getDb(), engine });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (host = HOST, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: CONFIG, headers: { host, ...headers } });

  describe('the configuration', () => {
    it("answers the host's website, labels and store settings", async () => {
      const response = await get();
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const version = (
        await getDb().selectFrom('sites').select('version').where('id', '=', 'config-shop').executeTakeFirstOrThrow()
      ).version;
      expect(response.json()).toEqual({
        website: {
          id: 'config-shop',
          title: 'Config shop',
          locale: 'de-DE',
          timeZone: 'Europe/Berlin',
          currency: 'EUR',
          templateVersion: version,
          captchaSettings: { provider: 'turnstile', siteKey: '0x4AAAAAAAB-site_key' },
          commentSettings: { commentsEnabled: false, simpleLikingEnabled: true },
          cookieConsent: 'not-required',
        },
        // Blank and missing labels are the §9 defaults.
        labels: {
          addToCart: 'In den Warenkorb',
          subscribe: 'Subscribe',
          quantity: 'Quantity',
          quickView: 'Quick View',
          salePrice: 'Sale Price:',
          originalPrice: 'Original Price:',
          selectValue: 'Select Value',
          soldOut: 'sold out',
          sale: 'Angebot',
        },
        storeSettings: {
          currency: 'EUR',
          multipleQuantityAllowedForServices: false,
          expressCheckout: { enabled: true },
          minimumSubtotal: 1500,
          payLater: { enabled: true, min: 3500, max: 100_000, accountCountry: 'GB' },
        },
      });
    });

    it('holds nothing secret or internal: no shop e-mail, coupon, payment, tax or shipping setting, no domain', async () => {
      const body = (await get()).body;
      for (const secret of SECRETS) expect(body).not.toContain(secret);
      expect(Object.keys((await get()).json().storeSettings)).not.toContain('checkout');
    });

    it("answers another host's site with the defaults it never set", async () => {
      const config = (await get(OTHER_HOST)).json();
      expect(config.website).toMatchObject({
        id: 'plain',
        locale: 'en-US',
        timeZone: 'America/New_York',
        currency: 'USD',
        captchaSettings: { provider: 'altcha', siteKey: null },
      });
      expect(config.labels.addToCart).toBe('Add To Cart');
      expect(config.storeSettings).toMatchObject({
        multipleQuantityAllowedForServices: true,
        minimumSubtotal: 0,
        expressCheckout: { enabled: false },
      });
    });
  });

  describe('caching per site version', () => {
    it('sends an ETag and must-revalidate; the same ETag back gets 304 without a body', async () => {
      const first = await get();
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      const again = await get(HOST, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect((await get(HOST, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
      expect((await get(HOST, { 'if-none-match': '"other"' })).statusCode).toBe(200);
      // Another site's configuration has another ETag.
      expect((await get(OTHER_HOST)).headers.etag).not.toBe(etag);
    });

    it('changes with an import: the old ETag gets the new configuration', async () => {
      const before = await get();
      await seedSite(getDb(), site('Config shop, renamed'));
      app.siteCache.invalidate();
      const after = await get(HOST, { 'if-none-match': String(before.headers.etag) });
      expect(after.statusCode).toBe(200);
      expect(after.json().website.title).toBe('Config shop, renamed');
      expect(after.json().website.templateVersion).toBe(before.json().website.templateVersion + 1);
      expect(after.headers.etag).not.toBe(before.headers.etag);
    });
  });

  describe("the browser's loader (src/client/contextConfig.ts)", () => {
    it('reads the configuration of the page’s site', async () => {
      const reports: Error[] = [];
      const config = await loadContextConfig({ base: url, report: (e) => reports.push(e) });
      // The listening server answers 127.0.0.1 with its default site, the first one stored without a default: any.
      expect(config?.website.id).toMatch(/^(config-shop|plain)$/);
      expect(reports).toEqual([]);
    });

    it('uses null and reports when the server cannot be reached', async () => {
      const reports: Error[] = [];
      const closed = await buildApp({ db: getDb(), engine });
      const closedUrl = await closed.listen({ host: '127.0.0.1', port: 0 });
      await closed.close();
      expect(await loadContextConfig({ base: closedUrl, report: (e) => reports.push(e) })).toBeNull();
      expect(reports).toHaveLength(1);
      expect(reports[0]?.message).toMatch(/^Bootstrap configuration unavailable: /);
    });

    it('uses null and reports an error answer or a body that is not the configuration', async () => {
      const reports: Error[] = [];
      // A page path in front of the API's: the site's 404 page, HTML.
      expect(await loadContextConfig({ base: `${url}/no-such-page`, report: (e) => reports.push(e) })).toBeNull();
      // The inventory call answers JSON, but not the configuration.
      const notConfig: typeof fetch = (_input, init) => fetch(`${url}/api/commerce/inventory/stock/?itemId=mug`, init);
      expect(await loadContextConfig({ fetchImpl: notConfig, report: (e) => reports.push(e) })).toBeNull();
      expect(reports.map((e) => e.message)).toEqual([
        'Bootstrap configuration unavailable: /api/context/config answered HTTP 404',
        expect.stringMatching(/^Bootstrap configuration unavailable: /),
      ]);
    });
  });
});
