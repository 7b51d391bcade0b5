/**
 * The storefront in a real browser: the real server (SQLite, the demo site), Debian's Chromium driven by
 * playwright-core, the built island bundle (npm test runs `vite build` first). Journey: choose a variant, add to
 * cart, the pill and the cart page show it, it survives a reload; sold-out products cannot be added; alerts and the
 * list popover behave per §4; a product with a form opens it in a dialog before the add; axe-core finds no
 * violations on the list, detail and cart pages (and with the product form open).
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  await context?.close();
  // A fresh context per test: no cookies, so no cart, unless the test makes one.
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) pageErrors.push(m.text());
  });
});

const open = async (path: string) => {
  await page.goto(server.url + path, { waitUntil: 'load' });
  // Islands are hydrated once the module script has run.
  await page.waitForFunction(
    () => document.querySelector('[data-island]') === null || document.readyState === 'complete',
  );
};

const pill = () => page.locator('a.cart-pill');

const axeViolations = (): Promise<string[]> => axeViolationsOf(page);

describe('storefront in Chromium', () => {
  it('adds the chosen variant from the detail page; the pill and the cart page show it, also after a reload', async () => {
    await open('/shop/p/speckled-mug');
    await see(pill()).toBeHidden();
    await page.getByLabel('Select Color').selectOption('Oatmeal');
    const button = page.locator('form.purchase button[type=submit]');
    await button.click();
    await page.waitForFunction(
      () => document.querySelector('form.purchase button[type=submit]')?.textContent === 'Adding…',
    );
    await see(pill()).toBeVisible();
    expect(await page.getByRole('link', { name: '1 items in cart, $28' }).count()).toBe(1);
    expect(await pill().locator('.cart-pill__count').textContent()).toBe('1 item');
    expect(await pill().locator('.cart-pill__subtotal').textContent()).toBe('$28');
    // 'Added!' 1 s after success, idle 2 s later (§4).
    await page.waitForFunction(
      () => document.querySelector('form.purchase button[type=submit]')?.textContent === 'Added!',
      null,
      { timeout: 3000 },
    );
    await page.waitForFunction(
      () => document.querySelector('form.purchase button[type=submit]')?.textContent === 'Add To Cart',
      null,
      { timeout: 4000 },
    );

    await pill().click();
    await page.waitForURL(/\/cart$/);
    const line = page.locator('.cart-line');
    await line.first().waitFor();
    expect(await line.count()).toBe(1);
    expect(await line.first().textContent()).toContain('Speckled Stoneware Mug');
    expect(await line.first().textContent()).toContain('Color: Oatmeal');
    expect(await page.locator('.cart-summary__subtotal').textContent()).toBe('$28.00');

    await page.reload();
    await page.locator('.cart-line').first().waitFor();
    expect(await page.locator('.cart-line').count()).toBe(1);
    // The cart page has no floating pill (it would lead where the shopper is, and cover the page's end on a phone).
    expect(await pill().count()).toBe(0);

    // On a phone, scrolled to the end of another page, the floating pill leaves the footer's last line readable.
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await open('/shop/p/speckled-mug');
    await see(pill()).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const overlap = await page.evaluate(() => {
      const a = document.querySelector('a.cart-pill')!.getBoundingClientRect();
      return [...document.querySelectorAll('.site-footer a, .site-footer p')].some((element) => {
        const b = element.getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      });
    });
    expect(overlap).toBe(false);
    if (viewport) await page.setViewportSize(viewport);
    expect(pageErrors).toEqual([]);
  });

  it('changes a quantity and removes a line on the cart page, by keyboard; more than the stock is refused', async () => {
    await open('/shop/p/speckled-mug');
    await page.getByLabel('Select Color').selectOption('Slate'); // 2 in stock
    await page.locator('form.purchase button[type=submit]').click();
    await see(pill()).toBeVisible();
    await open('/cart');
    const line = page.locator('.cart-line');
    await line.first().waitFor();
    const box = page.getByRole('spinbutton', { name: 'Quantity (Speckled Stoneware Mug)' });
    expect(await box.inputValue()).toBe('1');

    const increase = page.getByRole('button', { name: 'Increase quantity of Speckled Stoneware Mug' });
    await increase.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.cart-summary__subtotal')?.textContent === '$56.00');
    expect(await box.inputValue()).toBe('2');
    // The keyboard's focus stays on the button pressed, through the change.
    expect(await increase.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await page.getByRole('status').textContent()).toBe('Speckled Stoneware Mug: Quantity 2.');

    // A third is more than the stock: the §8 alert with the server's §5 text, and the line keeps 2.
    await box.fill('3');
    await box.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').textContent()).toBe('Unable to update quantity');
    expect(await dialog.textContent()).toContain('Sorry, we do not have enough of that item available.');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('2');
    expect(await box.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await page.locator('.cart-summary__subtotal').textContent()).toBe('$56.00');

    await box.fill('1');
    await box.press('Enter');
    await page.waitForFunction(() => document.querySelector('.cart-summary__subtotal')?.textContent === '$28.00');

    const remove = page.getByRole('button', { name: 'Remove Speckled Stoneware Mug' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.getByText('You have nothing in your shopping cart.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.classList.contains('cart-contents'))).toBe(true);
    await see(pill()).toBeHidden();
    await page.reload();
    await page.getByText('You have nothing in your shopping cart.').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows a disabled Sold Out button for a sold-out product and for a sold-out variant', async () => {
    await open('/shop/p/bud-vase');
    const button = page.locator('form.purchase button[type=submit]');
    expect(await button.textContent()).toBe('Sold Out');
    expect(await button.isDisabled()).toBe(true);

    await open('/shop');
    const card = page.locator('.product-card', { hasText: 'Cobalt Bud Vase' });
    expect(await card.locator('button').isDisabled()).toBe(true);
    expect(await card.locator('button').textContent()).toContain('Sold Out');

    await open('/shop/p/speckled-mug');
    await page.getByLabel('Select Color').selectOption('Sage');
    const pdpButton = page.locator('form.purchase button[type=submit]');
    expect(await pdpButton.textContent()).toBe('Sold Out');
    expect(await pdpButton.isDisabled()).toBe(true);
    // Choosing an available variant re-enables it with its own text.
    await page.getByLabel('Select Color').selectOption('Oatmeal');
    expect(await pdpButton.textContent()).toBe('Add To Cart');
    expect(await pdpButton.isDisabled()).toBe(false);
  });

  it('alerts about unselected options in an accessible dialog that Escape closes, returning focus', async () => {
    await open('/shop/p/stoneware-bowl');
    const button = page.locator('form.purchase button[type=submit]');
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').textContent()).toBe('Unable to Add Item');
    expect(await dialog.textContent()).toContain('Please select the Size and Glaze options.');
    expect(await page.evaluate(() => document.activeElement?.closest('[role=alertdialog]') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.matches('form.purchase button[type=submit]'))).toBe(true);
    // Both options are marked; one chosen is no longer marked, the other still is.
    const size = page.getByLabel('Select Size');
    const glaze = page.getByLabel('Select Glaze');
    expect([await size.getAttribute('aria-invalid'), await glaze.getAttribute('aria-invalid')]).toEqual([
      'true',
      'true',
    ]);
    await size.selectOption({ index: 1 });
    await expect.poll(() => size.getAttribute('aria-invalid')).toBeNull();
    expect(await glaze.getAttribute('aria-invalid')).toBe('true');
  });

  it('adds from the product list: popover after 1 s with a Close button; options show Select Option', async () => {
    await open('/shop');
    const cups = page.locator('.product-card', { hasText: 'Espresso Cups, Pair' });
    await cups.locator('button').click();
    // 'Added!' under the pointer that clicked it: white on the dark 'added' colour, not on the hover's light one.
    const added = cups.getByRole('button', { name: 'Added!' });
    await added.waitFor({ timeout: 3000 });
    expect(await added.evaluate((b) => b.matches(':hover'))).toBe(true);
    // The button's colours change with a CSS transition: read them once it has ended (under load, mid-way: 246, 246, 246).
    await expect.poll(() => added.evaluate((b) => getComputedStyle(b).color)).toBe('rgb(255, 255, 255)');
    const colours = await added.evaluate((b) => ({ background: getComputedStyle(b).backgroundColor }));
    expect(colours.background).not.toMatch(/^rgb\((2[0-9]{2}), (2[0-9]{2}), (2[0-9]{2})\)$/);
    const popover = page.locator('.added-popover');
    await popover.waitFor({ timeout: 3000 });
    expect(await popover.locator('p').textContent()).toBe('Espresso Cups, Pair was added to your cart.');
    await popover.getByRole('button', { name: 'Close' }).click();
    await popover.waitFor({ state: 'detached' });
    await see(pill()).toBeVisible();

    const bowl = page.locator('.product-card', { hasText: 'Everyday Stoneware Bowl' });
    await bowl.locator('button').click();
    expect(await bowl.locator('button').textContent()).toContain('Select Option');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
  });

  it('fetches no cart at page start without a cart (§4), and does after one exists', async () => {
    const cartCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/commerce/shopping-cart')) cartCalls.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await open('/shop');
    await page.waitForLoadState('networkidle');
    expect(cartCalls).toEqual([]);
    await page.locator('.product-card', { hasText: 'Coffee Scoop' }).locator('button').click();
    await see(pill()).toBeVisible();
    await open('/');
    await page.waitForLoadState('networkidle');
    expect(cartCalls).toEqual(['POST /api/commerce/shopping-cart/entries', 'GET /api/commerce/shopping-cart']);
  });

  it('opens the product form only after the checks pass; Required, then Saving…, then the cart shows the answers', async () => {
    // The add request is held back a little, so that 'Saving…' can be seen.
    await page.route('**/api/commerce/shopping-cart/entries', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await open('/shop/p/engraved-mug');
    const addButton = page.locator('form.purchase button[type=submit]');
    await addButton.click();
    const dialog = page.getByRole('dialog', { name: 'Engraving' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    expect(await dialog.getByLabel('Engraving text').count()).toBe(1);
    expect(await dialog.getByRole('radio', { name: 'Serif', exact: true }).count()).toBe(1);
    expect(await axeViolations()).toEqual([]);

    // Empty: the §5 texts above the required fields, nothing sent.
    const submit = dialog.locator('button[type=submit]');
    expect(await submit.textContent()).toBe('Add To Cart');
    await submit.click();
    await dialog.locator('.field__error').first().waitFor();
    expect(await dialog.locator('.field__error').allTextContents()).toEqual(['Required', 'Required']);
    expect(await dialog.getByLabel('Engraving text').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations()).toEqual([]);
    await see(pill()).toBeHidden();

    await dialog.getByLabel('Engraving text').fill('Morning, Sam');
    await dialog.getByRole('radio', { name: 'Serif', exact: true }).check();
    await submit.click();
    await page.waitForFunction(
      () => document.querySelector('dialog.form-dialog button[type=submit]')?.textContent === 'Saving…',
    );
    await dialog.waitFor({ state: 'detached' });
    await see(pill()).toBeVisible();
    expect(await pill().locator('.cart-pill__count').textContent()).toBe('1 item');
    await page.waitForFunction(
      () => document.querySelector('form.purchase button[type=submit]')?.textContent === 'Added!',
      null,
      { timeout: 3000 },
    );
    expect(await page.evaluate(() => document.activeElement?.matches('form.purchase button[type=submit]'))).toBe(true);

    await open('/cart');
    const line = page.locator('.cart-line').first();
    await line.waitFor();
    const answers = await line.locator('.cart-line__answers').textContent();
    expect(answers).toContain('Engraving text');
    expect(answers).toContain('Morning, Sam');
    expect(answers).toContain('Serif');
    expect(answers).toContain('Notes for the potter');
    expect(await axeViolations()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('counts text-area characters live in the product form, and shows a server refusal inside it (another tab took the stock)', async () => {
    await open('/shop/p/engraved-mug'); // 12 in stock
    await page.getByLabel('Quantity').fill('12');
    await page.locator('form.purchase button[type=submit]').click();
    const dialog = page.getByRole('dialog', { name: 'Engraving' });
    await dialog.waitFor();

    const notes = dialog.getByLabel('Notes for the potter');
    const counter = dialog.locator('.field__counter');
    expect(await counter.textContent()).toBe('0 / 200');
    await notes.fill('x'.repeat(201));
    expect(await counter.textContent()).toBe('201 / 200');
    expect(await counter.getAttribute('class')).toContain('field__counter--over');
    await dialog.locator('button[type=submit]').click();
    expect(await dialog.locator('.field__error').allTextContents()).toEqual([
      'Required',
      'Required',
      'You have exceeded the character limit.',
    ]);
    await notes.fill('Thank you!');
    expect(await counter.textContent()).toBe('10 / 200');

    // Meanwhile another tab of this shopper adds one: 1 in the cart + 12 asked is more than the 12 in stock.
    const other = await page.request.post(`${server.url}/api/commerce/shopping-cart/entries`, {
      headers: await crumbHeader(context, server.url),
      data: {
        itemId: 'engraved-mug',
        sku: 'MUG-ENGR',
        quantity: 1,
        additionalFields: { 'engraving-text': 'Hi', lettering: 'Serif' },
      },
    });
    expect(other.status()).toBe(200);
    await dialog.getByLabel('Engraving text').fill('Morning, Sam');
    await dialog.getByRole('radio', { name: 'Serif', exact: true }).check();
    await dialog.locator('button[type=submit]').click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('Sorry, we do not have enough of that item available.');
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.locator('button[type=submit]').textContent()).toBe('Add To Cart');
    expect(await axeViolations()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('opens the product form from a grid button too; Escape closes it without adding and returns focus', async () => {
    await open('/shop');
    const button = page.locator('.product-card', { hasText: 'Personalised Engraved Mug' }).locator('button');
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Engraving' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(
      await page.evaluate(() =>
        document.activeElement?.closest('.product-card')?.textContent?.includes('Personalised Engraved Mug'),
      ),
    ).toBe(true);
    await see(pill()).toBeHidden();
    expect(pageErrors).toEqual([]);
  });

  it('has no axe-core violations on the product list, product detail and cart pages', async () => {
    await open('/shop');
    expect(await axeViolations()).toEqual([]);
    await open('/shop/p/speckled-mug');
    expect(await axeViolations()).toEqual([]);
    await page.getByLabel('Select Color').selectOption('Oatmeal');
    await page.locator('form.purchase button[type=submit]').click();
    await see(pill()).toBeVisible();
    await open('/cart');
    await page.locator('.cart-line').first().waitFor();
    expect(await axeViolations()).toEqual([]);
    for (const path of ['/', '/contact', '/blog', '/nowhere']) {
      await open(path);
      expect({ path, violations: await axeViolations() }).toEqual({ path, violations: [] });
    }
    expect(pageErrors).toEqual([]);
  });
});

/** A tiny visibility assertion helper with polling, like Playwright's expect(locator), on vitest's expect. */
function see(locator: ReturnType<Page['locator']>) {
  return {
    toBeVisible: () => locator.waitFor({ state: 'visible', timeout: 5000 }),
    toBeHidden: () => locator.waitFor({ state: 'hidden', timeout: 5000 }),
  };
}
