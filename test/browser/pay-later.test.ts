/**
 * The pay-later badge and its information popup in Chromium (§2, §4, §5, §9), on both engines: the instalment
 * wording in range, the range text out of it, no badge for a digital product; the popup opened by the badge and by
 * the info button, closed by its button, Escape and a click outside, focus moved in, kept in and given back; the
 * brand and language by locale (Clearpay for British English, the French popup for French); and an unreadable
 * context reported through the error reporter, not thrown. Needs the built bundle (`vite build`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

const focusedClass = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.className ?? '');

describeEachEngine(
  (engine) => `pay-later in Chromium (${engine})`,
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

    it('shows the instalments in range, the range text below the minimum, and nothing for a digital product', async () => {
      await page.goto(`${server.url}/shop/p/dinner-plate`);
      await expect
        .poll(() => page.locator('.pay-later__badge').textContent())
        .toBe('or 4 interest-free payments of $9.00 with Afterpay');
      await page.goto(`${server.url}/shop/p/speckled-mug`);
      expect(await page.locator('.pay-later__badge').textContent()).toBe('Afterpay available for orders over $35.00');
      await page.goto(`${server.url}/shop/p/brewing-guide`);
      expect(await page.locator('.pay-later').count()).toBe(0);
    });

    it('opens the popup from the badge and the info button; Escape, the close button and a click outside close it; focus goes in and comes back', async () => {
      await page.goto(`${server.url}/shop/p/dinner-plate`);
      const badge = page.locator('.pay-later__badge');
      const dialog = page.getByRole('dialog', { name: 'Pay in 4 interest-free instalments with Afterpay' });

      await badge.click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await focusedClass(page)).toBe('pay-later-info__close');
      expect(await dialog.textContent()).toContain('Pay the first instalment today, then the rest every 2 weeks.');
      expect(await axeViolationsOf(page)).toEqual([]);
      // Focus stays inside: the page behind is inert.
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Tab');
        expect(
          await page.evaluate(
            () => document.activeElement === document.body || !!document.activeElement?.closest('dialog'),
          ),
        ).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await focusedClass(page)).toBe('pay-later__badge');

      await page.getByRole('button', { name: 'About Afterpay' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await page.mouse.click(5, 5);
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await focusedClass(page)).toBe('pay-later__info');

      await badge.click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      // A click inside the box keeps it open.
      await page.locator('.pay-later-info__title').click();
      expect(await dialog.isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await focusedClass(page)).toBe('pay-later__badge');
    });

    it('shows the badge on the cart while every item is physical, and hides it when a digital one joins', async () => {
      const add = async (itemId: string, sku: string) => {
        const added = await context.request.post(`${server.url}/api/commerce/shopping-cart/entries`, {
          headers: await crumbHeader(context, server.url),
          data: { itemId, sku, quantity: 1, additionalFields: '' },
        });
        expect(added.status(), await added.text()).toBe(200);
      };
      await add('dinner-plate', 'PLATE-OAT');
      await page.goto(`${server.url}/cart`);
      await expect
        .poll(() => page.locator('.pay-later__badge').textContent())
        .toBe('or 4 interest-free payments of $9.00 with Afterpay');
      await add('brewing-guide', 'EBOOK-BREW');
      await page.reload();
      await expect.poll(() => page.locator('.cart-summary__subtotal').textContent()).toBe('$45.00');
      expect(await page.locator('.pay-later').count()).toBe(0);
    });

    it('reports an unreadable pay-later context through the error reporter and shows no badge', async () => {
      await page.route(`${server.url}/shop/p/dinner-plate`, async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace(
          '&quot;payLater&quot;:{',
          '&quot;payLater&quot;:&quot;junk&quot;,&quot;unused&quot;:{',
        );
        await route.fulfill({ response, body: html });
      });
      const reported = page.waitForRequest((r) => r.url().endsWith('/api/events/RecordJavascriptErrors'), {
        timeout: 10_000,
      });
      await page.goto(`${server.url}/shop/p/dinner-plate`);
      expect((await reported).postData()).toContain('Unreadable pay-later context');
      expect(await page.locator('.pay-later').count()).toBe(0);
      // The rest of the page still works.
      expect(await page.getByRole('button', { name: 'Add To Cart', exact: true }).isEnabled()).toBe(true);
    });
  },
);

describeEachEngine(
  (engine) => `pay-later by locale (${engine})`,
  (engine) => {
    it('says Clearpay to British English shoppers, and shows the French popup to French-speaking ones', async () => {
      const locale = (value: string, country: string) => (site: { website: { store: Record<string, unknown> } }) => {
        (site.website as Record<string, unknown>).locale = value;
        (site.website.store.payLater as Record<string, unknown>).accountCountry = country;
      };
      const british = await startServer({ engine, editSite: locale('en-GB', 'GB') });
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${british.url}/shop/p/dinner-plate`);
        await expect
          .poll(() => page.locator('.pay-later__badge').textContent())
          .toBe('or 4 interest-free payments of $9.00 with Clearpay');
      } finally {
        await british.close();
      }
      const french = await startServer({ engine, editSite: locale('fr-CA', 'CA') });
      try {
        const page = await context.newPage();
        await page.goto(`${french.url}/shop/p/dinner-plate`);
        await page.locator('.pay-later__badge').click();
        const dialog = page.getByRole('dialog', { name: 'Payez en 4 versements sans intérêts avec Afterpay' });
        await expect.poll(() => dialog.isVisible()).toBe(true);
        expect(await dialog.getAttribute('lang')).toBe('fr');
        await page.getByRole('button', { name: 'Fermer' }).click();
        await expect.poll(() => dialog.count()).toBe(0);
      } finally {
        await context.close();
        await french.close();
      }
    });
  },
);
