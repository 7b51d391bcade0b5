/**
 * The blog post editor in Chromium (issue 26: "Blog posts: write, schedule, tag and categorise"). An editor follows
 * 'Blog posts' in the side navigation, writes a post by keyboard alone at 1280 px without JavaScript (the forms need
 * none): title, then its text, tags and a category; Save names the version, and the store's post shows the text with
 * its tag. A draft editor's new post is a Draft: the list says so, the store answers 404, the preview shows it; its
 * Status offers Draft and Needs Review only. The list and the editor have no axe violation at 390 px and 1280 px and
 * are no wider than the window. An editor creates a blog (New collection, a taken URL refused beside its field) and
 * writes its first post.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { overflowOf, PASSWORD, signedIn } from './adminShop';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const EDITOR = 'writer@example.com';
const DRAFT_EDITOR = 'drafts@example.com';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `the blog post editor at /admin in Chromium (${engine})`,
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
      await createSiteUser(shop.db!, {
        siteId: 'demo',
        email: DRAFT_EDITOR,
        password: PASSWORD,
        role: ContributorRole.DRAFT_EDITOR,
      });
    }, 120_000);
    afterAll(async () => shop?.close());

    it('an editor writes, tags and publishes a post by keyboard without JavaScript, and the store shows it', async () => {
      const context = await signedIn(browser, shop, EDITOR, { width: 1280, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin`);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog posts' }).click();
      await page.waitForURL('**/admin/posts');
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Blog posts');
      await expect(page.getByRole('table').getByRole('row').nth(1).innerText()).resolves.toContain(
        'Glaze notes: chasing the perfect cobalt',
      );

      await page.getByLabel('Title').focus();
      await page.keyboard.type('Pour-over at home');
      await expect(page.getByRole('radio', { name: /^Published/ }).isChecked()).resolves.toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/posts/pour-over-at-home?done=*');
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Created “Pour-over at home” \(version \d+\)\.$/,
      );

      await page.getByLabel('Text', { exact: true }).focus();
      await page.keyboard.type('Rinse the filter first.');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Then bloom for #thirty seconds.');
      await page.keyboard.press('Tab');
      await page.keyboard.type('brewing, pour-over');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Guides');
      await page.getByLabel('Categories').press('Enter');
      await page.waitForURL('**/admin/posts/pour-over-at-home?done=*');
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Saved: version \d+\. It is on the store now\.$/,
      );
      await expect(page.getByLabel('Tags').inputValue()).resolves.toBe('brewing, pour-over');
      await expect(page.getByLabel('Categories').inputValue()).resolves.toBe('Guides');

      await page.getByRole('link', { name: 'View on the store' }).click();
      await page.waitForURL('**/blog/pour-over-at-home');
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Pour-over at home');
      await expect(page.getByText('Rinse the filter first.').isVisible()).resolves.toBe(true);
      await context.close();
    });

    it('an editor creates a blog from the pages list by keyboard and writes its first post; axe-clean at 390 px', async () => {
      const context = await signedIn(browser, shop, EDITOR, { width: 390 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/pages`);
      await page.getByRole('link', { name: 'New collection' }).click();
      await page.waitForURL('**/admin/collections/new');
      expect(await axeViolationsOf(page), '/admin/collections/new at 390 px').toEqual([]);
      expect(await overflowOf(page)).toBeLessThanOrEqual(0);
      await page.getByRole('radio', { name: 'Blog (posts)' }).check();
      await page.getByLabel('Title').fill('Studio news');
      await page.getByLabel('URL').fill('/blog');
      await page.getByLabel('URL').press('Enter');
      await expect(page.getByText('This page URL already exists').first().isVisible()).resolves.toBe(true);
      await expect(page.getByLabel('URL').getAttribute('aria-invalid')).resolves.toBe('true');
      await page.getByLabel('URL').fill('');
      await page.getByLabel('URL').press('Enter');
      await page.waitForURL('**/admin/pages?done=*');
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Created the blog “Studio news” at \/studio-news \(version \d+\)\.$/,
      );
      await page.goto(`${shop.url}/admin/posts`);
      await page.getByLabel('Title').fill('Hello from the studio');
      await page.getByLabel('Blog').selectOption({ label: 'Studio news' });
      await page.getByRole('button', { name: 'Create post' }).click();
      await page.waitForURL('**/admin/posts/hello-from-the-studio?done=*');
      const store = await page.goto(`${shop.url}/studio-news/hello-from-the-studio`);
      expect(store?.status()).toBe(200);
      await context.close();
    });

    it("a draft editor's post is a Draft the store does not show; its status offers drafts only; axe-clean at 390 and 1280 px", async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, DRAFT_EDITOR, { width });
        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/posts`);
        expect(await axeViolationsOf(page), `/admin/posts at ${width} px`).toEqual([]);
        expect(await overflowOf(page)).toBeLessThanOrEqual(0);
        const status = page.getByRole('group', { name: 'Status' });
        await expect(
          status.getByRole('radio').evaluateAll((r) => r.map((e) => (e as HTMLInputElement).value)),
        ).resolves.toEqual(['draft', 'needs-review']);
        const title = `Glaze tests ${width}`;
        await page.getByLabel('Title').fill(title);
        await page.getByRole('button', { name: 'Create post' }).click();
        await page.waitForURL(`**/admin/posts/glaze-tests-${width}?done=*`);
        expect(await axeViolationsOf(page), `the post editor at ${width} px`).toEqual([]);
        expect(await overflowOf(page)).toBeLessThanOrEqual(0);
        await expect(
          page
            .getByRole('group', { name: 'Status' })
            .getByRole('radio', { name: /^Draft/ })
            .isChecked(),
        ).resolves.toBe(true);

        await page.goto(`${shop.url}/admin/posts`);
        await expect(page.getByRole('row', { name: new RegExp(title) }).innerText()).resolves.toContain('Draft');
        const store = await page.goto(`${shop.url}/blog/glaze-tests-${width}`);
        expect(store?.status()).toBe(404);
        await page.goto(`${shop.url}/admin/posts/glaze-tests-${width}/preview`);
        await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(title);
        await context.close();
      }
    });
  },
);
