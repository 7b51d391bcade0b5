/**
 * The owner's inventory in Chromium (issue 25), on both engines: a store manager finds a variant in /admin/inventory,
 * adjusts its stock with a reason, and the storefront's product page says the new stock at once; the variant's
 * history names the change and who made it; the same change with JavaScript off; the sold-out filter; a viewer
 * sees the stock but no form and is refused a change (403); on a phone the row's product and variant stay in view
 * beside the stock form as the table scrolls; axe clean and nothing wider than the window at 390 px and 1280 px. The
 * demo's Oat Dinner Plate (PLATE-OAT, 2 in stock) says 'Last N from this batch' at 3 or fewer. Needs the built bundle
 * (`vite build`).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD } from '../../src/core/crumb';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { addStaff, MANAGER, overflowOf, signedIn, VIEWER } from './adminShop';
import { startServer, type RunningServer } from './server';

const SKU = 'PLATE-OAT';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `the owner's inventory in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    beforeAll(async () => {
      shop = await startServer({ engine });
      await addStaff(shop);
    });
    afterAll(async () => shop?.close());

    /** The variant's row in the inventory table. */
    const rowOf = (page: Page, sku: string) =>
      page.locator('tr', { has: page.getByRole('link', { name: sku, exact: true }) });

    /** What the storefront's product page says of the plate's stock (a shopper's page, cached, reloaded). */
    const storefrontSays = async (text: string) => {
      const shopper = await browser.newContext();
      const page = await shopper.newPage();
      await page.goto(`${shop.url}/shop/p/dinner-plate`);
      await expect
        .poll(async () => {
          await page.reload();
          return page.locator('.pdp__info').getByText(text, { exact: true }).count();
        })
        .toBe(1);
      await shopper.close();
    };

    it("adjusts a variant's stock, and the storefront's page says the new stock", async () => {
      await storefrontSays('Last 2 from this batch');
      const context = await signedIn(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin`);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Inventory' }).click();
      await page.waitForURL('**/admin/inventory');
      await page.getByLabel('Search').fill('Dinner Plate');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL('**/admin/inventory?*');
      const row = rowOf(page, SKU);
      await expect(row.locator('td.num').innerText()).resolves.toBe('2 Low');
      await row.getByLabel(`Units for ${SKU}`).fill('+1');
      await row.getByLabel(`Reason for ${SKU}`).fill('Found one in the back');
      await row.getByRole('button', { name: 'Adjust ±' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/inventory' && url.searchParams.has('done'));
      await expect(page.getByRole('status').innerText()).resolves.toBe(`The stock of ${SKU} is now 3 (was 2).`);
      await expect(rowOf(page, SKU).locator('td.num').innerText()).resolves.toBe('3 Low');

      await storefrontSays('Last 3 from this batch');

      await rowOf(page, SKU).getByRole('link', { name: SKU }).click();
      await page.waitForURL(`**/admin/inventory/${SKU}`);
      const latest = page.getByRole('region', { name: 'Stock history table' }).getByRole('row').nth(1);
      const cells = await latest.getByRole('cell').allInnerTexts();
      expect(cells.slice(1)).toEqual(['Edit', '+1', '3', MANAGER, 'Found one in the back']);
      await context.close();
    });

    it('adjusts the stock with JavaScript off', async () => {
      const context = await signedIn(browser, shop, MANAGER, { width: 390, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/inventory/${SKU}`);
      const shown = await page.getByText(`SKU ${SKU} · In stock: `).innerText();
      const before = Number(shown.replace(/.*: /, ''));
      expect(before).toBeGreaterThanOrEqual(2);
      await page.getByLabel(`Units for ${SKU}`).fill('-1');
      await page.getByLabel(`Reason for ${SKU}`).fill('One broke');
      await page.getByRole('button', { name: 'Adjust ±' }).click();
      await page.waitForURL((url) => url.pathname === `/admin/inventory/${SKU}` && url.searchParams.has('done'));
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        `The stock of ${SKU} is now ${before - 1} (was ${before}).`,
      );
      await expect(page.getByText(`SKU ${SKU} · In stock: ${before - 1}`).isVisible()).resolves.toBe(true);
      await storefrontSays(`Last ${before - 1} from this batch`);
      await context.close();
    });

    it('lists the sold-out variants, marked', async () => {
      const context = await signedIn(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/inventory`);
      await page.getByLabel('Show').selectOption('sold-out');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL('**/admin/inventory?filter=sold-out*');
      await expect(rowOf(page, 'MUG-SAG').locator('td.num').innerText()).resolves.toBe('0 Sold out');
      await expect(rowOf(page, 'MUG-OAT').count()).resolves.toBe(0);
      await context.close();
    });

    it('shows a viewer the stock without a form, and refuses its change (403, nothing changed)', async () => {
      const context = await signedIn(browser, shop, VIEWER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/inventory`);
      const stock = await rowOf(page, SKU).locator('td.num').innerText();
      expect(stock).toMatch(/^\d+/);
      expect(await page.getByRole('button', { name: 'Set' }).count()).toBe(0);
      expect(await page.getByRole('columnheader', { name: 'Change' }).count()).toBe(0);
      const headers = await crumbHeader(context, shop.url);
      const refused = await context.request.post(`${shop.url}/admin/inventory/${SKU}`, {
        headers,
        form: { [CRUMB_FIELD]: Object.values(headers)[0]!, quantity: '50', mode: 'set', reason: 'x' },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      await page.reload();
      await expect(rowOf(page, SKU).locator('td.num').innerText()).resolves.toBe(stock);
      await context.close();
    });

    it('on a phone, keeps the product and its variant in view beside the stock form as the table scrolls', async () => {
      const context = await signedIn(browser, shop, MANAGER, { width: 390 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/inventory?q=Speckled`);
      const row = rowOf(page, 'MUG-SLA');
      const rowHeader = row.getByRole('rowheader');
      await expect(rowHeader.innerText()).resolves.toBe('Speckled Stoneware Mug\nColor: Slate');
      // The table is wider than the phone: its box scrolls, as a thumb would, to its last column.
      const box = page.locator('.admin-table-wrap').first();
      await box.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect.poll(() => box.evaluate((el) => el.scrollLeft)).toBeGreaterThan(200);
      const within = async (part: ReturnType<typeof page.locator>) => {
        const [outer, inner] = await Promise.all([box.boundingBox(), part.boundingBox()]);
        return inner!.x >= outer!.x - 0.5 && inner!.x + inner!.width <= outer!.x + outer!.width + 0.5;
      };
      const set = row.getByRole('button', { name: 'Set' });
      await expect(within(rowHeader)).resolves.toBe(true);
      await expect(within(set)).resolves.toBe(true);
      await expect(within(row.getByRole('link', { name: 'MUG-SLA' }))).resolves.toBe(false);
      await row.getByLabel('Units for MUG-SLA').fill('9');
      await row.getByLabel('Reason for MUG-SLA').fill('Counted');
      await set.click();
      await page.waitForURL((url) => url.pathname === '/admin/inventory' && url.searchParams.has('done'));
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^The stock of MUG-SLA is now 9 \(was \d+\)\.$/,
      );
      // At 1280 px the variant is in its own column only.
      await page.setViewportSize({ width: 1280, height: 900 });
      await expect(rowOf(page, 'MUG-SLA').getByRole('rowheader').innerText()).resolves.toBe('Speckled Stoneware Mug');
      await context.close();
    });

    it('has no axe violation and nothing wider than the window at 390 px and 1280 px', async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, MANAGER, { width });
        const page = await context.newPage();
        for (const path of [
          '/admin/inventory?filter=low',
          '/admin/inventory?filter=sold-out',
          `/admin/inventory/${SKU}`,
        ]) {
          await page.goto(`${shop.url}${path}`);
          expect(await axeViolationsOf(page), `${path} at ${width} px`).toEqual([]);
          expect(await overflowOf(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
        }
        await context.close();
      }
    });
  },
);
