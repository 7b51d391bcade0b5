/**
 * Add-on and related products in Chromium (issue 10; spec §2, §4, §7), on both engines, with the demo site (the
 * pour-over dripper names the scoop, a coffee and the e-book as add-ons): the add-on's compact button goes plus →
 * 'Add...' (the adding style) → checkmark → plus, says so politely, and the cart holds the item; it works from the
 * keyboard and without JavaScript; axe finds nothing. "You may also like" shows the next products in stock, its add
 * buttons add, and RelatedProduct display (once, when scrolled into view), add and click are sent. Needs the built
 * bundle (`vite build`).
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const DRIPPER = '/shop/p/pour-over-dripper';
const SCOOP = 'Walnut Coffee Scoop';
const PLUS = 'M10 4v12M4 10h12';
const CHECK = 'M4 10.5l4 4 8-9';
/** The dripper's related products: the next 4 of the shop in stock (the bud vase after the cups is sold out). */
const RELATED = ['espresso-cups', 'dinner-plate', 'house-blend', 'ethiopia-yirgacheffe'];

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

interface SentEvent {
  event: string;
  data: Record<string, unknown>;
}
const eventOf = (request: Request): SentEvent => {
  const form = new URLSearchParams(request.postData() ?? '');
  return { event: form.get('event') ?? '', data: JSON.parse(form.get('data') ?? '{}') as Record<string, unknown> };
};

