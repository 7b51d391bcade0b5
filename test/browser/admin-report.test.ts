/**
 * The owner's report in Chromium (issue 25): a reporting account signs in and reads /admin/report — net sales equal
 * to the totals of the orders placed, the sales chart with its table, the period choice — with no axe violation at
 * 390 px and 1280 px, and the same page read with JavaScript off.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { money } from '../../src/modules/analytics/reportPage';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { PASSWORD, placeOrder, signedInFrom } from './adminShop';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const EMAIL = 'reports@example.com';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `the owner's report in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await createSiteUser(shop.db!, {
        siteId: 'demo',
        email: EMAIL,
        password: PASSWORD,
        role: ContributorRole.REPORTING,
      });
      // Two orders, placed as a shopper's page places them.
      await placeOrder(browser, shop, 'shopper1@example.com', 1);
      await placeOrder(browser, shop, 'shopper2@example.com', 3);
    });
    afterAll(async () => shop?.close());

    const signedIn = (options: { javaScriptEnabled: boolean; width: number }): Promise<BrowserContext> =>
      signedInFrom(browser, shop, EMAIL, '/admin/report', options);

    it('shows net sales equal to the orders, a chart with its table, and chooses the period', async () => {
      const context = await signedIn({ javaScriptEnabled: true, width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/report`);
      const orders = await shop.db!.selectFrom('orders').select(['grand_total', 'currency']).execute();
      expect(orders).toHaveLength(2);
      const total = orders.reduce((n, o) => n + Number(o.grand_total), 0);
      const netSales = page.locator('.figure', { hasText: 'Net sales' }).locator('dd');
      await expect.poll(() => netSales.innerText()).toContain(money(total, orders[0]!.currency));
      await expect(
        page
          .locator('.figure')
          .filter({ has: page.getByText('Orders', { exact: true }) })
          .locator('dd')
          .innerText(),
      ).resolves.toBe('2');
      const chart = page.getByRole('img', { name: /Net sales per day/ });
      expect(await chart.count()).toBe(1);
      await page.getByText('Sales by day (table)').click();
      const table = page.getByRole('table', { name: 'Sales by day' });
      await expect(table.isVisible()).resolves.toBe(true);
      expect(await table.getByRole('row').count()).toBe(31);

      await page.getByLabel('Period').selectOption('7');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL('**/admin/report?days=7');
      await expect(page.getByText('(7 days, UTC)').isVisible()).resolves.toBe(true);
      await context.close();
    });

    it('has no axe violation at 390 px and 1280 px, and nothing wider than the phone', async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn({ javaScriptEnabled: true, width });
        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/report`);
        for (const summary of await page.locator('.admin-report summary').all()) await summary.click();
        expect(await axeViolationsOf(page), `${width} px`).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
        await context.close();
      }
    });

    it('reads the same without JavaScript', async () => {
      const context = await signedIn({ javaScriptEnabled: false, width: 390 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/report?days=90`);
      await expect(page.getByRole('heading', { level: 1, name: 'Report' }).isVisible()).resolves.toBe(true);
      await expect(page.getByText('(90 days, UTC)').isVisible()).resolves.toBe(true);
      await expect(page.getByRole('img', { name: /Visits per day/ }).isVisible()).resolves.toBe(true);
      await context.close();
    });
  },
);
