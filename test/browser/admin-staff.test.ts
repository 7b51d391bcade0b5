/**
 * Staff in Chromium (issue 25): an admin invites a store manager with the keyboard alone; the invited person opens the
 * e-mailed link, sets a password and lands in /admin, signed in; /admin/staff and the link's page have no axe
 * violation at 390 px and 1280 px, and /admin/staff is no wider than a 390 px window; the invite form works with
 * JavaScript off.
 * An admin invites an editor (the roles' descriptions beside the form); the editor sets a password through the link,
 * signs out and in again, and sees only Home and Pages (axe clean at 390 and 1280 px); orders, settings, staff: 403.
 * An admin changes a store manager's role and then removes them (their browser is signed out), and signs out one
 * session of a viewer: that browser's next /admin visit goes to the sign-in, their other browser stays signed in.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { addStaff, MANAGER, PASSWORD, signedIn as signedInAs, signedInFrom, signInOnPage, VIEWER } from './adminShop';
import { startServer, type RunningServer } from './server';

const ADMIN = 'owner@example.com';
const LINK = /https?:\/\/[^\s"<>]+(\/account\/invite\/[A-Za-z0-9_-]{43})/;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `staff at /admin in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await createSiteUser(shop.db!, { siteId: 'demo', email: ADMIN, password: PASSWORD, role: ContributorRole.ADMIN });
      await addStaff(shop);
    });
    afterAll(async () => shop?.close());

    const signedIn = (options: { javaScriptEnabled: boolean; width: number }): Promise<BrowserContext> =>
      signedInFrom(browser, shop, ADMIN, '/admin/staff', options);

    /** The path of the invitation link e-mailed to `email` (from the outbox). */
    const linkFor = async (email: string): Promise<string> => {
      const mail = await shop
        .db!.selectFrom('outbox')
        .select('text_body')
        .where('to_address', '=', email)
        .where('kind', '=', 'staff-invite')
        .executeTakeFirstOrThrow();
      const path = mail.text_body.match(LINK)?.[1];
      if (!path) throw new Error(`no link in the e-mail to ${email}`);
      return path;
    };

    it('invites with the keyboard; the link sets the password and lands in /admin', async () => {
      const context = await signedIn({ javaScriptEnabled: true, width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/staff`);
      await page.getByLabel('E-mail').focus();
      await page.keyboard.type('clerk@example.com');
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('invite-role');
      await page.keyboard.type('store');
      await expect(page.locator('#invite-role').inputValue()).resolves.toBe('store-manager');
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Send invitation');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/admin\/staff\?done=/);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        'Invited clerk@example.com as store-manager. The e-mail with their link is on its way.',
      );
      await expect(page.getByRole('table', { name: 'Invitations not used yet' }).innerText()).resolves.toContain(
        'clerk@example.com',
      );
      await context.close();

      const invited = await browser.newContext({ viewport: { width: 390, height: 900 } });
      const tab = await invited.newPage();
      const path = await linkFor('clerk@example.com');
      await tab.goto(`${shop.url}${path}`);
      await expect(tab.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Set your password');
      expect(await axeViolationsOf(tab), 'the link page at 390 px').toEqual([]);
      await tab.getByLabel(/New password/).fill('my own password 123');
      await tab.getByLabel('Type it again').fill('my own password 123');
      await tab.getByRole('button', { name: 'Set password and sign in' }).click();
      await tab.waitForURL(`${shop.url}/admin`);
      await expect(tab.getByText('Signed in as clerk@example.com (store-manager).').isVisible()).resolves.toBe(true);
      await tab.goto(`${shop.url}${path}`);
      await expect(tab.getByRole('alert').innerText()).resolves.toBe(
        'This invitation link has already been used. Sign in with your e-mail and password instead.',
      );
      await invited.close();
    });

    it('invites an editor, who accepts, signs in again and sees only the pages', async () => {
      const context = await signedIn({ javaScriptEnabled: true, width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/staff`);
      const roles = page.getByRole('definition');
      await expect(
        roles
          .filter({ hasText: 'Edits and publishes the pages, their blocks and the blog posts; nothing else.' })
          .count(),
      ).resolves.toBe(1);
      await page.getByLabel('E-mail').fill('writer@example.com');
      await page.getByLabel('Role', { exact: true }).selectOption('editor');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.waitForURL(/\/admin\/staff\?done=/);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        'Invited writer@example.com as editor. The e-mail with their link is on its way.',
      );
      await context.close();

      const invited = await browser.newContext({ viewport: { width: 390, height: 900 } });
      const tab = await invited.newPage();
      await tab.goto(`${shop.url}${await linkFor('writer@example.com')}`);
      await tab.getByLabel(/New password/).fill('the writer’s own password');
      await tab.getByLabel('Type it again').fill('the writer’s own password');
      await tab.getByRole('button', { name: 'Set password and sign in' }).click();
      await tab.waitForURL(`${shop.url}/admin`);
      await tab.getByRole('button', { name: 'Sign out' }).click();
      await tab.waitForURL((url) => !url.pathname.startsWith('/admin'));

      // Signed in again with the password they chose (the sign-in is rate limited per client: tried until it passes).
      await expect
        .poll(
          async () => {
            await tab.goto(`${shop.url}/account/sign-in?next=/admin`);
            await tab.getByLabel('E-mail').fill('writer@example.com');
            await tab.getByLabel('Password').fill('the writer’s own password');
            const [answer] = await Promise.all([
              tab.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/account/sign-in')),
              tab.getByRole('button', { name: 'Sign in' }).click(),
            ]);
            if (answer.status() === 303) await tab.waitForURL('**/admin');
            return answer.status();
          },
          { timeout: 25_000, interval: 1_000 },
        )
        .toBe(303);
      await expect(tab.getByText('Signed in as writer@example.com (editor).').isVisible()).resolves.toBe(true);
      const navigation = tab.getByRole('navigation', { name: 'Admin' });
      await expect(navigation.getByRole('link').allInnerTexts()).resolves.toEqual(['Home', 'Pages', 'Blog posts']);
      expect(await axeViolationsOf(tab), '/admin of an editor at 390 px').toEqual([]);
      await navigation.getByRole('link', { name: 'Pages' }).click();
      await tab.waitForURL('**/admin/pages');
      await expect(tab.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Pages');
      await tab.setViewportSize({ width: 1280, height: 900 });
      expect(await axeViolationsOf(tab), '/admin/pages of an editor at 1280 px').toEqual([]);
      for (const path of ['/admin/orders', '/admin/settings', '/admin/staff']) {
        const answer = await tab.goto(`${shop.url}${path}`);
        expect(answer?.status(), path).toBe(403);
        await expect(tab.getByText('Ask an admin of this site for access.').isVisible()).resolves.toBe(true);
      }
      await invited.close();
    });

    it('has no axe violation on /admin/staff at 390 px and 1280 px, and nothing wider than a 390 px window', async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn({ javaScriptEnabled: true, width });
        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/staff`);
        await expect(page.getByRole('heading', { level: 1, name: 'Staff' }).isVisible()).resolves.toBe(true);
        expect(await axeViolationsOf(page), `${width} px`).toEqual([]);
        if (width === 390)
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            'the page at 390 px',
          ).toBeLessThanOrEqual(390);
        await context.close();
      }
    });

    it('invites without JavaScript', async () => {
      const context = await signedIn({ javaScriptEnabled: false, width: 390 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/staff`);
      await page.getByLabel('E-mail').fill('nojs@example.com');
      await page.getByLabel('Role', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.waitForURL(/\/admin\/staff\?done=/);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        'Invited nojs@example.com as viewer. The e-mail with their link is on its way.',
      );
      expect(await linkFor('nojs@example.com')).toMatch(/^\/account\/invite\//);
      await context.close();
    });

    it("changes a staff member's role, then removes them: the notices, the row, and their browser signed out", async () => {
      const member = await signedInAs(browser, shop, MANAGER, { width: 390 });
      const theirs = await member.newPage();
      await theirs.goto(`${shop.url}/admin`);
      await expect(theirs.getByText(`Signed in as ${MANAGER} (store-manager).`).isVisible()).resolves.toBe(true);

      const context = await signedInAs(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/staff`);
      const staff = page.getByRole('table', { name: 'Staff and their roles' });
      const row = staff.getByRole('row', { name: new RegExp(MANAGER) });
      await expect(row.getByRole('cell').first().innerText()).resolves.toBe('store-manager');
      await row.getByLabel(`Role of ${MANAGER}`).selectOption('viewer');
      await row.getByRole('button', { name: `Change role of ${MANAGER}` }).click();
      await page.waitForURL(/\/admin\/staff\?done=/);
      await expect(page.getByRole('status').innerText()).resolves.toBe(`${MANAGER} is now viewer (was store-manager).`);
      await expect(row.getByRole('cell').first().innerText()).resolves.toBe('viewer');
      await theirs.goto(`${shop.url}/admin`);
      await expect(theirs.getByText(`Signed in as ${MANAGER} (viewer).`).isVisible()).resolves.toBe(true);

      await row.getByRole('button', { name: `Remove ${MANAGER}` }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('done')?.startsWith('Removed') ?? false);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        `Removed ${MANAGER} from the staff; they are signed out.`,
      );
      expect(await row.count()).toBe(0);
      await expect(staff.innerText()).resolves.toContain(VIEWER);
      await theirs.goto(`${shop.url}/admin`);
      await theirs.waitForURL('**/account/sign-in**');
      await expect(theirs.getByRole('button', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
      await member.close();
      await context.close();
    });

    it("signs out one of a staff member's sessions: that browser is signed out, their other one is not", async () => {
      const phone = await signedInAs(browser, shop, VIEWER, { width: 390 });
      const phonePage = await phone.newPage();
      await phonePage.goto(`${shop.url}/admin`);
      await expect(phonePage.getByText(`Signed in as ${VIEWER} (viewer).`).isVisible()).resolves.toBe(true);
      // A second browser of theirs, signed in on its own (a session of its own).
      const laptop = await browser.newContext({ userAgent: 'The laptop of the viewer' });
      const laptopPage = await laptop.newPage();
      await signInOnPage(laptopPage, shop, VIEWER);

      const context = await signedInAs(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/staff`);
      const sessions = page.getByRole('table', { name: 'Sessions, newest first' });
      const theirs = sessions.getByRole('row', { name: new RegExp(VIEWER) });
      await expect(theirs.count()).resolves.toBe(2);
      await expect(theirs.filter({ hasText: 'The laptop of the viewer' }).count()).resolves.toBe(1);
      await theirs
        .filter({ hasNotText: 'The laptop of the viewer' })
        .getByRole('button', { name: `Sign out this session of ${VIEWER}` })
        .click();
      await page.waitForURL(/\/admin\/staff\?done=/);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        `Ended the session of ${VIEWER}: that browser is signed out.`,
      );
      await expect(theirs.count()).resolves.toBe(1);

      await phonePage.goto(`${shop.url}/admin`);
      await phonePage.waitForURL('**/account/sign-in**');
      await expect(phonePage.getByRole('button', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
      await laptopPage.goto(`${shop.url}/admin`);
      await expect(laptopPage.getByText(`Signed in as ${VIEWER} (viewer).`).isVisible()).resolves.toBe(true);
      await laptop.close();
      await phone.close();
      await context.close();
    });
  },
);
