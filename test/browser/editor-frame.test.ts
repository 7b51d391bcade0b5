/**
 * The site editor's frame in Chromium (issue 26, spec §2), on the demo: /admin/design's preview is the storefront's
 * home page with the design as typed — at 1280 px it follows the form as the owner types (JavaScript), at 390 px
 * without JavaScript after Preview — and nothing is saved. Inside that frame the spec's editor rules hold: the cart
 * pill sets the frame's URL instead of navigating; a gift-card purchase redirects only the top window (with and
 * without JavaScript); a collection page is not a product list page (no 'Added to cart' popover, no VisitPLP event),
 * while the same page outside the editor is one.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { PASSWORD, signedIn } from './adminShop';
import { axeViolationsOf, BROWSER_TEST_TIMEOUT_MS, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const ADMIN = 'owner@example.com';
const FRAME = 'design-preview';
const CUPS = 'Espresso Cups, Pair';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

/** The preview frame, once its page has loaded. */
async function previewFrame(page: Page): Promise<Frame> {
  await page.locator(`iframe[name="${FRAME}"]`).waitFor();
  const frame = page.frame({ name: FRAME })!;
  await frame.waitForLoadState('load');
  return frame;
}

/** A custom property of the frame's page, '' when unset; null while the frame is between pages. */
const propertyOf = (frame: Frame, name: string) =>
  frame.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name).catch(() => null);

/** Adds the espresso cups (one variant) from a product card of the frame's page and waits for the cart pill. */
async function addCups(frame: Frame): Promise<void> {
  const card = frame.locator('.product-card', { hasText: CUPS }).first();
  await card.locator('button.add-to-cart').click();
  await frame.locator('.cart-pill--shown').waitFor();
}

