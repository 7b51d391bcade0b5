/**
 * Gallery blocks in Chromium (§3 gallery options, §9 gallery defaults), on both engines, on the demo's /about
 * slideshow: the lightbox by keyboard (Tab to an image, Enter opens it, focus inside, ArrowRight moves, Escape closes,
 * focus returns) with axe-core finding nothing; the slideshow's previous / next by keyboard (buttons and arrow keys,
 * wrapping); autoplay that pauses on hover and focus, has a Pause button and never starts under reduced motion; the
 * gallery's code loads only on pages that have one; without JavaScript the first slide and its thumbnail links.
 * Needs the built bundle (`vite build`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

interface EditableSite {
  website: { store: Record<string, unknown> };
  pages?: { id: string; blocks: { type: string; flags?: string[]; autoplayDelay?: number }[] }[];
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

/** Tabs until the focused element matches `selector` (at most 60 presses); what has focus then. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      className: el?.className ?? '',
      label: el?.getAttribute('aria-label') ?? el?.textContent ?? '',
      inDialog: Boolean(el?.closest('dialog')),
    };
  });

/**
 * Moves the page's clock 2.5 s on (every timer due by then runs: a slideshow playing every second would move on),
 * then lets the page render what they changed.
 */
async function twoAndAHalfSecondsLater(page: Page): Promise<void> {
  await page.clock.runFor(2500);
  await page.evaluate(() => new Promise((rendered) => requestAnimationFrame(() => setTimeout(rendered, 0))));
}

describeEachEngine(
  (engine) => `gallery in Chromium (${engine})`,
  (engine) => {
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;
    let problems: string[];
    beforeAll(async () => {
      server = await startServer({ engine });
    });
    afterAll(async () => server?.close());
    beforeEach(async () => {
      context = await browser.newContext();
      page = await context.newPage();
      problems = [];
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
    });
    afterEach(async () => context?.close());

    const gallery = () => page.getByRole('region', { name: 'Inside the studio' });
    const slide = () => gallery().locator('[aria-roledescription="slide"]');
    /** The island has run once its buttons are there. */
    const hydrated = async () =>
      expect.poll(() => gallery().getByRole('button', { name: 'Next slide' }).count(), { timeout: 10_000 }).toBe(1);

    it('gallery lightbox by keyboard: Tab to an image, Enter opens it with focus inside, ArrowRight moves, Escape closes, focus returns', async () => {
      await page.goto(`${server.url}/about`);
      await hydrated();
      await tabTo(page, '.gallery__link');
      expect(await page.evaluate(() => document.activeElement?.querySelector('img')?.alt)).toBe(
        'Clay on a pottery wheel',
      );

      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Image viewer: Inside the studio' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(page.url()).toBe(`${server.url}/about`);
      expect(await focused(page)).toMatchObject({
        className: 'gallery-lightbox__close',
        label: 'Close',
        inDialog: true,
      });
      expect(await dialog.locator('img').getAttribute('alt')).toBe('Clay on a pottery wheel');
      expect(await dialog.locator('.gallery-lightbox__position').textContent()).toBe('1 of 5');
      expect(await dialog.getAttribute('class')).toContain('gallery-lightbox--dark');
      expect(await axeViolationsOf(page)).toEqual([]);

      await page.keyboard.press('ArrowRight');
      expect(await dialog.locator('.gallery-lightbox__position').textContent()).toBe('2 of 5');
      expect(await dialog.locator('img').getAttribute('alt')).toBe('Oatmeal speckled stoneware mug');
      expect(await dialog.locator('figcaption').textContent()).toContain('Speckled glaze');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      expect(await dialog.locator('.gallery-lightbox__position').textContent()).toBe('5 of 5');

      // Focus stays inside: Tab cycles through the dialog's buttons.
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        expect((await focused(page)).inDialog).toBe(true);
      }

      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await focused(page)).toMatchObject({ className: 'gallery__link', inDialog: false });
      expect(await page.evaluate(() => document.activeElement?.querySelector('img')?.alt)).toBe(
        'Clay on a pottery wheel',
      );

      // The close button closes it too, and a click on the backdrop.
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await page.keyboard.press('Enter'); // the close button has focus
      await expect.poll(() => dialog.count()).toBe(0);
      await slide().locator('a').click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await page.mouse.click(5, 300);
      await expect.poll(() => dialog.count()).toBe(0);
      expect(problems).toEqual([]);
    });

    it('moves the slideshow by keyboard: Next / Previous buttons and the arrow keys, wrapping; thumbnails choose a slide', async () => {
      await page.goto(`${server.url}/about`);
      await hydrated();
      expect(await slide().getAttribute('aria-label')).toBe('1 of 5');
      await tabTo(page, '.gallery__step--next');
      expect((await focused(page)).label).toBe('Next slide');
      await page.keyboard.press('Enter');
      expect(await slide().getAttribute('aria-label')).toBe('2 of 5');
      expect(await slide().locator('img').getAttribute('alt')).toBe('Oatmeal speckled stoneware mug');
      await page.keyboard.press('Space');
      expect(await slide().getAttribute('aria-label')).toBe('3 of 5');
      await page.keyboard.press('ArrowRight');
      expect(await slide().getAttribute('aria-label')).toBe('4 of 5');
      await page.keyboard.press('Shift+Tab');
      expect((await focused(page)).label).toBe('Previous slide');
      await page.keyboard.press('Enter');
      expect(await slide().getAttribute('aria-label')).toBe('3 of 5');
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
      expect(await slide().getAttribute('aria-label')).toBe('5 of 5');
      await page.keyboard.press('ArrowRight');
      expect(await slide().getAttribute('aria-label')).toBe('1 of 5');
      // The current slide is announced politely (no autoplay here).
      expect(await gallery().locator('.gallery__slides').getAttribute('aria-live')).toBe('polite');

      await tabTo(page, '.gallery__thumbnail');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      expect(await slide().getAttribute('aria-label')).toBe('3 of 5');
      expect(page.url()).toBe(`${server.url}/about`);
      expect(await gallery().locator('.gallery__thumbnail[aria-current="true"] img').getAttribute('alt')).toBe(
        'Charcoal stoneware bowl',
      );
      expect(await axeViolationsOf(page)).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('loads the gallery code only on pages with a gallery', async () => {
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(r.url());
      });
      await page.goto(`${server.url}/shop/p/speckled-mug`);
      await page.waitForLoadState('networkidle');
      const onProduct = new Set(scripts);
      scripts.length = 0;
      await page.goto(`${server.url}/about`);
      await hydrated();
      const added = scripts.filter((s) => !onProduct.has(s));
      expect(added.length).toBeGreaterThan(0);
      // The chunk that holds the gallery was not loaded by the product page.
      const bodies = await Promise.all(added.map(async (url) => (await context.request.get(url)).text()));
      expect(bodies.some((text) => text.includes('gallery-lightbox'))).toBe(true);
    });

    it('without JavaScript: the first slide, and thumbnails that link to each image', async () => {
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      try {
        const plain = await noScript.newPage();
        await plain.goto(`${server.url}/about`);
        const region = plain.getByRole('region', { name: 'Inside the studio' });
        expect(await region.locator('.gallery__slide img').getAttribute('alt')).toBe('Clay on a pottery wheel');
        expect(
          await region
            .locator('.gallery__slide img')
            .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        ).toBe(true);
        expect(await region.getByRole('button').count()).toBe(0);
        const links = region.locator('.gallery__thumbnail');
        expect(await links.count()).toBe(5);
        await links.nth(1).click();
        await plain.waitForURL(/\/assets\/demo\/images\/speckled-mug-oatmeal\.jpg\?v=\d+&format=1500w$/);
      } finally {
        await noScript.close();
      }
    });
  },
);

