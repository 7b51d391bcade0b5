/**
 * axe-core on every page of the demo store (issue 10: "no serious or critical violation on any page of the demo"),
 * in Chromium, on both engines. The pages are found as a visitor finds them: from the home page, every link of the
 * site's own pages is followed (the header, the footer, product cards, pagers, blog categories and tags, …), plus
 * what no link reaches by itself: a search, a page that does not exist, the lock screen of the protected page, the
 * cart and checkout holding an item. Each page is checked as loaded, islands hydrated (the promo popup open is
 * checked by promo-popup.test.ts).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

/** Enough for the demo (about 40 pages); a loop in the links cannot run the test for ever. */
const MAX_PAGES = 120;
/** Not pages: the API, assets and the server's own POST targets. */
const NOT_A_PAGE = /^\/(api|assets|client|commerce|cart\/add|restock\/|unlock-page|account\/sign-out)/;

/** The site's own page links of the current page: paths (with their query), no fragments, no downloads. */
const linksOf = (page: Page, origin: string) =>
  page.evaluate((origin) => {
    const paths = new Set<string>();
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      const url = new URL(a.href, location.href);
      if (url.origin !== origin || a.hasAttribute('download')) continue;
      paths.add(url.pathname + url.search);
    }
    return [...paths];
  }, origin);

describeEachEngine(
  (engine) => `axe-core on every page of the demo (${engine})`,
  (engine) => {
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      // Without the promo popup (a modal after a few seconds would cover the pages): promo-popup.test.ts runs axe on it.
      server = await startServer({ engine });
      context = await browser.newContext();
      page = await context.newPage();
    });
    afterAll(async () => {
      await context?.close();
      await server?.close();
    });

    const check = async (path: string): Promise<string[]> => {
      const answer = await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
      expect(answer, path).not.toBeNull();
      // Lazy islands hydrate when the browser is idle: let them.
      await page.waitForLoadState('networkidle').catch(() => {});
      return (await axeViolationsOf(page)).map((v) => `${path}: ${v}`);
    };

    it('finds no violation on any page a visitor can reach by its links', { timeout: 600_000 }, async () => {
      const origin = new URL(server.url).origin;
      const seen = new Set<string>(['/']);
      const queue = ['/'];
      const violations: string[] = [];
      while (queue.length > 0 && seen.size <= MAX_PAGES) {
        const path = queue.shift()!;
        violations.push(...(await check(path)));
        for (const link of await linksOf(page, origin)) {
          if (seen.has(link) || NOT_A_PAGE.test(link)) continue;
          seen.add(link);
          queue.push(link);
        }
      }
      // The demo's pages of every kind were reached (a broken header or a missing link would shrink the walk).
      const reached = [...seen];
      for (const kind of [
        /^\/shop$/,
        /^\/shop\/p\//,
        /^\/about$/,
        /^\/contact$/,
        /^\/blog$/,
        /^\/blog\/p?\/?[a-z0-9-]+/,
        /^\/cart$/,
      ]) {
        expect(
          reached.some((p) => kind.test(p)),
          `a page like ${kind} among ${reached.join(' ')}`,
        ).toBe(true);
      }
      expect(reached.length).toBeGreaterThan(20);
      expect(violations).toEqual([]);
    });

    it(
      'finds none on the pages no link leads to: search, not found, lock screen, cart and checkout with an item',
      { timeout: 180_000 },
      async () => {
        const violations: string[] = [];
        for (const path of ['/search?q=mug', '/search?q=zzzz-nothing', '/no-such-page', '/wholesale'])
          violations.push(...(await check(path)));
        // One mug in the cart, from its page.
        await page.goto(`${server.url}/shop/p/speckled-mug`);
        await page.getByLabel('Select Color').selectOption({ index: 1 });
        await page.getByRole('button', { name: 'Add To Cart', exact: true }).click();
        await expect.poll(() => page.getByRole('button', { name: 'Added!' }).count(), { timeout: 10_000 }).toBe(1);
        for (const path of ['/cart', '/checkout']) violations.push(...(await check(path)));
        expect(violations).toEqual([]);
      },
    );
  },
);