describe('the site editor’s frame in Chromium', () => {
  let shop: RunningServer;
  beforeAll(async () => {
    shop = await startServer({ cartRateLimitPerMinute: 1_000_000 });
    await createSiteUser(shop.db!, { siteId: 'demo', email: ADMIN, password: PASSWORD, role: ContributorRole.ADMIN });
  }, BROWSER_TEST_TIMEOUT_MS);
  afterAll(async () => shop?.close());

  it(
    'previews the unsaved design as the storefront’s home page: live at 1280 px, by Preview without JavaScript at 390 px',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      for (const { width, javaScript } of [
        { width: 1280, javaScript: true },
        { width: 390, javaScript: false },
      ]) {
        const context = await signedIn(browser, shop, ADMIN, { width, javaScriptEnabled: javaScript });
        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/design`);
        let frame = await previewFrame(page);
        // The storefront's home page with the stored design (the demo has none).
        expect(await frame.locator('.site-title').first().textContent()).toBe('Vitrine Demo Store');
        expect(await propertyOf(frame, '--site-button-background')).toBe('');
        await page.getByLabel('Button background', { exact: true }).fill('#5b2a86');
        await page.getByLabel('Heading font').selectOption('playfair-display');
        if (!javaScript) await page.getByRole('button', { name: 'Preview' }).click();
        // Both changes are drawn (with JavaScript each change posts the form again: wait for the last).
        await expect
          .poll(
            async () => {
              const frame = page.frame({ name: FRAME })!;
              return `${await propertyOf(frame, '--site-button-background')} ${await propertyOf(frame, '--site-heading-font')}`;
            },
            { timeout: 10_000 },
          )
          .toMatch(/^#5b2a86 'Playfair Display', /);
        frame = await previewFrame(page);
        // The heading's font is fetched as the page is drawn (an offscreen frame may take a moment).
        await expect
          .poll(
            () =>
              frame
                .evaluate(
                  () => document.fonts.check('600 24px "Playfair Display"') && document.fonts.status === 'loaded',
                )
                .catch(() => false),
            { timeout: 10_000 },
          )
          .toBe(true);
        const drawn = await frame.evaluate(() => ({
          button: getComputedStyle(document.querySelector('.button--primary')!).backgroundColor,
          heading: getComputedStyle(document.querySelector('h2')!).fontFamily,
          fonts: [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')),
        }));
        expect(drawn.button).toBe('rgb(91, 42, 134)');
        expect(drawn.heading).toMatch(/^"Playfair Display", /);
        expect(drawn.fonts).toEqual(['Playfair Display']);
        // The editor stays where it is, axe-clean, and nothing is saved: the store keeps its look.
        expect(new URL(page.url()).pathname).toBe('/admin/design');
        // (axe runs in the page, so with JavaScript: at 390 px too in the cart pill's test and admin-design.test.ts.)
        if (javaScript) expect(await axeViolationsOf(page), `/admin/design at ${width} px`).toEqual([]);
        await page.goto(`${shop.url}/`);
        expect(
          await page.evaluate(() =>
            getComputedStyle(document.documentElement).getPropertyValue('--site-button-background'),
          ),
        ).toBe('');
        await context.close();
      }
    },
  );

  it(
    'the cart pill sets the frame’s URL instead of navigating (§2), at 390 and 1280 px',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, ADMIN, { width });
        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/design`);
        const frame = await previewFrame(page);
        await addCups(frame);
        // By keyboard (the pill floats at the frame's corner, which the editor's layout may scroll out of reach).
        await frame.locator('.cart-pill--shown').focus();
        await Promise.all([frame.waitForURL(/\/cart$/), page.keyboard.press('Enter')]);
        expect(await page.locator(`iframe[name="${FRAME}"]`).getAttribute('src')).toBe('/cart');
        expect(new URL(page.url()).pathname).toBe('/admin/design');
        expect(await axeViolationsOf(page), `/admin/design with the cart in its frame at ${width} px`).toEqual([]);
        expect(await frame.locator('body').textContent()).toContain(CUPS);
        await context.close();
      }
    },
  );

  it(
    'a gift-card purchase redirects only the top window (§2), with JavaScript at 1280 px and without at 390 px',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      for (const { width, javaScript } of [
        { width: 1280, javaScript: true },
        { width: 390, javaScript: false },
      ]) {
        const context = await signedIn(browser, shop, ADMIN, { width, javaScriptEnabled: javaScript });
        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/design`);
        const frame = await previewFrame(page);
        await frame.goto(`${shop.url}/shop/p/gift-card`);
        await frame.getByLabel('Select Amount').selectOption('$50');
        await Promise.all([
          page.waitForURL(/\/checkout\/giftcard\?/),
          frame.locator('form.purchase button[type=submit]').first().click(),
        ]);
        const url = new URL(page.url());
        expect(url.searchParams.get('giftCardProductId')).toBe('gift-card');
        expect(url.searchParams.get('sku')).toBe('GC-50');
        // The whole window is the checkout: the editor and its frame are gone.
        expect(await page.locator(`iframe[name="${FRAME}"]`).count()).toBe(0);
        await context.close();
      }
    },
  );

  it(
    'a collection page inside the editor is not a product list page (§2): no popover, no VisitPLP; outside it is',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, ADMIN, { width });
        const events: string[] = [];
        context.on('request', (request) => {
          if (request.url().endsWith('/api/events/RecordEvent'))
            events.push(`${request.frame().name() === FRAME ? 'frame' : 'top'} ${request.postData() ?? ''}`);
        });
        // Outside the editor: the shop is a product list page.
        const store = await context.newPage();
        await store.goto(`${shop.url}/shop`);
        await expect.poll(() => events.some((e) => e.startsWith('top') && e.includes('VisitPLP'))).toBe(true);
        await addCups(store.mainFrame());
        await store.locator('.added-popover').waitFor();
        await store.close();

        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/design`);
        const frame = await previewFrame(page);
        await frame.goto(`${shop.url}/shop`);
        await frame.waitForLoadState('networkidle');
        await addCups(frame);
        // Past the popover's 1 s delay: none came.
        await page.waitForTimeout(1_600);
        expect(await frame.locator('.added-popover').count()).toBe(0);
        expect(events.filter((e) => e.startsWith('frame') && e.includes('VisitPLP'))).toEqual([]);
        // Its adds are still the cart's (the AddToCart event is sent from the frame).
        await expect.poll(() => events.some((e) => e.startsWith('frame') && e.includes('AddToCart'))).toBe(true);
        await context.close();
      }
    },
  );
});
