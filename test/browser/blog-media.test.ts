/**
 * The video block and the like button in Chromium (§2, §3), on both engines: the video's overlay plays the video in
 * a sandboxed player frame on a click or Enter, focus moving to the player; without JavaScript the overlay is a link
 * to the video's page. A post's like button likes once, says so, and is remembered; without JavaScript its form
 * likes and comes back to the post. axe-core finds nothing on the pages these parts are on. Needs the built bundle.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const VIDEO = 'Throwing a bowl, start to finish';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

/** Whether React has hydrated the element matching `selector` (its island's code ran). */
const hydrated = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const element = document.querySelector(s);
    return element !== null && Object.keys(element).some((k) => k.startsWith('__reactProps'));
  }, selector);

describeEachEngine(
  (engine) => `video block and like button in Chromium (${engine})`,
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
      // No outside request in tests: the provider's player is refused (its frame still appears).
      await context.route(/^https:\/\//, (route) => route.abort());
      // Every Content-Security-Policy violation of the page, as the browser reports it.
      await context.addInitScript(() => {
        const w = window as unknown as { cspViolations: string[] };
        w.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          w.cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`),
        );
      });
      page = await context.newPage();
    });
    afterEach(async () => context?.close());

    const cspViolations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    const play = () => page.getByRole('link', { name: `Play video: ${VIDEO}` });
    const player = () => page.locator('iframe.video-block__frame');

    it('plays the video with Enter: the sandboxed player replaces the overlay and takes focus', async () => {
      await page.goto(`${server.url}/about`);
      expect(await axeViolationsOf(page)).toEqual([]);
      expect(await player().count()).toBe(0);
      await play().focus();
      await expect.poll(() => hydrated(page, '.video-block__play'), { timeout: 10_000 }).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => player().count()).toBe(1);
      expect(page.url()).toBe(`${server.url}/about`);
      expect(await player().getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-presentation');
      expect(await player().getAttribute('title')).toBe(`Video: ${VIDEO}`);
      expect(await player().getAttribute('src')).toBe(
        'https://www.youtube-nocookie.com/embed/ZbZSe6N_BXs?feature=oembed&autoplay=1',
      );
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
      expect(await page.locator('.video-block__overlay').isVisible()).toBe(false);
      expect(await play().count()).toBe(0);
      // The page's policy allowed the player's frame — and only that origin: another site's frame is refused.
      expect(await cspViolations()).toEqual([]);
      expect(await axeViolationsOf(page)).toEqual([]);
      await page.evaluate(() => {
        const other = document.createElement('iframe');
        other.src = 'https://evil.example/';
        other.title = 'x';
        document.body.append(other);
      });
      await expect.poll(() => cspViolations()).toEqual(['frame-src https://evil.example']);
    });

    it('plays the video on a click', async () => {
      await page.goto(`${server.url}/about`);
      await play().hover();
      await expect.poll(() => hydrated(page, '.video-block__play'), { timeout: 10_000 }).toBe(true);
      await play().click();
      await expect.poll(() => player().count()).toBe(1);
      expect(page.url()).toBe(`${server.url}/about`);
      expect(await cspViolations()).toEqual([]);
    });

    it("without JavaScript, the overlay links to the video's page", async () => {
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      try {
        const plain = await noScript.newPage();
        await plain.goto(`${server.url}/about`);
        const link = plain.getByRole('link', { name: `Play video: ${VIDEO}` });
        expect(await link.getAttribute('href')).toBe('https://www.youtube.com/watch?v=ZbZSe6N_BXs');
        expect(await plain.locator('.video-block__overlay').isVisible()).toBe(true);
      } finally {
        await noScript.close();
      }
    });

    it('likes a post once with the keyboard, says so, and remembers it', async () => {
      const counted = page.waitForResponse(
        (r) => r.url().endsWith('/api/content/likes/glaze-notes') && r.request().method() === 'GET',
      );
      await page.goto(`${server.url}/blog/glaze-notes-cobalt`);
      expect(await axeViolationsOf(page)).toEqual([]);
      const button = page.getByRole('button', { name: 'Like', exact: true });
      await button.focus();
      await counted;
      await expect.poll(() => hydrated(page, '.post-likes'), { timeout: 10_000 }).toBe(true);
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'You liked this post.' }).textContent())
        .toBe('You liked this post. 1 like.');
      const liked = page.getByRole('button', { name: 'Liked' });
      expect(await liked.getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('.post-likes__count').textContent()).toBe('1 like');
      expect(page.url()).toBe(`${server.url}/blog/glaze-notes-cobalt`);
      // A second press changes nothing.
      await page.keyboard.press('Enter');
      expect(await page.locator('.post-likes__count').textContent()).toBe('1 like');
      expect(await axeViolationsOf(page)).toEqual([]);

      // Back later: the page (made before the like) is corrected by the button, which knows this visitor liked it.
      await page.reload();
      await expect.poll(() => page.getByRole('button', { name: 'Liked' }).count(), { timeout: 10_000 }).toBe(1);
      expect(await page.locator('.post-likes__count').textContent()).toBe('1 like');
    });

    it('without JavaScript, the like form likes the post and comes back to it', async () => {
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      try {
        const plain = await noScript.newPage();
        await plain.goto(`${server.url}/blog/the-only-brew-ratio-you-need`);
        await plain.getByRole('button', { name: 'Like', exact: true }).click();
        await plain.waitForURL(`${server.url}/blog/the-only-brew-ratio-you-need#likes`);
        const likes = await noScript.request.get(`${server.url}/api/content/likes/brew-ratio`);
        expect(await likes.json()).toEqual({ postId: 'brew-ratio', likeCount: 1, liked: true });
      } finally {
        await noScript.close();
      }
    });

    it('finds nothing for axe on the blog, its category and tag pages, an event post and a product with audio', async () => {
      for (const path of [
        '/blog',
        '/blog/category/ceramics',
        '/blog/tag/glazes',
        '/blog/studio-open-day',
        '/shop/p/brewing-guide',
      ]) {
        await page.goto(`${server.url}${path}`);
        expect(await axeViolationsOf(page), path).toEqual([]);
        expect(await cspViolations(), path).toEqual([]);
      }
    });
  },
);
