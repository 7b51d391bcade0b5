/**
 * What the shopper sees as they choose, and the frame on a phone (issue 23 items 9 and 11): a variant with its own
 * picture shows it, a variant with few units left says so, the disabled Sold Out button looks disabled; at 390 px the
 * navigation is behind a menu button that works by keyboard (and without JavaScript), the shop list has two columns;
 * single-column forms keep a readable measure on a desktop.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, afterEach, describe, expect, it } from 'vitest';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(pageErrors.splice(0)).toEqual([]);
});

async function open(path: string, { width = 1280, javaScript = true } = {}): Promise<Page> {
  context = await browser.newContext({
    viewport: { width, height: width < 500 ? 844 : 800 },
    javaScriptEnabled: javaScript,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(server.url + path, { waitUntil: 'load' });
  return page;
}

/** The file name of the product page's main image as shown (its src without the width and version). */
const shownMainImage = (page: Page) =>
  page.evaluate(() => {
    const shown = [...document.querySelectorAll<HTMLImageElement>('.pdp__main-image img')].filter((img) =>
      img.checkVisibility(),
    );
    return shown.map((img) => `${new URL(img.currentSrc || img.src).pathname.split('/').pop()} (${img.alt})`);
  });

describe('options and pictures (issue 23 item 9)', () => {
  it("shows the chosen colour's own picture, and the first one again for a colour without one", async () => {
    const page = await open('/shop/p/speckled-mug');
    expect(await shownMainImage(page)).toEqual(['speckled-mug-oatmeal.jpg (Oatmeal speckled stoneware mug)']);
    const color = page.getByLabel('Select Color');
    await color.selectOption('Slate');
    await page.waitForFunction(() =>
      document.querySelector<HTMLImageElement>('.pdp__main-image img[alt^="Slate"]')?.checkVisibility(),
    );
    expect(await shownMainImage(page)).toEqual(['speckled-mug-slate.jpg (Slate speckled stoneware mug)']);
    // The picture has loaded (it was lazy while hidden).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.pdp__main-image img[alt^="Slate"]');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    await color.selectOption('Sage');
    await page.waitForFunction(() =>
      document.querySelector<HTMLImageElement>('.pdp__main-image img[alt^="Sage"]')?.checkVisibility(),
    );
    expect(await shownMainImage(page)).toEqual(['speckled-mug-sage.jpg (Sage speckled stoneware mug)']);
    await color.selectOption('');
    await page.waitForFunction(() =>
      document.querySelector<HTMLImageElement>('.pdp__main-image img[alt^="Oatmeal"]')?.checkVisibility(),
    );
    expect(await shownMainImage(page)).toEqual(['speckled-mug-oatmeal.jpg (Oatmeal speckled stoneware mug)']);
  });

  it('shows one main image without JavaScript, and every picture under it', async () => {
    const page = await open('/shop/p/speckled-mug', { javaScript: false });
    expect(await shownMainImage(page)).toEqual(['speckled-mug-oatmeal.jpg (Oatmeal speckled stoneware mug)']);
    expect(
      await page
        .locator('.pdp__more-images img')
        .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).alt)),
    ).toEqual(['Slate speckled stoneware mug', 'Sage speckled stoneware mug']);
  });

  it('shows the scarcity text of the chosen variant: few Slate mugs left, plenty of Oatmeal, none of Sage', async () => {
    const page = await open('/shop/p/speckled-mug');
    const scarcity = page.locator('form.purchase .scarcity');
    // 16 mugs in all: nothing to say before a choice.
    expect(await scarcity.count()).toBe(0);
    const color = page.getByLabel('Select Color');
    await color.selectOption('Slate');
    await scarcity.waitFor();
    expect(await scarcity.textContent()).toBe('Only 2 left in stock');
    await color.selectOption('Oatmeal');
    await scarcity.waitFor({ state: 'detached' });
    await color.selectOption('Sage');
    await page.locator('form.purchase button[type=submit]', { hasText: 'Sold Out' }).waitFor();
    expect(await scarcity.count()).toBe(0);
  });

  it('the disabled Sold Out button looks disabled, as the disabled Buy Now does, unlike the enabled Add To Cart, also just after an add', async () => {
    const page = await open('/shop/p/speckled-mug');
    const button = page.locator('form.purchase button[type=submit]');
    const express = page.locator('form.purchase input.express-checkout');
    // Its look once the colour transitions have ended, with the pointer on it.
    const look = async (locator: typeof button) => {
      await locator.hover();
      return locator.evaluate(async (el) => {
        // A transition replaced by another is cancelled: its `finished` rejects (AbortError), and the new one is waited for.
        await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => {})));
        const style = getComputedStyle(el);
        return {
          background: style.backgroundColor,
          border: style.borderColor,
          color: style.color,
          cursor: style.cursor,
        };
      });
    };
    const color = page.getByLabel('Select Color');
    await color.selectOption('Oatmeal');
    await page.locator('form.purchase button[type=submit]:not([disabled])').waitFor();
    const enabled = await look(button);
    // Added, then a sold-out colour chosen while the button still says so: it turns Sold Out, and looks it.
    await button.click();
    await page.locator('form.purchase button[type=submit]', { hasText: 'Added!' }).waitFor();
    await color.selectOption('Sage');
    await page.locator('form.purchase button[type=submit][disabled]', { hasText: 'Sold Out' }).waitFor();
    expect(await button.isDisabled()).toBe(true);
    const soldOut = await look(button);
    expect(soldOut.cursor).toBe('not-allowed');
    expect(soldOut.background).not.toBe(enabled.background);
    expect(soldOut.color).not.toBe(enabled.color);
    expect(await express.isDisabled()).toBe(true);
    expect(await look(express)).toEqual(soldOut);
  });
});

