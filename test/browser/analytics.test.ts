/**
 * Measurement in a real browser (issue 11): the real server (SQLite, the demo site), Debian's Chromium, the built
 * bundle (`npx vite build` first). A page view sends RecordHit with the §3 payload and the 404 page sends none; the
 * census cookies follow §4 across visits (the page's clock moved); the consent setting stops tracking; hiding the page
 * sends the vitals batch; a thrown error reaches the reporter with the crumb header and the 21st send is dropped; a
 * purchase shows up in the report's funnel and sales (its order page's address stored nowhere); the report page is axe
 * clean at 390 and 1280 px. And the measurement chunk's size: at most 6 KB gzipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyticsRecorderOf } from '../../src/modules/analytics/routes';
import { analyticsReport } from '../../src/modules/analytics/report';
import { createReportToken } from '../../src/modules/analytics/reportTokens';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

/** Headless Chromium says "HeadlessChrome", which analytics counts as a bot: the tests browse as a desktop Chrome. */
const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const RECORD_HIT = '/api/census/RecordHit';
const ERRORS = '/api/events/RecordJavascriptErrors';

let shop: RunningServer;
let consentShop: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [shop, consentShop, browser] = await Promise.all([
    startServer(),
    startServer({
      editSite: (site) => void ((site.website as Record<string, unknown>).analytics = { cookieConsent: 'required' }),
    }),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await consentShop?.close();
});

beforeEach(async () => {
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: DESKTOP_CHROME });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
});

const hitsOf = (p: Page) => {
  const hits: Record<string, unknown>[] = [];
  p.on('request', (r) => {
    if (r.url().endsWith(RECORD_HIT))
      hits.push(JSON.parse(new URLSearchParams(r.postData() ?? '').get('data') ?? '{}') as Record<string, unknown>);
  });
  return hits;
};
const cookie = async (name: string, server = shop) =>
  (await context.cookies(server.url)).find((c) => c.name === name)?.value;
/** The measurement module has run on the page once it wrote (or deleted) the census cookies: wait for its page view. */
const waitForHit = () => page.waitForRequest((r) => r.url().endsWith(RECORD_HIT));
/**
 * The visit cookie as the page sees it. Not context.cookies(): a document.cookie write reaches the browser's cookie
 * store asynchronously, so right after the page view is sent the store may still hold the value before it.
 */
const visitParts = async () =>
  decodeURIComponent(
    (await page.evaluate(() =>
      document.cookie
        .split('; ')
        .find((c) => c.startsWith('ss_cvr='))
        ?.slice(7),
    )) ?? '',
  ).split('|');

