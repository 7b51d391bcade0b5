/**
 * The quick view in Chromium (§2, §3, §7), on both engines: a grid card's 'Quick View' link opens the product in a
 * dialog (name, image, price, options, add button) and sends RecordQuickView; an add from it reaches the cart and its
 * AddToCart event says isQuickView; focus moves in, Escape and a click outside close it, focus returns to the link;
 * without JavaScript the link is the product page. Needs the built bundle (`vite build`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const MUG = 'Speckled Stoneware Mug';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `quick view in Chromium (${engine})`,
  (engine) => {
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      server = await startServer({ engine });
    });
    afterAll(async () => server?.close());
    beforeEach(async () => {
      context = await browser.newContext();
      page = await context.newPage();
    });
    afterEach(async () => context?.close());

    const link = () => page.getByRole('link', { name: `Quick View: ${MUG}` });
    const dialog = () => page.getByRole('dialog', { name: MUG });

    it('opens the product in a dialog, records the quick view, and adds to the cart from it with isQuickView', async () => {
      await page.goto(`${server.url}/shop`);
      const recorded = page.waitForRequest(
        (r) => r.method() === 'POST' && r.url().endsWith('/api/census/RecordQuickView/speckled-mug'),
      );
      await link().click();
      await recorded;
      await expect.poll(() => dialog().isVisible()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('quick-view__close');
      // The dialog opens at once, busy; the product's page is read meanwhile.
      await expect.poll(() => dialog().locator('.quick-view__image img').count(), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => dialog().locator('.price-block').textContent(), { timeout: 10_000 }).toContain('$28.00');
      expect(await axeViolationsOf(page)).toEqual([]);

      const added = page.waitForRequest(
        (r) =>
          r.url().endsWith('/api/events/RecordEvent') && (r.postData() ?? '').includes('CommerceShopping_AddToCart'),
        { timeout: 15_000 },
      );
      await dialog().getByLabel('Select Color').selectOption('Slate');
      await dialog().getByRole('button', { name: 'Add To Cart' }).click();
      await expect.poll(() => dialog().getByRole('button', { name: 'Added!' }).count(), { timeout: 5000 }).toBe(1);
      const event = JSON.parse(new URLSearchParams((await added).postData() ?? '').get('data') ?? '{}') as {
        sku: string;
        isQuickView?: boolean;
      };
      expect(event).toMatchObject({ sku: 'MUG-SLA', isQuickView: true });
      const cart = await context.request.get(`${server.url}/api/commerce/shopping-cart`);
      expect(await cart.json()).toMatchObject({ entries: [{ chosenVariant: { sku: 'MUG-SLA' }, quantity: 1 }] });

      await page.keyboard.press('Escape');
      await expect.poll(() => dialog().count()).toBe(0);
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.quickView)).toBe(
        'speckled-mug',
      );
    });

    it("Escape in the buying part's alert closes the alert only; focus goes back to Add To Cart inside the dialog", async () => {
      await page.goto(`${server.url}/shop`);
      await link().click();
      await expect.poll(() => dialog().locator('.price-block').count(), { timeout: 10_000 }).toBe(1);
      await dialog().getByRole('button', { name: 'Add To Cart' }).click();
      const alert = page.getByRole('alertdialog');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Please select the Color option.');
      await page.keyboard.press('Escape');
      await alert.waitFor({ state: 'detached' });
      expect(await dialog().isVisible()).toBe(true);
      expect(
        await page.evaluate(
          () => document.activeElement?.closest('.quick-view') !== null && document.activeElement?.textContent,
        ),
      ).toBe('Add To Cart');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog().count()).toBe(0);
    });

    it('closes on a click outside and on its close button; another card opens its own product', async () => {
      await page.goto(`${server.url}/shop`);
      await link().click();
      await expect.poll(() => dialog().isVisible()).toBe(true);
      await page.mouse.click(3, 3);
      await expect.poll(() => dialog().count()).toBe(0);
      await page.getByRole('link', { name: 'Quick View: Walnut Coffee Scoop' }).click();
      const scoop = page.getByRole('dialog', { name: 'Walnut Coffee Scoop' });
      await expect.poll(() => scoop.isVisible()).toBe(true);
      await scoop.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => scoop.count()).toBe(0);
    });

    it('without JavaScript, the link goes to the product page', async () => {
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      try {
        const plain = await noScript.newPage();
        await plain.goto(`${server.url}/shop`);
        await plain.getByRole('link', { name: `Quick View: ${MUG}` }).click();
        await plain.waitForURL(`${server.url}/shop/p/speckled-mug`);
        expect(await plain.locator('h1').textContent()).toBe(MUG);
      } finally {
        await noScript.close();
      }
    });
  },
);
