/**
 * A new visitor's quick adds in a real browser (issue 12, item 2): three different products' grid buttons on /shop
 * clicked as fast as a page can (one task, before any answer), in a fresh context each time, 5 times, on SQLite and
 * PostgreSQL: the cart page holds all three every time, and the database holds one cart per visitor.
 * Needs the built island bundle (`vite build`).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/platform/db/connect';
import { postgresUnavailable } from '../support/engines';
import { launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

/** Demo products without options (sites/demo/site.json): their grid buttons add at once. */
const PRODUCTS = ['Espresso Cups, Pair', 'Walnut Coffee Scoop', 'The Home Brewing Guide (e-book)'];
const RUNS = 5;

const pgReason = await postgresUnavailable();
const onCI = process.env.CI === 'true';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Clicks the grid buttons of PRODUCTS in one task (no answer can arrive in between) and waits for the adds' answers. */
async function quickAdds(page: Page): Promise<number[]> {
  const statuses: number[] = [];
  page.on('response', (r) => {
    if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries')
      statuses.push(r.status());
  });
  const clicked = await page.evaluate((names) => {
    const cards = [...document.querySelectorAll<HTMLElement>('.product-card')];
    const buttons = names.map((name) =>
      cards.find((card) => card.textContent?.includes(name))?.querySelector('button'),
    );
    buttons.forEach((b) => b?.click());
    return buttons.filter(Boolean).length;
  }, PRODUCTS);
  expect(clicked).toBe(PRODUCTS.length);
  const deadline = Date.now() + 10_000;
  while (statuses.length < PRODUCTS.length && Date.now() < deadline) await page.waitForTimeout(20);
  return statuses;
}

for (const engine of ['sqlite', 'postgres'] as Engine[]) {
  const skip = engine === 'postgres' && pgReason !== undefined && !onCI;
  (skip ? describe.skip : describe)(`quick adds in Chromium (${engine})`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ engine });
    });
    afterAll(async () => {
      await server?.close();
    });

    it(`keeps all three of three fast clicks on /shop, ${RUNS} times out of ${RUNS}, in one cart per visitor`, async () => {
      const held: string[][] = [];
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          const page = await context.newPage();
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(e.message));
          await page.goto(`${server.url}/shop`, { waitUntil: 'load' });
          await page.waitForFunction(() => document.readyState === 'complete');
          expect(await quickAdds(page)).toEqual([200, 200, 200]);

          await page.goto(`${server.url}/cart`, { waitUntil: 'load' });
          await page.locator('.cart-line').first().waitFor({ timeout: 5000 });
          const lines = await page.locator('.cart-line').allTextContents();
          held.push(PRODUCTS.filter((name) => lines.some((line) => line.includes(name))));
          expect(lines).toHaveLength(PRODUCTS.length);
          // Once the cart exists, the page's claim is dropped (the next cart gets a new one): by /shop when it read its
          // last add's answer, or — when it was left first, as on a slow machine — by the cart page once it loaded the
          // cart with the hasCart cookie (after the lines are on screen).
          await expect
            .poll(() => page.evaluate(() => localStorage.getItem('vitrine.cartClaim')), { timeout: 5000 })
            .toBeNull();
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }
      expect(held).toEqual(Array.from({ length: RUNS }, () => PRODUCTS));
      // One cart per visitor: no orphan carts from the adds that raced.
      const carts = await server.db!.selectFrom('carts').select('id').execute();
      expect(carts).toHaveLength(RUNS);
    });
  });
}
