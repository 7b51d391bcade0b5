/**
 * Editor statuses in the page editor, in Chromium (issue 26, spec §4): an editor sets the Contact page to Draft with
 * the keyboard at 1280 px (arrow keys in the Status radio group; Publish at shows only while Scheduled is chosen), the
 * notice says it is not on the store, the pages list shows 'Draft' beside it, and the store answers 404 at its
 * address while staff still preview it. The editor and the list have no axe violation at 390 px and no sideways scroll.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { STATUS_LABELS } from '../../src/core/publishing';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { overflowOf, PASSWORD, signedIn } from './adminShop';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const EDITOR = 'editor@example.com';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `editor statuses in the pages editor in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;

    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await createSiteUser(shop.db!, {
        siteId: 'demo',
        email: EDITOR,
        password: PASSWORD,
        role: ContributorRole.EDITOR,
      });
    }, 120_000);
    afterAll(async () => shop?.close());

    it('sets a page to Draft with the keyboard: listed as Draft, a 404 on the store, previewed by staff', async () => {
      const context = await signedIn(browser, shop, EDITOR, { width: 1280 });
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      expect((await page.goto(`${shop.url}/contact`))!.status()).toBe(200);
      const heading = await page.getByRole('heading', { level: 1 }).innerText();
      await page.goto(`${shop.url}/admin/pages/contact`);
      const status = page.getByRole('group', { name: 'Status' });
      const publishAt = status.getByLabel('Publish at');
      await expect(status.getByRole('radio', { name: STATUS_LABELS.published }).isChecked()).resolves.toBe(true);
      await expect(publishAt.isVisible()).resolves.toBe(false);

      // The arrow keys move through the group: Draft, Needs Review, Scheduled (Publish at appears), back to Draft.
      await status.getByRole('radio', { name: STATUS_LABELS.published }).focus();
      await page.keyboard.press('ArrowDown');
      await expect(status.getByRole('radio', { name: STATUS_LABELS.draft }).isChecked()).resolves.toBe(true);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(status.getByRole('radio', { name: STATUS_LABELS.scheduled }).isChecked()).resolves.toBe(true);
      await expect(publishAt.isVisible()).resolves.toBe(true);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await expect(status.getByRole('radio', { name: STATUS_LABELS.draft }).isChecked()).resolves.toBe(true);
      await expect(publishAt.isVisible()).resolves.toBe(false);
      await page.getByRole('button', { name: 'Save', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/pages/contact?done=*');
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Saved: version \d+\. It is Draft: not on the store; staff see it in the preview\.$/,
      );
      await expect(
        page.getByRole('group', { name: 'Status' }).getByRole('radio', { name: STATUS_LABELS.draft }).isChecked(),
      ).resolves.toBe(true);

      await page.goto(`${shop.url}/admin/pages`);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Contact', exact: true }) });
      await expect(row.locator('.admin-badge').first().innerText()).resolves.toBe(STATUS_LABELS.draft);

      const store = await context.newPage();
      expect((await store.goto(`${shop.url}/contact`))!.status()).toBe(404);
      expect((await store.goto(`${shop.url}/admin/pages/contact/preview`))!.status()).toBe(200);
      // The draft as the store showed it before it was one.
      await expect(store.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(heading);
      await context.close();
    }, 120_000);

    it('has no axe violation on the editor with its Status and on the list at 390 px, and no sideways scroll', async () => {
      const context = await signedIn(browser, shop, EDITOR, { width: 390 });
      const page = await context.newPage();
      for (const path of ['/admin/pages/contact', '/admin/pages']) {
        await page.goto(`${shop.url}${path}`);
        expect(await axeViolationsOf(page), `${path} at 390 px`).toEqual([]);
        expect(await overflowOf(page), `${path} at 390 px`).toBeLessThanOrEqual(0);
      }
      // With Scheduled chosen, its Publish at shown: still clean.
      await page.goto(`${shop.url}/admin/pages/contact`);
      await page.getByRole('radio', { name: STATUS_LABELS.scheduled }).check();
      await expect(page.getByLabel('Publish at').isVisible()).resolves.toBe(true);
      expect(await axeViolationsOf(page), 'Scheduled at 390 px').toEqual([]);
      expect(await overflowOf(page), 'Scheduled at 390 px').toBeLessThanOrEqual(0);
      await context.close();
    }, 120_000);
  },
);