describeEachEngine(
  (engine) => `add-ons and related products in Chromium (${engine})`,
  (engine) => {
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;
    let events: SentEvent[];
    const errors: string[] = [];

    beforeAll(async () => {
      server = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
    });
    afterAll(async () => server?.close());
    beforeEach(async () => {
      context = await browser.newContext();
      page = await context.newPage();
      events = [];
      errors.length = 0;
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/events/RecordEvent')) events.push(eventOf(r));
      });
      page.on('pageerror', (e) => errors.push(e.message));
    });
    afterEach(async () => {
      await context?.close();
      expect(errors).toEqual([]);
    });

    const addOnButton = () => page.getByRole('button', { name: `Add ${SCOOP}`, exact: true });
    const iconOf = () => addOnButton().locator('svg path').getAttribute('d');
    /** The island has hydrated: React has put its props on the form. */
    const hydrated = () =>
      page.waitForFunction(() =>
        Object.keys(document.querySelector('.add-on form') ?? {}).some((k) => k.startsWith('__reactProps')),
      );
    const cartLines = async () => {
      const cart = (await (await context.request.get(`${server.url}/api/commerce/shopping-cart`)).json()) as {
        entries?: { itemId: string; quantity: number }[];
      };
      return (cart.entries ?? []).map((e) => [e.itemId, e.quantity]);
    };
    const related = (name: string) => page.locator('.related-products .product-card', { hasText: name });

    it('the add-on button: its own chunk, plus → Add... → checkmark → plus, a polite status, the item in the cart', async () => {
      const manifest = JSON.parse(readFileSync('dist/client/.vite/manifest.json', 'utf8')) as Record<
        string,
        { file: string; isDynamicEntry?: boolean }
      >;
      const chunk = manifest['src/client/islands/AddOnButton.tsx'];
      expect(chunk?.isDynamicEntry).toBe(true);
      const loaded = page.waitForRequest((r) => r.url().endsWith(chunk!.file));
      // The add waits a moment, so that 'Add...' can be seen.
      await page.route(`${server.url}/api/commerce/shopping-cart/entries`, async (route) => {
        await new Promise((done) => setTimeout(done, 400));
        await route.continue();
      });
      await page.goto(server.url + DRIPPER);
      await loaded;
      await hydrated();

      const addOns = page.getByRole('region', { name: 'Add-ons' });
      expect(await addOns.locator('.add-on__name').allTextContents()).toEqual([
        SCOOP,
        'Ethiopia Yirgacheffe',
        'The Home Brewing Guide (e-book)',
      ]);
      // The coffee has options: it is chosen on its own page.
      expect(await addOns.getByRole('link', { name: 'Choose Ethiopia Yirgacheffe' }).getAttribute('href')).toBe(
        '/shop/p/ethiopia-yirgacheffe',
      );
      expect(await iconOf()).toBe(PLUS);

      await addOnButton().click();
      await expect.poll(() => addOnButton().textContent()).toBe('Add...');
      expect(await addOnButton().getAttribute('class')).toContain('add-on__button--adding');
      await expect.poll(() => iconOf(), { timeout: 4000 }).toBe(CHECK);
      expect(await addOnButton().getAttribute('class')).toContain('add-on__button--added');
      expect(await addOns.getByRole('status').first().textContent()).toBe(`${SCOOP} was added to your cart.`);
      expect(await cartLines()).toEqual([['coffee-scoop', 1]]);
      await expect.poll(() => page.locator('a.cart-pill .cart-pill__count').textContent()).toBe('1 item');
      // §4: back to the plus 2 s later.
      await expect.poll(() => iconOf(), { timeout: 4000 }).toBe(PLUS);
      expect(await axeViolationsOf(page)).toEqual([]);
    });

    it('works from the keyboard: Tab from the add-on’s name reaches its button, Enter and Space add, focus stays', async () => {
      await page.goto(server.url + DRIPPER);
      await hydrated();
      await page.getByRole('link', { name: SCOOP, exact: true }).focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Add ${SCOOP}`);
      await page.keyboard.press('Enter');
      await expect.poll(() => iconOf(), { timeout: 4000 }).toBe(CHECK);
      await expect.poll(() => iconOf(), { timeout: 4000 }).toBe(PLUS);
      await page.keyboard.press('Space');
      await expect.poll(() => iconOf(), { timeout: 4000 }).toBe(CHECK);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Add ${SCOOP}`);
      expect(await cartLines()).toEqual([['coffee-scoop', 2]]);
    });

    it('adds without JavaScript: the button posts its form and the page says so', async () => {
      const plain = await browser.newContext({ javaScriptEnabled: false });
      try {
        const noJs = await plain.newPage();
        await noJs.goto(server.url + DRIPPER);
        await Promise.all([
          noJs.waitForURL(`${server.url}${DRIPPER}#cart-notice`),
          noJs.getByRole('button', { name: `Add ${SCOOP}`, exact: true }).click(),
        ]);
        expect(await noJs.locator('.cart-notice').textContent()).toContain(`${SCOOP} was added to your cart.`);
        const cart = (await (await plain.request.get(`${server.url}/api/commerce/shopping-cart`)).json()) as {
          entries: { itemId: string }[];
        };
        expect(cart.entries.map((e) => e.itemId)).toEqual(['coffee-scoop']);
      } finally {
        await plain.close();
      }
    });

    it('related products: shown under the page, displayed once when scrolled to, their add buttons add, clicks reported', async () => {
      await page.goto(server.url + DRIPPER);
      const section = page.getByRole('region', { name: 'You may also like' });
      expect(await section.locator('h3').allTextContents()).toEqual([
        'Espresso Cups, Pair',
        'Oat Dinner Plate',
        'House Blend Coffee',
        'Ethiopia Yirgacheffe',
      ]);
      // Below the fold: nothing displayed yet, even once the measurement module runs (it sends the page's VisitPDP).
      await expect
        .poll(() => events.some((e) => e.event === 'CommerceShopping_VisitPDP'), { timeout: 15_000 })
        .toBe(true);
      await page.waitForTimeout(500);
      expect(events.filter((e) => e.event === 'CommerceShopping_RelatedProductDisplay')).toEqual([]);

      await section.scrollIntoViewIfNeeded();
      await expect
        .poll(() => events.filter((e) => e.event === 'CommerceShopping_RelatedProductDisplay').length, {
          timeout: 10_000,
        })
        .toBe(1);
      expect(events.find((e) => e.event === 'CommerceShopping_RelatedProductDisplay')?.data).toMatchObject({
        itemId: 'pour-over-dripper',
        relatedItemIds: RELATED,
        pagePath: DRIPPER,
        pageType: 50,
      });

      // Its add buttons work as on a product list, and report RelatedProductAdd.
      const cups = related('Espresso Cups, Pair').locator('button.add-to-cart');
      await cups.click();
      await expect.poll(() => cups.textContent(), { timeout: 4000 }).toContain('Added!');
      expect(await cartLines()).toEqual([['espresso-cups', 1]]);
      await expect
        .poll(() => events.find((e) => e.event === 'CommerceShopping_RelatedProductAdd')?.data, { timeout: 5000 })
        .toMatchObject({
          itemId: 'espresso-cups',
          sourceItemId: 'pour-over-dripper',
        });
      // A product with options only asks for them (§5 rule 1), and adds nothing.
      const blend = related('House Blend Coffee').locator('button.add-to-cart');
      await blend.click();
      await expect.poll(() => blend.textContent()).toContain('Select Option');
      expect(events.filter((e) => e.event === 'CommerceShopping_RelatedProductAdd')).toHaveLength(1);

      // Scrolling away and back displays nothing new.
      await page.evaluate(() => window.scrollTo(0, 0));
      await section.scrollIntoViewIfNeeded();
      expect(events.filter((e) => e.event === 'CommerceShopping_RelatedProductDisplay')).toHaveLength(1);
      // Judged once both buttons are back to idle: a label that reverts while axe reads the page is caught half-way
      // through its colour transition (white on ink to ink on paper), which axe reports as failing contrast.
      await expect.poll(() => cups.textContent(), { timeout: 5000 }).not.toContain('Added!');
      await expect.poll(() => blend.textContent(), { timeout: 5000 }).not.toContain('Select Option');
      expect(await axeViolationsOf(page)).toEqual([]);

      const clicked = page.waitForRequest(
        (r) =>
          r.url().endsWith('/api/events/RecordEvent') &&
          (r.postData() ?? '').includes('CommerceShopping_RelatedProductClick'),
      );
      await Promise.all([
        page.waitForURL(`${server.url}/shop/p/dinner-plate`),
        section.getByRole('link', { name: 'Oat Dinner Plate', exact: true }).click(),
      ]);
      expect(eventOf(await clicked).data).toMatchObject({
        itemId: 'dinner-plate',
        sourceItemId: 'pour-over-dripper',
        position: 2,
      });
    });
  },
);
