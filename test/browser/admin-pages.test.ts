/**
 * The pages editor in Chromium (issue 26's journey: "change the home page's heading and see it on `/`"). An admin
 * opens /admin/pages, follows Home, types a new heading, presses Preview — the frame beside the form shows the draft as
 * the store renders it while `/` still shows the old one — and Save: the notice names the version and `/` shows the new
 * heading. Without JavaScript the same form saves (keyboard only: Enter in a field is Save). Moving About down the
 * pages list moves it down the store's header. A video block is added (a missing embed code refused under its
 * field, then without JavaScript a YouTube address alone), and the store shows its play button. /admin/pages and the editor have no axe violation at 390 px and
 * 1280 px and are no wider than the window.
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
const OLD_HEADING = 'Handmade ceramics and freshly roasted coffee';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

/** The store header's navigation links (the wide one), in order. */
const headerLinks = (page: Page) =>
  page.locator('.site-nav--wide a').evaluateAll((links) => links.map((a) => a.textContent?.trim() ?? ''));

describeEachEngine(
  (engine) => `the pages editor at /admin in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;

    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await createSiteUser(shop.db!, { siteId: 'demo', email: ADMIN, password: PASSWORD, role: ContributorRole.ADMIN });
    }, 120_000);
    afterAll(async () => shop?.close());

    it("changes the home page's heading, previews it beside the form, saves it and sees it on /", async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${shop.url}/admin/pages`);
      await expect(page.getByRole('heading', { level: 1, name: 'Pages' }).isVisible()).resolves.toBe(true);
      await page.getByRole('table').getByRole('link', { name: 'Home', exact: true }).click();
      await page.waitForURL('**/admin/pages/home');
      const preview = page.frameLocator('iframe[name="page-preview"]');
      await expect(preview.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(OLD_HEADING);
      const heading = page.getByRole('group', { name: 'Block 2: Heading' }).getByLabel('Heading', { exact: true });
      await heading.fill('Pots, cups and coffee');
      // Both the form and the frame are on a 1280 × 800 screen, side by side.
      const formBox = (await heading.boundingBox())!;
      const frameBox = (await page.locator('iframe[name="page-preview"]').boundingBox())!;
      expect(frameBox.x).toBeGreaterThan(formBox.x + formBox.width);
      expect(frameBox.y).toBeLessThan(800);

      await page.getByRole('button', { name: 'Preview' }).click();
      await expect
        .poll(() => preview.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 })
        .toBe('Pots, cups and coffee');
      const store = await context.newPage();
      await store.goto(`${shop.url}/`);
      await expect(store.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(OLD_HEADING);

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL('**/admin/pages/home?done=*');
      await expect(
        page
          .getByRole('status')
          .filter({ hasText: /^Saved: version \d+\. It is on the store now\.$/ })
          .isVisible(),
      ).resolves.toBe(true);
      await store.reload();
      await expect(store.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Pots, cups and coffee');
      await context.close();
    }, 120_000);

    it('saves with the keyboard and without JavaScript: Enter in a field is Save', async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/pages/about`);
      const title = page
        .getByRole('group', { name: 'Page', exact: true })
        .getByRole('textbox', { name: 'Title', exact: true });
      await title.focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Our studio');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/pages/about?done=*');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Edit “Our studio”');
      // The block's move buttons are reachable and named for their block.
      await expect(page.getByRole('button', { name: 'Move down: block 1 (Heading)' }).isEnabled()).resolves.toBe(true);
      await context.close();
    }, 120_000);

    it("moves a page down the list and the store's header follows", async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/`);
      const before = await headerLinks(page);
      expect(before.indexOf('Our studio')).toBeLessThan(before.indexOf('Contact'));
      await page.goto(`${shop.url}/admin/pages`);
      await page.getByRole('button', { name: 'Move down: Our studio' }).click();
      await page.waitForURL('**/admin/pages?done=*');
      await page.goto(`${shop.url}/`);
      const after = await headerLinks(page);
      expect(after.indexOf('Our studio')).toBeGreaterThan(after.indexOf('Contact'));
      await context.close();
    }, 120_000);

    it('adds a video block: a missing embed code is refused under its field, a YouTube address needs none (no JavaScript)', async () => {
      // The refusal in a browser with JavaScript (axe runs in the page) at 390 px…
      const phone = await signedIn(browser, shop, ADMIN, { width: 390 });
      const refused = await phone.newPage();
      await refused.goto(`${shop.url}/admin/pages/contact`);
      let adding = refused.getByRole('group', { name: 'Add a block' });
      await adding.getByLabel('Kind').selectOption('video');
      await adding.getByLabel('Video address').fill('https://www.dailymotion.com/video/x8abc');
      await adding.getByLabel('Video title').fill('Glazing day');
      await adding.getByRole('button', { name: 'Add block' }).click();
      await refused.waitForLoadState();
      await expect(adding.getByLabel(/^Embed code/).getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(refused.locator('#field-addVideo-embed-error').innerText()).resolves.toBe(
        "must be the provider's embed code (its Share → Embed): only YouTube and Vimeo addresses need none",
      );
      await expect(refused.getByRole('alert').innerText()).resolves.toContain('New video block: embed code');
      // What was typed is still there.
      await expect(adding.getByLabel('Video title').inputValue()).resolves.toBe('Glazing day');
      await expect(adding.getByLabel('Kind').inputValue()).resolves.toBe('video');
      expect(await axeViolationsOf(refused), 'the refused video at 390 px').toEqual([]);
      expect(await overflowOf(refused), 'the refused video at 390 px').toBeLessThanOrEqual(0);
      await phone.close();

      // …and the add without JavaScript at 1280 px: a YouTube address alone.
      const desk = await signedIn(browser, shop, ADMIN, { width: 1280, javaScriptEnabled: false });
      const page = await desk.newPage();
      await page.goto(`${shop.url}/admin/pages/contact`);
      adding = page.getByRole('group', { name: 'Add a block' });
      await adding.getByLabel('Kind').selectOption('video');
      await adding.getByLabel('Video address').fill('https://www.youtube.com/watch?v=ZbZSe6N_BXs');
      await adding.getByLabel('Video title').fill('Glazing day');
      await adding.getByRole('button', { name: 'Add block' }).click();
      await page.waitForURL('**/admin/pages/contact?done=*');
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Added a Video block at the end: version \d+\. It is on the store now\.$/,
      );
      const block = page.getByRole('group', { name: /^Block \d+: Video$/ });
      await expect(block.getByLabel('Video address').inputValue()).resolves.toBe(
        'https://www.youtube.com/watch?v=ZbZSe6N_BXs',
      );
      await expect(block.getByLabel('Provider (optional)').inputValue()).resolves.toBe('YouTube');
      await page.goto(`${shop.url}/contact`);
      await expect(page.getByRole('link', { name: 'Play video: Glazing day' }).isVisible()).resolves.toBe(true);
      await desk.close();

      const wide = await signedIn(browser, shop, ADMIN, { width: 1280 });
      const editor = await wide.newPage();
      await editor.goto(`${shop.url}/admin/pages/contact`);
      expect(await axeViolationsOf(editor), 'the editor with the new video at 1280 px').toEqual([]);
      await wide.close();
    }, 120_000);

    it('has no axe violation on the pages list and the editor at 390 and 1280 px, and no sideways scroll', async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, ADMIN, { width });
        const page = await context.newPage();
        for (const path of ['/admin/pages', '/admin/pages/home', '/admin/pages/about']) {
          await page.goto(`${shop.url}${path}`);
          expect(await axeViolationsOf(page), `${path} at ${width} px`).toEqual([]);
          expect(await overflowOf(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
        }
        await context.close();
      }
    }, 120_000);
  },
);