describe('census', () => {
  it('a page view sends RecordHit with the §3 payload; the 404 page sends none', async () => {
    const hits = hitsOf(page);
    const hit = waitForHit();
    await page.goto(`${shop.url}/shop/p/speckled-mug?ref=mail`);
    const request = await hit;
    const form = new URLSearchParams(request.postData() ?? '');
    expect(form.get('event')).toBe('RecordHit');
    const data = JSON.parse(form.get('data') ?? '{}') as Record<string, unknown>;
    expect(data).toMatchObject({
      pagePath: '/shop/p/speckled-mug',
      websiteId: 'demo',
      website_locale: expect.any(String),
      itemId: expect.any(String),
      collectionId: 'shop',
      recordType: 11,
      contentSource: 'i',
      pageType: 50,
      userAgent: DESKTOP_CHROME,
      viewportWidth: 1280,
      viewportHeight: 900,
      screenWidth: expect.any(Number),
      screenHeight: expect.any(Number),
      localStorageSupported: true,
      queryString: '?ref=mail',
      url: `${shop.url}/shop/p/speckled-mug?ref=mail`,
      referrer: '',
    });
    expect(data.pageTitle).toBe(await page.title());
    expect(typeof data.clientDate).toBe('number');
    expect(form.get('ss_cvr')).toBe(data.visitorCookie);
    expect(String(data.visitorCookie)).toMatch(/^[0-9a-f-]{36}\|\d+\|\d+\|\d+\|1$/);
    expect(request.headers()['content-type']).toContain('application/x-www-form-urlencoded');

    // The module ran on the 404 page (it refreshed the session cookie), and still no page view was sent.
    const before = await cookie('ss_cvt');
    await page.goto(`${shop.url}/no-such-page`);
    await page.waitForFunction((old) => !document.cookie.includes(`ss_cvt=${old}`), before, { timeout: 10_000 });
    await page.waitForTimeout(300);
    expect(hits.map((h) => h.pagePath)).toEqual(['/shop/p/speckled-mug']);
  });

  it('the cookies follow §4 across visits: same visit within 30 minutes, the next visit counted after', async () => {
    const t0 = Date.parse('2026-03-02T10:00:00Z');
    await page.clock.install({ time: t0 });
    let hit = waitForHit();
    await page.goto(`${shop.url}/`);
    await hit;
    const [id, first, previous, current, count] = await visitParts();
    expect([first, previous, current, count]).toEqual(
      [String(t0), String(t0), String(t0), '1'].map((v, i) => (i < 3 ? expect.stringMatching(/^\d+$/) : v)),
    );
    const start = Number(current);
    expect(Math.abs(start - t0)).toBeLessThan(60_000);
    expect(await cookie('ss_cvt')).toMatch(/^\d+$/);
    const cookies = await context.cookies(shop.url);
    const visitExpiry = cookies.find((c) => c.name === 'ss_cvr')!.expires;
    // Asked for 2 years; Chromium keeps no cookie longer than 400 days.
    expect(visitExpiry - Date.now() / 1000).toBeGreaterThan(399 * 86_400);

    // 10 minutes later: the same visit.
    await page.clock.setSystemTime(start + 10 * 60_000);
    hit = waitForHit();
    await page.goto(`${shop.url}/shop`);
    await hit;
    expect(await visitParts()).toEqual([id, first, previous, current, '1']);

    // 31 minutes after that hit: the session is over, the count goes up and the times move.
    await page.clock.setSystemTime(start + 41 * 60_000);
    hit = waitForHit();
    await page.goto(`${shop.url}/`);
    await hit;
    const [id2, first2, previous2, current2, count2] = await visitParts();
    expect([id2, first2, previous2, count2]).toEqual([id, first, current, '2']);
    expect(Number(current2)).toBeGreaterThanOrEqual(start + 41 * 60_000);

    // A malformed counter is discarded: a new visitor.
    await context.addCookies([{ name: 'ss_cvr', value: 'garbage|1|2', url: shop.url }]);
    hit = waitForHit();
    await page.goto(`${shop.url}/`);
    await hit;
    const [id3, , , , count3] = await visitParts();
    expect(id3).not.toBe(id);
    expect(count3).toBe('1');
  });

  it('the consent setting stops tracking: no cookies and a fresh id on every page until the visitor accepts', async () => {
    const hits = hitsOf(page);
    let hit = waitForHit();
    await page.goto(`${consentShop.url}/`);
    await hit;
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await banner.waitFor();
    expect(await cookie('ss_cvr', consentShop)).toBeUndefined();
    expect(await cookie('ss_cvt', consentShop)).toBeUndefined();
    hit = waitForHit();
    await page.goto(`${consentShop.url}/shop`);
    await hit;
    expect(await cookie('ss_cvr', consentShop)).toBeUndefined();
    const [a, b] = hits.map((h) => String(h.visitorCookie).split('|')[0]);
    expect(a).not.toBe(b);

    await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => cookie('ss_cvr', consentShop)).toBeDefined();
    await expect.poll(() => cookie('vitrine_consent', consentShop)).toBe('yes');
    hit = waitForHit();
    await page.goto(`${consentShop.url}/`);
    await hit;
    expect(await page.getByRole('region', { name: 'Cookie consent' }).count()).toBe(0);
    expect(String(hits.at(-1)!.visitorCookie).split('|')[0]).toBe(
      decodeURIComponent((await cookie('ss_cvr', consentShop))!).split('|')[0],
    );
  });
});

describe('performance records', () => {
  it('hiding the page sends the vitals batch (text/plain beacon) with §9 ratings', async () => {
    const hit = waitForHit();
    await page.goto(`${shop.url}/shop/p/speckled-mug`);
    await hit;
    // An input ends LCP's observation (web-vitals reports it then); hiding the page ends the others'.
    await page.mouse.click(5, 5);
    await page.waitForTimeout(300);
    const beacon = page.waitForRequest((r) => r.url().endsWith('/api/1/performance/records'));
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    const request = await beacon;
    const records = JSON.parse(request.postData() ?? '[]') as {
      name: string;
      value: number;
      rating: string | null;
      path: string;
    }[];
    const names = records.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['FCP', 'TTFB', 'LCP']));
    for (const r of records) expect(r.path).toBe('/shop/p/speckled-mug');
    expect(records.find((r) => r.name === 'FCP')!.rating).toMatch(/^(good|needs-improvement|poor)$/);
    await expect
      .poll(async () => {
        await analyticsRecorderOf(shop.app)!.buffer.flush();
        return (
          await shop
            .db!.selectFrom('analytics_events')
            .select('name')
            .where('kind', '=', 'vital')
            .where('path', '=', '/shop/p/speckled-mug')
            .execute()
        ).map((r) => r.name);
      })
      .toEqual(expect.arrayContaining(['FCP', 'TTFB', 'LCP']));
  });
});