describeEachEngine(
  (engine) => `gallery autoplay, slider and grid in Chromium (${engine})`,
  (engine) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({
        engine,
        editSite: (site) => {
          const gallery = (site as EditableSite).pages
            ?.find((p) => p.id === 'about')
            ?.blocks.find((b) => b.type === 'gallery');
          if (!gallery) throw new Error('the demo has no gallery on /about');
          gallery.flags = [...(gallery.flags ?? []), 'autoplay'];
          gallery.autoplayDelay = 1;
          const image = (file: string) => ({ file: `images/${file}.jpg`, altText: `The ${file}` });
          (site as EditableSite).pages
            ?.find((p) => p.id === 'about')
            ?.blocks.push(
              {
                type: 'gallery',
                label: 'Cups',
                design: 'carousel',
                flags: ['controls', 'indicators', 'lightbox'],
                activeAlignment: 'left',
                images: ['espresso-cups', 'dinner-plate', 'bud-vase', 'latte-bowls', 'house-blend'].map(image),
              } as never,
              {
                type: 'gallery',
                label: 'Bowls',
                design: 'grid',
                flags: ['lightbox'],
                lightboxTheme: 'light',
                aspectRatio: 'square',
                images: ['stoneware-bowl', 'coffee-scoop'].map(image),
              } as never,
            );
        },
      });
    });
    afterAll(async () => server?.close());

    const open = async (context: BrowserContext) => {
      const page = await context.newPage();
      // The page's timers run on Playwright's clock (in real time until a test moves it on): that the slideshow stays
      // on a slide for 2.5 s is checked by running its timers 2.5 s ahead, not by waiting for them.
      await page.clock.install();
      await page.goto(`${server.url}/about`);
      const gallery = page.getByRole('region', { name: 'Inside the studio' });
      await expect.poll(() => gallery.getByRole('button', { name: /slideshow$/ }).count(), { timeout: 10_000 }).toBe(1);
      return {
        page,
        gallery,
        slide: () => gallery.locator('[aria-roledescription="slide"]').getAttribute('aria-label'),
      };
    };

    it('advances every autoplayDelay seconds, holds while hovered or focused, and stops with the Pause button', async () => {
      const context = await browser.newContext({ reducedMotion: 'no-preference' });
      try {
        const { page, gallery, slide } = await open(context);
        await page.mouse.move(2, 2);
        await expect.poll(slide, { timeout: 5000 }).not.toBe('1 of 5');
        // No announcement every second while it plays.
        expect(await gallery.locator('.gallery__slides').getAttribute('aria-live')).toBe('off');

        // Hover holds it.
        await gallery.locator('.gallery__stage').hover();
        const held = await slide();
        await twoAndAHalfSecondsLater(page);
        expect(await slide()).toBe(held);
        await page.mouse.move(2, 2);
        await expect.poll(slide, { timeout: 5000 }).not.toBe(held);

        // So does focus on any of its controls.
        await gallery.locator('.gallery__thumbnail').first().focus();
        const focusedOn = await slide();
        await twoAndAHalfSecondsLater(page);
        expect(await slide()).toBe(focusedOn);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await expect.poll(slide, { timeout: 5000 }).not.toBe(focusedOn);

        // The Pause button (the first control of the carousel) stops it, and Play starts it again.
        const pause = gallery.getByRole('button', { name: 'Pause slideshow' });
        await pause.focus();
        await page.keyboard.press('Enter');
        expect(await gallery.getByRole('button', { name: 'Play slideshow' }).count()).toBe(1);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        const paused = await slide();
        await twoAndAHalfSecondsLater(page);
        expect(await slide()).toBe(paused);
        expect(await axeViolationsOf(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('moves the slider (carousel) by its buttons and arrow keys, scrolling the current slide into place; a grid opens a light lightbox', async () => {
      const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
      try {
        const { page } = await open(context);
        const slider = page.getByRole('region', { name: 'Cups' });
        const current = () =>
          slider.locator('[aria-roledescription="slide"][aria-current="true"]').getAttribute('aria-label');
        await expect.poll(current).toBe('1 of 5');
        await slider.getByRole('button', { name: 'Next slide' }).focus();
        await page.keyboard.press('Enter');
        await expect.poll(current).toBe('2 of 5');
        await page.keyboard.press('ArrowRight');
        await expect.poll(current).toBe('3 of 5');
        // Aligned left: the current slide's left edge is the row's.
        const track = slider.locator('.gallery__track');
        await expect
          .poll(() => track.evaluate((row) => Math.round(row.scrollLeft - (row.children[2] as HTMLElement).offsetLeft)))
          .toBe(0);
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        await expect.poll(current).toBe('5 of 5');
        expect(await slider.locator('.gallery__indicator[aria-current="true"]').getAttribute('aria-label')).toBe(
          '5 of 5: The house-blend',
        );

        const grid = page.getByRole('list', { name: 'Bowls' });
        await grid.getByRole('link', { name: 'The coffee-scoop' }).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Image viewer: Bowls' });
        await expect.poll(() => dialog.isVisible()).toBe(true);
        expect(await dialog.getAttribute('class')).toContain('gallery-lightbox--light');
        expect(await dialog.locator('.gallery-lightbox__position').textContent()).toBe('2 of 2');
        await page.keyboard.press('ArrowRight');
        expect(await dialog.locator('.gallery-lightbox__position').textContent()).toBe('1 of 2');
        expect(await axeViolationsOf(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.count()).toBe(0);
        expect(await page.evaluate(() => document.activeElement?.querySelector('img')?.alt)).toBe('The coffee-scoop');
      } finally {
        await context.close();
      }
    });

    it('never starts when the visitor prefers reduced motion (Play is offered)', async () => {
      const context = await browser.newContext({ reducedMotion: 'reduce' });
      try {
        const { page, gallery, slide } = await open(context);
        await page.mouse.move(2, 2);
        expect(await gallery.getByRole('button', { name: 'Play slideshow' }).count()).toBe(1);
        await twoAndAHalfSecondsLater(page);
        expect(await slide()).toBe('1 of 5');
      } finally {
        await context.close();
      }
    });
  },
);