/** The accessible name and expanded state Chromium gives an element (its accessibility tree, through the DevTools protocol). */
async function accessibleState(page: Page, selector: string): Promise<{ name: string; expanded: boolean | undefined }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument')) as { root: { nodeId: number } };
    const { nodeId } = (await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })) as { nodeId: number };
    const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false })) as {
      nodes: { name?: { value: string }; properties?: { name: string; value: { value: unknown } }[] }[];
    };
    const node = nodes[0]!;
    const expanded = node.properties?.find((p) => p.name === 'expanded')?.value.value;
    return {
      name: String(node.name?.value ?? '').trim(),
      expanded: expanded === undefined ? undefined : expanded === true,
    };
  } finally {
    await cdp.detach();
  }
}

describe('phones and wide screens (issue 23 item 11)', () => {
  for (const javaScript of [true, false]) {
    it(`at 390 px the navigation is behind a menu button that opens by keyboard${javaScript ? '' : ', without JavaScript too'}`, async () => {
      const page = await open('/shop', { width: 390, javaScript });
      const menu = page.locator('summary.site-menu__button');
      const journal = page.getByRole('link', { name: 'Journal' });
      // One row: the title and the button; no link on show until the menu opens.
      expect(await journal.count()).toBe(0);
      const header = await page.locator('header.site-header').boundingBox();
      expect(header!.height).toBeLessThan(80);
      await page.keyboard.press('Tab'); // the skip link
      await page.keyboard.press('Tab'); // the site's title
      await page.keyboard.press('Tab');
      expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
      // A <details> disclosure: its summary is told to assistive technology as a collapsed, then expanded button.
      const expanded = () => accessibleState(page, 'summary.site-menu__button');
      expect(await expanded()).toEqual({ name: 'Menu', expanded: false });
      await page.keyboard.press('Enter');
      await journal.waitFor();
      expect(await expanded()).toEqual({ name: 'Menu', expanded: true });
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        'Home',
        'Shop',
        'Journal',
        'About',
        'Contact',
        'Cart',
      ]);
      expect(await page.getByRole('searchbox', { name: 'Search this site' }).count()).toBe(1);
      // The links come next by keyboard; Enter follows one.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Home');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await Promise.all([page.waitForURL(/\/blog$/), page.keyboard.press('Enter')]);
    });
  }

  it('at 390 px axe-core finds no violation with the menu open, on the shop list and a product page', async () => {
    for (const path of ['/shop', '/shop/p/speckled-mug']) {
      const page = await open(path, { width: 390 });
      expect(await axeViolationsOf(page)).toEqual([]);
      await page.locator('summary.site-menu__button').click();
      await page.getByRole('link', { name: 'Journal' }).waitFor();
      expect(await axeViolationsOf(page)).toEqual([]);
      await context?.close();
    }
  });

  it('at 1280 px the navigation shows as links, with no menu button', async () => {
    const page = await open('/shop');
    expect(await page.locator('summary.site-menu__button').isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual([
      'Home',
      'Shop',
      'Journal',
      'About',
      'Contact',
      'Cart',
    ]);
    expect(await page.getByRole('searchbox', { name: 'Search this site' }).count()).toBe(1);
  });

  it('at 390 px the shop list shows two products per row', async () => {
    const page = await open('/shop', { width: 390 });
    const boxes = await page.locator('.product-grid > li').evaluateAll((items) =>
      items
        .slice(0, 4)
        .map((li) => li.getBoundingClientRect())
        .map((r) => ({ x: Math.round(r.x), y: Math.round(r.y), width: r.width })),
    );
    expect(boxes[0]!.y).toBe(boxes[1]!.y);
    expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1);
    expect(boxes[2]!.x).toBe(boxes[0]!.x);
    expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('at 1280 px the gift-card and password forms keep a readable measure', async () => {
    const widthOf = async (path: string, field: string) => {
      const page = await open(path);
      const width = (await page.getByLabel(field, { exact: true }).boundingBox())!.width;
      await context?.close();
      return width;
    };
    expect(
      await widthOf('/checkout/giftcard?websiteId=demo&giftCardProductId=gift-card', 'Recipient’s email'),
    ).toBeLessThanOrEqual(680);
    expect(await widthOf('/wholesale', 'Password')).toBeLessThanOrEqual(680);
  });
});
