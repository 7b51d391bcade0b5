/**
 * A collection's delete in Chromium (issue 26, "the owner builds the site"). An admin creates an empty shop, Gifts:
 * the store's header lists it. Its delete page (linked from the pages list's collections) and the demo shop's — which
 * still holds products and is shown by the home page's grid, so it says why it cannot be deleted — have no axe
 * violation at 390 px and 1280 px and are no wider than the window. Without JavaScript, by keyboard only, the admin
 * follows the Delete link, ticks "Yes, delete" with Space and presses Enter on the button: the pages list says what
 * was deleted, the store's header no longer lists Gifts and /gifts answers 404.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { overflowOf, PASSWORD, signedIn } from './adminShop';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const ADMIN = 'owner@example.com';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

/** The store header's navigation links (the wide one): their addresses, in order. */
const headerLinks = (page: Page) =>
  page
    .locator('.site-nav--wide a')
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));

describeEachEngine(
  (engine) => `a collection's delete at /admin in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;

    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await createSiteUser(shop.db!, { siteId: 'demo', email: ADMIN, password: PASSWORD, role: ContributorRole.ADMIN });
    }, 120_000);
    afterAll(async () => shop?.close());

    it('creates an empty shop: the store lists it', async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/collections/new`);
      await page.getByLabel('Shop (products)').check();
      await page.getByLabel('Title').fill('Gifts');
      await page.getByLabel('URL').fill('/gifts');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await page.waitForURL('**/admin/pages?done=*');
      await page.goto(`${shop.url}/`);
      expect(await headerLinks(page)).toContain('/gifts');
      await context.close();
    }, 120_000);

    it('has no axe violation on the delete pages at 390 and 1280 px, and no sideways scroll', async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, ADMIN, { width });
        const page = await context.newPage();
        for (const path of ['/admin/pages', '/admin/collections/gifts/delete', '/admin/collections/shop/delete']) {
          await page.goto(`${shop.url}${path}`);
          expect(await axeViolationsOf(page), `${path} at ${width} px`).toEqual([]);
          expect(await overflowOf(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
        }
        // The refused one says why and offers no confirmation.
        await expect(
          page.getByText('This shop still holds 18 products: move or delete them first.').count(),
        ).resolves.toBe(1);
        await expect(page.getByRole('checkbox').count()).resolves.toBe(0);
        // The confirmation's rows are the admin form's grid: the box and the button apart, not stuck together.
        await page.goto(`${shop.url}/admin/collections/gifts/delete`);
        const box = (await page.getByText('Yes, delete “Gifts”').boundingBox())!;
        const button = (await page.getByRole('button', { name: 'Delete shop' }).boundingBox())!;
        expect(button.y - (box.y + box.height), `the gap at ${width} px`).toBeGreaterThanOrEqual(8);
        await context.close();
      }
    }, 120_000);

    it("deletes it by keyboard without JavaScript: the store's header drops it and its URL answers 404", async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/pages`);
      await page.getByRole('link', { name: 'Delete: Gifts' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/collections/gifts/delete');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Delete the shop “Gifts”');
      await expect(page.getByText('The shop “Gifts” holds no products.').count()).resolves.toBe(1);
      // Unticked, the browser keeps the form (the box is required): nothing is deleted.
      const button = page.getByRole('button', { name: 'Delete shop' });
      await button.focus();
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('checkbox', { name: 'Yes, delete “Gifts”' });
      await expect(confirm.evaluate((box) => (box as HTMLInputElement).validity.valueMissing)).resolves.toBe(true);
      expect(page.url()).toBe(`${shop.url}/admin/collections/gifts/delete`);
      await confirm.focus();
      await page.keyboard.press('Space');
      await expect(confirm.isChecked()).resolves.toBe(true);
      await page.keyboard.press('Tab');
      await expect(button.evaluate((b) => b === document.activeElement)).resolves.toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/pages?done=*');
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Deleted the shop “Gifts” at \/gifts \(version \d+\)\.$/,
      );
      await expect(page.getByRole('link', { name: 'Delete: Gifts' }).count()).resolves.toBe(0);

      const store = await context.newPage();
      await store.goto(`${shop.url}/`);
      const links = await headerLinks(store);
      expect(links).toContain('/shop');
      expect(links).not.toContain('/gifts');
      const gone = await store.goto(`${shop.url}/gifts`);
      expect(gone?.status()).toBe(404);
      await context.close();
    }, 120_000);
  },
);
