/**
 * The cart page in Chromium (issue 23), on SQLite and PostgreSQL. With JavaScript off: add from the product page,
 * /cart shows the line (its thumbnail and a link to the product, the option, the subtotal), the quantity changes
 * through its Update form, more than the stock is refused on the page with §8's title and the §5 text, Remove
 * empties the cart, which says so and leads back to the shop. With JavaScript on: the page made for the visitor's
 * cart never shows an empty cart on its way to the island's controls, which still change and remove lines. Neither
 * page has the floating pill. Screenshots at 390 and 1280 px go to $CART_SCREENSHOTS when set.
 * Needs the built island bundle (`vite build`).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const SLOW = 120_000;
const SHOTS = process.env.CART_SCREENSHOTS;
const MUG = 'Speckled Stoneware Mug';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachEngine(
  (engine) => `the cart page in Chromium (${engine})`,
  (engine) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ engine });
    });
    afterAll(async () => {
      await server?.close();
    });

    const shot = async (page: Page, name: string) => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${engine}-${name}.png`), fullPage: true });
    };
    const subtotal = (page: Page) => page.locator('.cart-summary__subtotal').innerText();
    const addSlateMug = async (page: Page) => {
      await page.goto(`${server.url}/shop/p/speckled-mug`, { waitUntil: 'load' });
      await page.getByLabel('Select Color').selectOption('Slate'); // 2 in stock
      await page.locator('form.purchase button[type=submit]').click();
    };

    it(
      'without JavaScript: add → the line on /cart → change its quantity → refused past the stock → remove',
      async () => {
        const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
        try {
          const page = await context.newPage();
          await addSlateMug(page);
          await page.waitForURL(/#cart-notice$/);
          await page.locator('#cart-notice').getByRole('link', { name: 'View cart' }).click();
          await page.waitForURL(/\/cart$/);

          const line = page.locator('.cart-line');
          expect(await line.count()).toBe(1);
          expect(await line.getByRole('link', { name: MUG }).getAttribute('href')).toBe('/shop/p/speckled-mug');
          const thumbnail = line.locator('.cart-line__thumb img');
          expect(await thumbnail.getAttribute('src')).toMatch(/^\/assets\/demo\//);
          await page.waitForFunction(
            () => (document.querySelector('.cart-line__thumb img') as HTMLImageElement | null)?.complete === true,
          );
          expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
          expect(await line.innerText()).toContain('Color: Slate');
          expect(await subtotal(page)).toBe('$28.00');
          expect(await page.locator('a.cart-pill').count()).toBe(0);
          await shot(page, 'nojs-390');

          const box = page.getByRole('spinbutton', { name: `Quantity (${MUG})` });
          await box.fill('2');
          await page.getByRole('button', { name: `Update quantity of ${MUG}` }).click();
          await page.waitForFunction(() => document.querySelector('.cart-summary__subtotal')?.textContent === '$56.00');
          expect(await box.inputValue()).toBe('2');

          // A third is more than the stock: §8's title and the §5 text on the page, the line keeps 2.
          await box.fill('3');
          await box.press('Enter');
          await page.waitForURL(/\/cart#cart-notice$/);
          const notice = page.locator('#cart-notice');
          expect(await notice.getAttribute('role')).toBe('alert');
          expect((await notice.innerText()).split('\n').filter(Boolean)).toEqual([
            'Unable to update quantity',
            'Sorry, we do not have enough of that item available.',
          ]);
          expect(await page.getByRole('spinbutton', { name: `Quantity (${MUG})` }).inputValue()).toBe('2');
          expect(await subtotal(page)).toBe('$56.00');

          await page.setViewportSize({ width: 1280, height: 800 });
          await shot(page, 'nojs-1280-notice');

          await page.getByRole('button', { name: `Remove ${MUG}` }).click();
          await page.getByText('You have nothing in your shopping cart.').waitFor();
          expect(await page.locator('#cart-notice').count()).toBe(0);
          await shot(page, 'nojs-1280-empty');
          await page.getByRole('link', { name: 'Continue shopping' }).click();
          await page.waitForURL(/\/shop$/);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      'with JavaScript: the visitor’s lines from the first paint (never an empty cart), then the island’s controls',
      async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        try {
          const page = await context.newPage();
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(e.message));
          // A drawing that differs between the server and hydration is reported by React (a recoverable error).
          page.on('console', (m) => {
            if (m.type() === 'error' && /hydrat|Minified React error/i.test(m.text())) errors.push(m.text());
          });
          await addSlateMug(page);
          await page.locator('a.cart-pill').waitFor({ state: 'visible' });

          // Anything the cart page ever shows on its way: an empty cart or a cart still loading would be seen here.
          await page.addInitScript(() => {
            const seen: string[] = [];
            (window as unknown as { __cartSeen: string[] }).__cartSeen = seen;
            new MutationObserver(() => {
              if (document.querySelector('.cart-empty')) seen.push('empty');
              if (document.querySelector('.cart-contents[aria-busy="true"]')) seen.push('loading');
            }).observe(document, { childList: true, subtree: true, attributes: true });
          });
          await page.goto(`${server.url}/cart`, { waitUntil: 'load' });
          const increase = page.getByRole('button', { name: `Increase quantity of ${MUG}` });
          await increase.waitFor();
          expect(await page.evaluate(() => (window as unknown as { __cartSeen: string[] }).__cartSeen)).toEqual([]);
          expect(await page.locator('.cart-line').getByRole('link', { name: MUG }).getAttribute('href')).toBe(
            '/shop/p/speckled-mug',
          );
          expect(await page.locator('.cart-line__thumb img').count()).toBe(1);
          expect(await page.locator('a.cart-pill').count()).toBe(0);

          await increase.click();
          await page.waitForFunction(() => document.querySelector('.cart-summary__subtotal')?.textContent === '$56.00');
          await shot(page, 'js-1280');
          await page.setViewportSize({ width: 390, height: 844 });
          await shot(page, 'js-390');

          await page.getByRole('button', { name: `Remove ${MUG}` }).click();
          await page.getByText('You have nothing in your shopping cart.').waitFor();
          expect(await page.getByRole('link', { name: 'Continue shopping' }).getAttribute('href')).toBe('/shop');
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );
  },
);
