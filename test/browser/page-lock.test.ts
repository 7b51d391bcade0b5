/**
 * A password-protected page in a real browser, on SQLite and PostgreSQL (the demo's /wholesale, password
 * 'clay-and-kiln' as README says): the lock screen (103) reached by keyboard, a wrong password answered beside the
 * field, the right one typed and sent with Enter opening the page (105) — no JavaScript needed for any of it — and
 * axe-core finding no violation on either screen. Needs the browser bundle (`npx vite build`).
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAGE_LOCK_MESSAGES, pageLockCookie } from '../../src/core/pageLock';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const DEMO_PASSWORD = 'clay-and-kiln';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describeEachEngine(
  (engine) => engine,
  (engine) => {
    let shop: RunningServer;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      shop = await startServer({ engine });
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
    });
    afterAll(async () => {
      await context?.close();
      await shop?.close();
    });

    const pageType = () => page.evaluate(() => document.body.dataset.pageType);
    const field = () => page.getByLabel(PAGE_LOCK_MESSAGES.label, { exact: true });

    it('opens the wholesale page by keyboard: Tab to the field, a wrong password, then the right one and Enter', async () => {
      const first = await page.goto(`${shop.url}/wholesale`, { waitUntil: 'load' });
      expect(first?.status()).toBe(401);
      expect(await pageType()).toBe('103');
      expect(await page.title()).toBe('Wholesale — Vitrine Demo Store');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Wholesale');
      expect(await page.getByText('Wholesale price list').count()).toBe(0);
      expect(await axeViolationsOf(page)).toEqual([]);

      // The password field is reached by Tab.
      let steps = 0;
      while (!(await field().evaluate((el) => el === document.activeElement)) && steps < 30) {
        await page.keyboard.press('Tab');
        steps++;
      }
      expect(await field().evaluate((el) => el === document.activeElement)).toBe(true);

      await page.keyboard.type('not the password');
      const [wrong] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/unlock-page')),
        page.waitForURL((url) => url.pathname === '/unlock-page', { waitUntil: 'load' }),
        page.keyboard.press('Enter'),
      ]);
      expect(wrong.status()).toBe(401);
      expect(await pageType()).toBe('103');
      const alert = page.getByRole('alert');
      expect(await alert.textContent()).toBe(PAGE_LOCK_MESSAGES.wrong);
      expect(await field().getAttribute('aria-invalid')).toBe('true');
      expect(await field().evaluate((el) => (el as HTMLInputElement).getAttribute('aria-describedby'))).toBe(
        await alert.getAttribute('id'),
      );
      expect(await axeViolationsOf(page)).toEqual([]);

      await field().focus();
      await page.keyboard.type(DEMO_PASSWORD);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/wholesale', { waitUntil: 'load' }),
        page.keyboard.press('Enter'),
      ]);
      expect(new URL(page.url()).pathname).toBe('/wholesale');
      expect(await pageType()).toBe('105');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Wholesale price list');
      expect(await axeViolationsOf(page)).toEqual([]);

      const cookie = (await context.cookies()).find((c) => c.name === pageLockCookie('wholesale'));
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/wholesale' });
      // Another browser (no cookie) still gets the lock screen.
      const stranger = await browser.newContext();
      try {
        const other = await stranger.newPage();
        expect((await other.goto(`${shop.url}/wholesale`))?.status()).toBe(401);
        expect(await other.getByText('Wholesale price list').count()).toBe(0);
      } finally {
        await stranger.close();
      }
      expect(pageErrors).toEqual([]);
    });
  },
);
