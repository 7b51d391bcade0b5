/**
 * Products in Chromium (issue 26): an admin of the demo opens /admin/products, follows 'Add product' by keyboard,
 * names a product, gives it an option with two values ('Update variants' makes the two rows), prices and stocks each,
 * adds a PNG and saves: the product's form comes back with the notice, its image and its stock read-only. Then a
 * shopper buys it on the storefront (the option chosen, added to the cart, checked out). The list and the form have no
 * axe violation at 390 px and 1280 px and are no wider than the window. Set to Draft by keyboard, a product leaves the
 * store (404) and staff preview it.
 */
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { readSite } from '../../src/modules/site/sites';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { overflowOf, PASSWORD, signedIn } from './adminShop';
import { startServer, type RunningServer } from './server';

const ADMIN = 'owner@example.com';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `products at /admin in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;

    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await createSiteUser(shop.db!, { siteId: 'demo', email: ADMIN, password: PASSWORD, role: ContributorRole.ADMIN });
    }, 120_000);
    afterAll(async () => shop?.close());

    it('creates a product with an option, two variants and a PNG, then a shopper buys it', async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/products`);
      await expect(page.getByRole('heading', { level: 1, name: 'Products' }).isVisible()).resolves.toBe(true);
      expect(await axeViolationsOf(page), '/admin/products at 1280 px').toEqual([]);
      // By keyboard: the 'Add product' link.
      const add = page.getByRole('link', { name: 'Add product' });
      for (let i = 0; i < 40 && !(await add.evaluate((el) => el === document.activeElement)); i++)
        await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/products/new');
      expect(await axeViolationsOf(page), 'the new product form at 1280 px').toEqual([]);

      await page.getByLabel('Name', { exact: true }).fill('Enamel Pin');
      await page.getByLabel('Description', { exact: true }).fill('Hard enamel, two colours.');
      await page.getByLabel('Option 1 name').fill('Colour');
      await page.getByLabel('Option 1 values').fill('Gold, Silver');
      await page.getByRole('button', { name: 'Update variants' }).click();
      await page.getByLabel('Price of Silver', { exact: true }).waitFor();
      await expect(
        page.getByRole('status').filter({ hasText: 'Variants updated from the options' }).isVisible(),
      ).resolves.toBe(true);
      await page.getByLabel('SKU of Gold').fill('PIN-GOLD');
      await page.getByLabel('Price of Gold', { exact: true }).fill('12.00');
      await page.getByLabel('Stock of Gold').fill('5');
      await page.getByLabel('SKU of Silver').fill('PIN-SILVER');
      await page.getByLabel('Price of Silver', { exact: true }).fill('10.50');
      await page.getByLabel('Stock of Silver').fill('3');
      const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#d4a017' } })
        .png()
        .toBuffer();
      await page
        .getByLabel('Add an image')
        .setInputFiles({ name: 'enamel-pin.png', mimeType: 'image/png', buffer: png });
      await page.getByLabel('Alt text of the added image').fill('A gold enamel pin');
      await page.getByRole('button', { name: 'Create product' }).first().click();
      await page.waitForURL('**/admin/products/enamel-pin?done=*');
      await expect(page.getByRole('status').filter({ hasText: 'Saved “Enamel Pin”' }).isVisible()).resolves.toBe(true);
      await expect(
        page.getByRole('link', { name: 'Change the stock of Gold in the Inventory' }).isVisible(),
      ).resolves.toBe(true);
      expect(await page.getByLabel('Alt text of images/enamel-pin.png').inputValue()).toBe('A gold enamel pin');
      expect(await axeViolationsOf(page), 'the product form at 1280 px').toEqual([]);
      const stored = (await readSite(shop.db!, 'demo'))!.site.products.find((p) => p.id === 'enamel-pin')!;
      expect(stored.variants.map((v) => [v.sku, v.price, v.stock])).toEqual([
        ['PIN-GOLD', 1200, { qtyInStock: 5 }],
        ['PIN-SILVER', 1050, { qtyInStock: 3 }],
      ]);
      await context.close();

      // A shopper buys the silver one.
      const shopper = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const store = await shopper.newPage();
      await store.goto(`${shop.url}/shop/p/enamel-pin`, { waitUntil: 'load' });
      await expect(store.locator('img[alt="A gold enamel pin"]').first().isVisible()).resolves.toBe(true);
      await store.getByLabel('Select Colour').selectOption('Silver');
      await store.locator('form.purchase button[type=submit]').click();
      await store.locator('a.cart-pill').waitFor({ state: 'visible' });
      await store.goto(`${shop.url}/cart`, { waitUntil: 'load' });
      await store.getByRole('link', { name: 'Check out' }).click();
      await store.waitForURL(/\/checkout$/);
      await store.getByRole('button', { name: 'Update totals' }).waitFor({ state: 'detached', timeout: 5000 });
      await store.getByLabel('Email').fill('ada@example.com');
      await store.getByLabel('First name').fill('Ada');
      await store.getByLabel('Last name').fill('Lovelace');
      await store.getByLabel('Address', { exact: true }).fill('1 Main Street');
      await store.getByLabel('City').fill('New York');
      await store.getByLabel('Country').selectOption('US');
      await store.getByLabel('State').selectOption('NY');
      await store.getByLabel('ZIP Code').fill('10001');
      await store.getByLabel('Card number').fill('4242 4242 4242 4242');
      await store.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await store.getByLabel('CVC').fill('123');
      await store.getByRole('button', { name: /Place order/ }).click();
      await store.waitForURL(/\/checkout\/order\/[A-Za-z0-9_-]+$/, { timeout: 10_000 });
      expect(await store.locator('h1').textContent()).toBe('Thank you for your order');
      expect(await store.locator('.order-confirmed').textContent()).toContain('Enamel Pin');
      await shopper.close();
      const after = (await readSite(shop.db!, 'demo'))!.site.products.find((p) => p.id === 'enamel-pin')!;
      expect(after.variants.find((v) => v.sku === 'PIN-SILVER')!.stock).toEqual({ qtyInStock: 2 });
    }, 120_000);

    it('sets a product to Draft by keyboard at 1280 px: the list says Draft, the store answers 404, the preview shows it', async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/products/speckled-mug`);
      const status = page.getByRole('group', { name: 'Status' });
      await status.getByRole('radio', { name: 'Draft', exact: true }).focus();
      await page.keyboard.press('Space');
      await expect(status.getByRole('radio', { name: 'Draft', exact: true }).isChecked()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Save', exact: true }).first().click();
      await page.waitForURL('**/admin/products/speckled-mug?done=*');
      await page.goto(`${shop.url}/admin/products`);
      await expect(
        page
          .getByRole('row', { name: /Speckled Stoneware Mug/ })
          .first()
          .innerText(),
      ).resolves.toContain('Draft');
      const store = await page.goto(`${shop.url}/shop/p/speckled-mug`);
      expect(store?.status()).toBe(404);
      await page.goto(`${shop.url}/admin/products/speckled-mug/preview`);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Speckled Stoneware Mug');
      // Published again for the other tests.
      await page.goto(`${shop.url}/admin/products/speckled-mug`);
      await page.getByRole('group', { name: 'Status' }).getByRole('radio', { name: 'Published', exact: true }).check();
      await page.getByRole('button', { name: 'Save', exact: true }).first().click();
      await page.waitForURL('**/admin/products/speckled-mug?done=*');
      expect((await page.goto(`${shop.url}/shop/p/speckled-mug`))?.status()).toBe(200);
      await context.close();
    }, 60_000);

    it('has no axe violation on the list and the form at 390 px, and is no wider than the window', async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 390 });
      const page = await context.newPage();
      for (const path of ['/admin/products', '/admin/products/speckled-mug', '/admin/products/new']) {
        await page.goto(`${shop.url}${path}`);
        expect(await axeViolationsOf(page), `${path} at 390 px`).toEqual([]);
        expect(await overflowOf(page), `${path} at 390 px`).toBeLessThanOrEqual(0);
      }
      await context.close();
    }, 60_000);
  },
);