describe('the error reporter', () => {
  it('sends a thrown error with the crumb header, debounced 1 s; the 21st send is dropped', async () => {
    await page.clock.install();
    const sends: Request[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(ERRORS)) sends.push(r);
    });
    const hit = waitForHit();
    await page.goto(`${shop.url}/`);
    await hit;
    for (let i = 1; i <= 21; i++) {
      // Thrown by an event listener: uncaught, so it reaches window's error event.
      await page.evaluate((n) => {
        const target = document.createElement('button');
        target.addEventListener('click', () => {
          throw new Error(`boom ${n}`);
        });
        target.click();
      }, i);
      // The reporter's chunk loads at the first error.
      if (i === 1) await page.waitForTimeout(300);
      await page.clock.runFor(1100);
      await page.waitForTimeout(50);
    }
    await page.waitForTimeout(500);
    expect(sends.length).toBe(20);
    const crumb = await cookie('crumb');
    expect(sends[0]!.headers()['x-csrf-token']).toBe(crumb);
    const first = JSON.parse(sends[0]!.postData() ?? '[]') as { message: string; stack?: string; url: string }[];
    expect(first[0]).toMatchObject({ message: expect.stringContaining('boom 1'), url: `${shop.url}/` });
    expect(first[0]!.stack).toContain('boom 1');
    expect(
      sends.map((s) => (JSON.parse(s.postData() ?? '[]') as { message: string }[])[0]!.message).join(),
    ).not.toContain('boom 21');
  });
});

describe('errors before the measurement module loads', () => {
  it('an error thrown while the page is still loading (after the scripts ran, before the load event) is reported', async () => {
    const sent = page.waitForRequest((r) => r.url().endsWith(ERRORS), { timeout: 10_000 });
    // Module scripts run before DOMContentLoaded; the measurement module loads only after the load event.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        throw new Error('early boom');
      });
    });
    await page.goto(`${shop.url}/`);
    const batch = JSON.parse((await sent).postData() ?? '[]') as { message: string }[];
    expect(batch.map((e) => e.message)).toEqual([expect.stringContaining('early boom')]);
  });
});

