/**
 * The owner's home in Chromium (issue 25), on both engines: a store manager signs in and lands at /admin — the orders
 * to fulfil, the day's sales, stock and restock figures and the latest orders — with no axe violation and nothing
 * wider than the window at 390 px and 1280 px; the 'to fulfil' link leads to the orders to fulfil with the keyboard
 * alone; the page reads the same with JavaScript off. Needs the built bundle (`vite build`).
 * VITRINE_SCREENSHOTS=<dir> writes the page at both widths there (to look at it).
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { addStaff, MANAGER, overflowOf, placeOrder, signedIn } from './adminShop';
import { startServer, type RunningServer } from './server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `the owner's home in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    const numbers: number[] = [];
    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await addStaff(shop);
      numbers.push(await placeOrder(browser, shop, 'first@example.com', 1));
      numbers.push(await placeOrder(browser, shop, 'second@example.com', 2));
    });
    afterAll(async () => shop?.close());

    it('has no axe violation and nothing wider than the window at 390 px and 1280 px', async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, MANAGER, { width });
        const page = await context.newPage();
        expect((await page.goto(`${shop.url}/admin`))?.status()).toBe(200);
        await expect(page.getByRole('link', { name: '2 orders to fulfil' }).isVisible()).resolves.toBe(true);
        await expect(page.getByRole('heading', { name: 'Latest orders' }).isVisible()).resolves.toBe(true);
        await expect(
          page
            .getByRole('region', { name: 'Latest orders table' })
            .getByRole('link', { name: `#${numbers[1]}` })
            .count(),
        ).resolves.toBe(1);
        expect(await axeViolationsOf(page), `/admin at ${width} px`).toEqual([]);
        expect(await overflowOf(page), `/admin at ${width} px`).toBeLessThanOrEqual(0);
        const dir = process.env.VITRINE_SCREENSHOTS;
        if (dir) await page.screenshot({ path: join(dir, `admin-home-${engine}-${width}.png`), fullPage: true });
        await context.close();
      }
    });

    it("follows the 'to fulfil' link to the pending orders with the keyboard alone", async () => {
      const context = await signedIn(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin`);
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          return el.tagName === 'A' && el.innerText.replace(/\s+/g, ' ').trim() === '2 orders to fulfil';
        });
      }
      expect(reached, "Tab reaches '2 orders to fulfil'").toBe(true);
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement as HTMLElement).outlineStyle);
      expect(outline).not.toBe('none');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/orders?to-fulfil=1');
      await expect(
        page.getByText('The orders to fulfil: paid (refunded in part or not) and not yet fulfilled.').count(),
      ).resolves.toBe(1);
      for (const n of numbers)
        await expect(page.getByRole('row', { name: new RegExp(`#${n}\\b`) }).count(), `#${n}`).resolves.toBe(1);
      await context.close();
    });

    it('reads the same without JavaScript', async () => {
      const context = await signedIn(browser, shop, MANAGER, { width: 390, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin`);
      await expect(page.getByRole('link', { name: '2 orders to fulfil' }).getAttribute('href')).resolves.toBe(
        '/admin/orders?to-fulfil=1',
      );
      await expect(page.getByText('Orders today').isVisible()).resolves.toBe(true);
      await context.close();
    });
  },
);
