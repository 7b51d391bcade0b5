/**
 * Choices made on a product page before its script has run (a slow connection), in Chromium, on both engines: React
 * keeps what the shopper chose on screen when it hydrates the buying island but not in the island's state, so the
 * island reads it back (src/client/islands/ProductPurchase.tsx). The page's script is held back here until the
 * shopper has chosen. Needs the built bundle (`vite build`).
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `choices made before the product page's script ran, in Chromium (${engine})`,
  (engine) => {
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      server = await startServer({ engine });
      context = await browser.newContext();
      page = await context.newPage();
    });
    afterAll(async () => {
      await context?.close();
      await server?.close();
    });

    it('adds the size, grind and quantity chosen before the buying island hydrated', async () => {
      const manifest = JSON.parse(readFileSync('dist/client/.vite/manifest.json', 'utf8')) as Record<
        string,
        { file: string }
      >;
      const main = manifest['src/client/main.tsx']!.file;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**/client/${main}`, async (route) => {
        await released;
        await route.continue();
      });
      try {
        await page.goto(`${server.url}/shop/p/house-blend`, { waitUntil: 'commit' });
        await page.locator('form.purchase button[type=submit]').waitFor({ state: 'attached' });
        await page.getByLabel('Select Size').selectOption('1 kg');
        await page.getByLabel('Select Grind').selectOption('Espresso');
        await page.getByLabel('Quantity').fill('2');
      } finally {
        release();
      }
      await page.waitForFunction(() => document.readyState === 'complete');
      // The island's own price for the chosen variant shows it has the choice, not only the page.
      await expect.poll(() => page.locator('form.purchase .price').first().textContent()).toBe('$42.00');
      await page.locator('form.purchase button[type=submit]').click();
      await expect
        .poll(() => page.locator('form.purchase button[type=submit]').textContent(), { timeout: 15_000 })
        .toBe('Added!');
      const line = await server.db!.selectFrom('cart_entries').select(['sku', 'quantity']).executeTakeFirstOrThrow();
      expect({ sku: line.sku, quantity: Number(line.quantity) }).toEqual({ sku: 'HB-1K-ES', quantity: 2 });
      expect(await page.getByLabel('Select Size').inputValue()).toBe('1 kg');
      expect(await page.getByLabel('Select Grind').inputValue()).toBe('Espresso');
    });
  },
);
