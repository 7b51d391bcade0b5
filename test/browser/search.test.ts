/**
 * Site search in a real browser, on SQLite and PostgreSQL (the demo site): a query typed in the header's search form
 * by keyboard finds a product by a word of its description, with the word marked; the results are reached with Tab
 * and followed with Enter; the next page of results; a refused query says why beside the field; no page view is
 * sent from /search; a query no document holds every word of shows those holding some, labelled, with pictures and
 * prices, at 390 and 1280 px (screenshots in the temporary folder); axe-core finds no violation. Needs the browser bundle (`npx vite build`).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEARCH_MESSAGES } from '../../src/core/search';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const RECORD_HIT = '/api/census/RecordHit';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describeEachEngine(
  (engine) => engine,
  (engine) => {
    let shop: RunningServer;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];
    const hits: string[] = [];

    beforeAll(async () => {
      shop = await startServer({ engine });
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('request', (r) => {
        if (r.url().endsWith(RECORD_HIT))
          hits.push(JSON.parse(new URLSearchParams(r.postData() ?? '').get('data') ?? '{}').pagePath as string);
      });
    });
    afterAll(async () => {
      await context?.close();
      await shop?.close();
    });

    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}:${(el.textContent ?? '').trim()}` : '';
      });

    it('finds a product by a word of its description, typed in the header form with the keyboard', async () => {
      await page.goto(`${shop.url}/`, { waitUntil: 'load' });
      await page.waitForRequest((r) => r.url().endsWith(RECORD_HIT));
      const field = page.getByRole('search').getByRole('searchbox', { name: 'Search this site' });
      expect(await field.count()).toBe(1);
      expect(await axeViolationsOf(page)).toEqual([]);
      // The header's field is reached by Tab, after the site's navigation.
      let steps = 0;
      while (!(await field.evaluate((el) => el === document.activeElement)) && steps < 20) {
        await page.keyboard.press('Tab');
        steps++;
      }
      expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('dishwasher');
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/search' && url.search === '?q=dishwasher'),
        page.keyboard.press('Enter'),
      ]);

      expect(await page.title()).toBe('Search results for “dishwasher” — Vitrine Demo Store');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Search results for “dishwasher”');
      const results = page.locator('.search-result');
      expect(await results.count()).toBeGreaterThan(0);
      const mug = results.filter({ hasText: 'Speckled Stoneware Mug' });
      expect(await mug.count()).toBe(1);
      expect(await mug.locator('mark').allTextContents()).toEqual(['dishwasher']);
      // The search page's own form holds the query; the header has none of its own here.
      expect(await page.getByRole('search').count()).toBe(1);
      expect(await page.getByRole('searchbox', { name: 'Search this site' }).inputValue()).toBe('dishwasher');
      expect(await axeViolationsOf(page)).toEqual([]);

      // From the form, Tab reaches the button, then the first result; Enter follows it.
      await page.getByRole('searchbox', { name: 'Search this site' }).focus();
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('button:Search');
      await page.keyboard.press('Tab');
      const first = results.first().getByRole('link');
      const href = await first.getAttribute('href');
      expect(await first.evaluate((el) => el === document.activeElement)).toBe(true);
      await Promise.all([page.waitForURL((url) => url.pathname === href), page.keyboard.press('Enter')]);
      // Page views: the home page and the result followed, never /search (the followed page's may already be sent).
      await expect.poll(() => hits, { timeout: 10_000 }).toEqual(['/', href]);
      expect(pageErrors).toEqual([]);
    });

    it("shows what holds some of the words of 'mugs cobalt', labelled so, with pictures and prices, on a phone and a desktop", async () => {
      for (const width of [390, 1280]) {
        const view = await browser.newContext({ viewport: { width, height: 844 } });
        try {
          const tab = await view.newPage();
          const errors: string[] = [];
          tab.on('pageerror', (e) => errors.push(e.message));
          await tab.goto(`${shop.url}/search?q=mugs+cobalt`, { waitUntil: 'load' });
          expect(await tab.locator('.search-page__summary').textContent()).toBe(
            'No results have every word of “mugs cobalt”.',
          );
          const list = tab.getByRole('list', { name: '5 results with some of the words:' });
          expect(await list.isVisible()).toBe(true);
          const vase = list.getByRole('listitem').filter({ hasText: 'Cobalt Bud Vase' });
          expect(await vase.locator('.search-result__missing').textContent()).toBe('Missing: mugs');
          expect(await vase.locator('.price').textContent()).toBe('$38.00 – $46.00');
          const picture = vase.locator('img');
          await picture.scrollIntoViewIfNeeded();
          await expect
            .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
              timeout: 10_000,
            })
            .toBe(true);
          // The picture sits beside the texts, never wider than its column; the page does not scroll sideways.
          const box = (await picture.boundingBox())!;
          const title = (await vase.getByRole('heading').boundingBox())!;
          expect(box.width).toBeLessThanOrEqual(100);
          expect(title.x).toBeGreaterThan(box.x + box.width);
          expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          expect(await axeViolationsOf(tab)).toEqual([]);
          await tab.screenshot({ path: join(tmpdir(), `vitrine-search-${engine}-${width}.png`), fullPage: true });
          expect(errors).toEqual([]);
        } finally {
          await view.close();
        }
      }
    });

    it('pages through results, and a refused query says why beside the field', async () => {
      await page.goto(`${shop.url}/search?q=coffee`, { waitUntil: 'load' });
      const summary = await page.locator('.search-page__summary').textContent();
      const total = Number(/^(\d+) results/.exec(summary ?? '')?.[1]);
      expect(total).toBeGreaterThan(10);
      expect(await page.locator('.search-result').count()).toBe(10);
      const pages = page.getByRole('navigation', { name: 'Pages of results' });
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/search' && url.search === '?q=coffee&page=2'),
        pages.getByRole('link', { name: 'Next page of results' }).click(),
      ]);
      expect(await page.locator('.search-result').count()).toBe(total - 10);
      expect(await pages.textContent()).toContain('Page 2 of 2');
      expect(await page.locator('ol.search-results').getAttribute('start')).toBe('11');
      expect(await axeViolationsOf(page)).toEqual([]);

      const response = await page.goto(`${shop.url}/search?q=${'a'.repeat(201)}`, { waitUntil: 'load' });
      expect(response?.status()).toBe(400);
      const field = page.getByRole('searchbox', { name: 'Search this site' });
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(
        await field.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent),
      ).toBe(SEARCH_MESSAGES.tooLong);
      expect(await axeViolationsOf(page)).toEqual([]);
      expect(hits.filter((h) => h.startsWith('/search'))).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  },
);