describe('the shop funnel', () => {
  it('a purchase made in the browser shows up in the report: product page view → add → checkout → purchase, its sales from the order, its private page nowhere', async () => {
    let hit = waitForHit();
    await page.goto(`${shop.url}/shop/p/speckled-mug`);
    await hit;
    const added = page.waitForRequest(
      (r) => r.url().endsWith('/api/events/RecordEvent') && (r.postData() ?? '').includes('CommerceShopping_AddToCart'),
    );
    await page.getByLabel('Select Color').selectOption('Oatmeal');
    await page.getByRole('button', { name: 'Add To Cart', exact: true }).click();
    const addEvent = new URLSearchParams((await added).postData() ?? '');
    expect(addEvent.get('crumb')).toBe(await cookie('crumb'));
    const addData = JSON.parse(addEvent.get('data') ?? '{}') as { price: number; quantity: number; sku: string };
    // §7: prices in cents, divided by 100 for tracking.
    const variant = await shop
      .db!.selectFrom('variants')
      .select(['price', 'sale_price', 'on_sale'])
      .where('sku', '=', addData.sku)
      .executeTakeFirstOrThrow();
    expect(addData).toMatchObject({
      quantity: 1,
      sku: 'MUG-OAT',
      price: (variant.on_sale && variant.sale_price !== null ? variant.sale_price : variant.price) / 100,
    });

    hit = waitForHit();
    await page.goto(`${shop.url}/checkout`);
    await hit;
    const placed = await context.request.post(`${shop.url}/api/commerce/checkout/orders`, {
      headers: await crumbHeader(context, shop.url),
      data: {
        idempotencyKey: 'browser-analytics-order-0001',
        email: 'ada@example.com',
        shippingAddress: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          address1: '1 Main Street',
          address2: '',
          city: 'New York',
          country: 'US',
          region: 'NY',
          postalCode: '10001',
          phone: '',
        },
        shippingOptionId: 'standard',
        payment: { cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' },
      },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const { orderUrl } = (await placed.json()) as { orderUrl: string };
    const purchase = page.waitForResponse(
      (r) =>
        r.url().endsWith('/api/events/RecordEvent') &&
        (r.request().postData() ?? '').includes('CommerceShopping_CheckoutConfirmed'),
    );
    await page.goto(shop.url + orderUrl);
    expect((await purchase).status()).toBe(202);

    await analyticsRecorderOf(shop.app)!.buffer.flush();
    const total = await shop.db!.selectFrom('orders').select('grand_total').executeTakeFirstOrThrow();
    const report = await analyticsReport(shop.db!, { siteId: 'demo', currency: 'USD', days: 1, now: new Date() });
    const steps = Object.fromEntries(report.funnel.steps.map((s) => [s.step, s.visitors]));
    expect(steps['product-view']).toBeGreaterThanOrEqual(1);
    expect(steps['add-to-cart']).toBeGreaterThanOrEqual(1);
    expect(steps.checkout).toBeGreaterThanOrEqual(1);
    expect(steps.purchase).toBe(1);
    expect(report.sales).toMatchObject({ orders: 1, grossSales: Number(total.grand_total), currency: 'USD' });
    // The order page was visited: its private address is stored nowhere and listed nowhere.
    const orderId = orderUrl.split('/').pop()!;
    expect(JSON.stringify(report)).not.toContain(orderId);
    expect(JSON.stringify(report.topPages)).not.toContain('/checkout');
    const stored = await shop.db!.selectFrom('analytics_events').select(['path', 'name', 'detail']).execute();
    expect(JSON.stringify(stored)).not.toContain(`/checkout/order/${orderId}`);
    expect(stored.some((e) => e.name === 'CommerceShopping_CheckoutConfirmed' && e.path === '(private)')).toBe(true);
  });
});

describe('the report page', () => {
  it('is styled within its CSP, axe clean and fits a phone (390 px) and a laptop (1280 px), with the sales of the orders', async () => {
    const token = await createReportToken(shop.db!, 'demo');
    const total = await shop.db!.selectFrom('orders').select('grand_total').execute();
    const refused: string[] = [];
    // What the CSP refuses is said on the console (a 404 for the favicon is not).
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(`${shop.url}/analytics/report?token=${token}`);
      expect(response!.status()).toBe(200);
      // The style applied (the figures are laid out as cards), and no horizontal scrolling of the page.
      expect(
        await page
          .locator('.figure')
          .first()
          .evaluate((e) => getComputedStyle(e).borderRadius),
      ).toBe('6px');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axeViolationsOf(page)).toEqual([]);
    }
    expect(refused).toEqual([]);
    expect(await page.locator('h2').allTextContents()).toEqual(['Sales', 'Visits', 'Speed and errors']);
    expect(await page.locator('.figure dt:text-is("Orders") + dd').textContent()).toBe(String(total.length));
  });
});

describe('the measurement chunk', () => {
  it('adds at most 6 KB gzipped to any page, and nothing to its first render', () => {
    const dir = join(import.meta.dirname, '../../dist/client');
    type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
    const manifest = JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
    // The measurement module's chunk (the error reporter's own chunk loads at the first error: ./catchErrors.ts).
    const [key, measure] = Object.entries(manifest).find(([, c]) =>
      (c.dynamicImports ?? []).includes('src/client/measure/consent.ts'),
    )!;
    const gz = (chunk: Chunk) => gzipSync(readFileSync(join(dir, chunk.file)), { level: 9 }).length;
    for (const entry of ['src/client/main.tsx', 'src/client/checkout.tsx']) {
      const loaded = new Set(manifest[entry]!.imports ?? []);
      // Loaded dynamically (./measure/load.ts), never with the page's first scripts…
      expect(loaded.has(key)).toBe(false);
      // …and what it adds is itself and the small chunks it shares with the error reporter's: 6 KB at most in all.
      const added = [
        measure,
        ...(measure.imports ?? []).filter((d) => !loaded.has(d) && d !== entry).map((d) => manifest[d]!),
      ];
      const size = added.reduce((sum, chunk) => sum + gz(chunk), 0);
      console.log(`measurement on ${entry}: ${size} bytes gzipped in ${added.length} chunk(s)`);
      expect(size).toBeLessThanOrEqual(6000);
      expect(added.length).toBeLessThanOrEqual(2);
    }
  });
});
