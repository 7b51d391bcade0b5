/**
 * Add to cart without JavaScript, in Chromium (issue 10), on SQLite and PostgreSQL: with scripts turned off, the
 * product page, a product list card and a product block each add through their real forms and come back to their
 * page with §2's '{productName} was added to your cart.' or §5's refusal (one by keyboard); axe finds nothing on the
 * pages with a notice (axe needs scripts: checked in a context that has them). With scripts on, each click adds exactly once (the islands take the submit over: one cart call,
 * no form post), and a product with a custom form asks the inventory call first: sold out since the page was made
 * → the §5 text instead of the form; in stock → the form. A gift card's list button, whose props carry no website
 * id, reads it from the bootstrap configuration (§7 /api/context/config), asked at that click and not at page start.
 * Needs the built island bundle (`vite build`).
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

/**
 * The demo's about page gets a product block (the home page's is a subscription, which has its own checkout), and the
 * shop a gift card of one amount (a card's button that goes straight to the gift-card checkout).
 */
const BLOCK_PAGE = '/about';
const editDemo = (site: { website: { store: Record<string, unknown> } }) => {
  const file = site as unknown as { pages: { path: string; blocks: unknown[] }[]; products: unknown[] };
  file.pages.find((p) => p.path === BLOCK_PAGE)!.blocks.push({ type: 'product', productId: 'espresso-cups' });
  file.products.push({
    id: 'gift-card-25',
    collectionId: 'shop',
    slug: 'gift-card-25',
    name: 'Gift Card, $25',
    productType: 4,
    variants: [{ sku: 'GC1-25', price: 2500, stock: { unlimited: true } }],
  });
};

const ADD_FORM = '/cart/add';
/** Page loads and clicks on a machine shared with other test runs. */
const SLOW = 90_000;
const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const STOCK_API = '/api/commerce/inventory/stock/';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachEngine(
  (engine) => `add to cart without JavaScript in Chromium (${engine})`,
  (engine) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ engine, editSite: editDemo });
    });
    afterAll(async () => {
      await server?.close();
    });

    /** The cart as the API answers it to this browser: product title → quantity. */
    const cartOf = async (context: BrowserContext): Promise<Record<string, number>> => {
      const cart = (await (await context.request.get(`${server.url}/api/commerce/shopping-cart`)).json()) as {
        entries: { title: string; quantity: number }[];
      };
      return Object.fromEntries(cart.entries.map((e) => [e.title, e.quantity]));
    };
    const notice = (page: Page) => page.locator('#cart-notice');

    it(
      'adds from a product page, a product list and a product block with JavaScript off, and says so on the page',
      async () => {
        const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
        try {
          const page = await context.newPage();

          // Product page: nothing chosen → the §5 text; chosen → added.
          await page.goto(`${server.url}/shop/p/speckled-mug`);
          await page.locator('form.purchase button[type=submit]').click();
          await page.waitForURL(/\/shop\/p\/speckled-mug#cart-notice$/);
          expect(await notice(page).getAttribute('role')).toBe('alert');
          expect((await notice(page).innerText()).split('\n').filter(Boolean)).toEqual([
            'Unable to Add Item',
            'Please select the Color option.',
          ]);
          await page.getByLabel('Select Color').selectOption('Oatmeal');
          await page.locator('form.purchase button[type=submit]').click();
          await page.waitForURL(/\/shop\/p\/speckled-mug#cart-notice$/);
          expect(await notice(page).getAttribute('role')).toBe('status');
          expect(await notice(page).locator('p').first().innerText()).toBe(
            'Speckled Stoneware Mug was added to your cart.',
          );
          expect(await notice(page).getByRole('link', { name: 'View cart' }).getAttribute('href')).toBe('/cart');

          // Product list: the card's own button.
          await page.goto(`${server.url}/shop`);
          await page.locator('.product-card', { hasText: 'Walnut Coffee Scoop' }).getByRole('button').click();
          await page.waitForURL(/\/shop#cart-notice$/);
          expect(await notice(page).locator('p').first().innerText()).toBe(
            'Walnut Coffee Scoop was added to your cart.',
          );

          // Product block on a content page, by keyboard.
          await page.goto(server.url + BLOCK_PAGE);
          await page.locator('.product-feature').getByRole('button').focus();
          await page.keyboard.press('Enter');
          await page.waitForURL(new RegExp(`${BLOCK_PAGE}#cart-notice$`));
          expect(await notice(page).locator('p').first().innerText()).toBe(
            'Espresso Cups, Pair was added to your cart.',
          );

          // Shown once: the page again is the page as everyone gets it.
          await page.goto(server.url + BLOCK_PAGE);
          expect(await notice(page).count()).toBe(0);

          expect(await cartOf(context)).toEqual({
            'Speckled Stoneware Mug': 1,
            'Walnut Coffee Scoop': 1,
            'Espresso Cups, Pair': 1,
          });
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      'shows its notices accessibly (axe: no violations on the page with an added or a refused notice)',
      async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          const page = await context.newPage();
          const headers = { ...(await crumbHeader(context, server.url)), referer: `${server.url}/shop/p/speckled-mug` };
          for (const [form, role] of [
            [{ itemId: 'speckled-mug' }, 'alert'],
            [{ itemId: 'speckled-mug', 'option.Color': 'Slate' }, 'status'],
          ] as const) {
            const posted = await context.request.post(server.url + ADD_FORM, { form, headers, maxRedirects: 0 });
            expect(posted.status()).toBe(303);
            // (From another document: a new address differing only in its fragment would not load the page again.)
            await page.goto('about:blank');
            await page.goto(server.url + posted.headers().location, { waitUntil: 'load' });
            await page.waitForFunction(() => document.readyState === 'complete');
            expect(await notice(page).getAttribute('role')).toBe(role);
            expect(await axeViolationsOf(page)).toEqual([]);
          }
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      'with JavaScript on, one click adds once through the islands, never through the form',
      async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          const page = await context.newPage();
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(e.message));
          const posts: string[] = [];
          page.on('request', (r: Request) => {
            if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
          });
          const adds = () => posts.filter((p) => p === ENTRIES_API).length;
          const open = async (path: string) => {
            await page.goto(server.url + path, { waitUntil: 'load' });
            await page.waitForFunction(() => document.readyState === 'complete');
          };

          await open('/shop/p/speckled-mug');
          await page.getByLabel('Select Color').selectOption('Oatmeal');
          await page.locator('form.purchase button[type=submit]').click();
          await page.waitForFunction(
            () => document.querySelector('form.purchase button[type=submit]')?.textContent === 'Added!',
            null,
            { timeout: 5000 },
          );
          expect(adds()).toBe(1);
          expect(page.url()).toBe(`${server.url}/shop/p/speckled-mug`);

          await open('/shop');
          await page.locator('.product-card', { hasText: 'Walnut Coffee Scoop' }).getByRole('button').click();
          await page.getByText('Walnut Coffee Scoop was added to your cart.').waitFor({ timeout: 5000 });
          expect(adds()).toBe(2);

          await open(BLOCK_PAGE);
          await page.locator('.product-feature').getByRole('button').click();
          await page.getByText('Espresso Cups, Pair was added to your cart.').waitFor({ timeout: 5000 });
          expect(adds()).toBe(3);

          expect(posts.filter((p) => p === ADD_FORM)).toEqual([]);
          expect(await cartOf(context)).toEqual({
            'Speckled Stoneware Mug': 1,
            'Walnut Coffee Scoop': 1,
            'Espresso Cups, Pair': 1,
          });
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      'a gift card’s button on a product list reads the website id from the bootstrap configuration for its checkout',
      async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          const page = await context.newPage();
          const configCalls: number[] = [];
          page.on('response', (r) => {
            if (new URL(r.url()).pathname === '/api/context/config') configCalls.push(r.status());
          });
          await page.goto(`${server.url}/shop`, { waitUntil: 'load' });
          await page.waitForFunction(() => document.readyState === 'complete');
          // Not asked at page start: nothing needed it yet.
          expect(configCalls).toEqual([]);
          await page.locator('.product-card', { hasText: 'Gift Card, $25' }).getByRole('button').click();
          await page.waitForURL(/\/checkout\/giftcard\?/, { timeout: 10_000 });
          expect(new URL(page.url()).search).toBe('?websiteId=demo&giftCardProductId=gift-card-25&sku=GC1-25');
          expect(configCalls).toEqual([200]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      'asks the inventory call before a custom form opens: sold out since the page was made → the §5 text, no form',
      async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const setStock = (qty: number) =>
          server.db!.updateTable('variants').set({ qty_in_stock: qty }).where('sku', '=', 'MUG-ENGR').execute();
        try {
          const page = await context.newPage();
          const stockCalls: string[] = [];
          page.on('request', (r: Request) => {
            if (new URL(r.url()).pathname === STOCK_API) stockCalls.push(new URL(r.url()).search);
          });
          await page.goto(`${server.url}/shop/p/engraved-mug`, { waitUntil: 'load' });
          await page.waitForFunction(() => document.readyState === 'complete');
          await setStock(0);
          await page.locator('form.purchase button[type=submit]').click();
          const alert = page.getByRole('alertdialog');
          await alert.waitFor({ timeout: 5000 });
          expect(await alert.locator('h2').textContent()).toBe('Unable to Add Item');
          expect(await alert.textContent()).toContain('Sorry, we do not have enough of that item available.');
          expect(await page.getByRole('dialog', { name: 'Engraving' }).count()).toBe(0);
          expect(stockCalls).toEqual(['?itemId=engraved-mug']);
          await page.keyboard.press('Escape');
          await alert.waitFor({ state: 'detached' });

          await setStock(12);
          await page.locator('form.purchase button[type=submit]').click();
          await page.getByRole('dialog', { name: 'Engraving' }).waitFor({ timeout: 5000 });
          expect(stockCalls).toHaveLength(2);
          expect(await cartOf(context)).toEqual({});
        } finally {
          await setStock(12);
          await context.close();
        }
      },
      SLOW,
    );
  },
);
