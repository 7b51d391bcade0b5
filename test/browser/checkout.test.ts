/**
 * Checkout in a real browser: the real server (SQLite, the demo site and its checkout settings: Standard $6 free over
 * $75, Express $15, New York sales tax 8.875 %, coupon WELCOME10, the test card provider), Debian's Chromium driven by
 * playwright-core, the built bundle (npm test runs `vite build` first). Journeys: cart → Check out → the form → totals
 * that follow the shipping option, the address and the coupon → Place order → the order-confirmed page, with the cart
 * gone; a declined card and a dropped connection (the same idempotency key again); a line sold out meanwhile; the
 * minimum subtotal; express checkout without a cart; the whole purchase with JavaScript off; axe-core on each page.
 */
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const ORDERS_API = '/api/commerce/checkout/orders';
const APPROVED_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';
const OUT_OF_STOCK = 'Sorry, we do not have enough of that item available.';

const BANK_DETAILS = 'Pay by bank transfer to IBAN GB33 BUKB 2020 1555 5555 55, quoting your order number.';

let shop: RunningServer;
/** The demo with a $50 minimum subtotal. */
let bigOrdersOnly: RunningServer;
/** The demo paid by bank transfer (the manual provider). */
let bankTransferShop: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  await context?.close();
  pageErrors.length = 0;
  await newContext();
});

/** A fresh context (no cookies, so no cart) and page; `javaScriptEnabled: false` for the no-script journey. */
async function newContext(options: { javaScriptEnabled?: boolean } = {}) {
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  // A step that cannot happen fails in seconds, naming the step, rather than at the test's time limit.
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) pageErrors.push(m.text());
  });
}

const open = async (path: string, server = shop) => {
  const response = await page.goto(server.url + path, { waitUntil: 'load' });
  await page.waitForFunction(() => document.readyState === 'complete');
  return response;
};

/** Puts lines in this context's cart through the cart API (the context's cookies receive the cart). */
async function seedCart(lines: { itemId: string; sku: string; quantity?: number }[], server = shop) {
  for (const line of lines) {
    const added = await context.request.post(server.url + ENTRIES_API, {
      headers: await crumbHeader(context, server.url),
      data: { itemId: line.itemId, sku: line.sku, quantity: line.quantity ?? 1, additionalFields: '' },
    });
    expect(added.status(), await added.text()).toBe(200);
  }
}

/** The checkout form, filled for New York (sales tax) with the given card. */
async function fillCheckout(card: string, options: { email?: string } = {}) {
  await page.getByLabel('Email').fill(options.email ?? 'ada@example.com');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
  await page.getByLabel('City').fill('New York');
  await page.getByLabel('Country').selectOption('US');
  await page.getByLabel('State').selectOption('NY');
  await page.getByLabel('ZIP Code').fill('10001');
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

/** The details step's fields (no card), for New York (sales tax). */
async function fillDetails(options: { email?: string } = {}) {
  await page.getByLabel('Email').fill(options.email ?? 'ada@example.com');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
  await page.getByLabel('City').fill('New York');
  await page.getByLabel('Country').selectOption('US');
  await page.getByLabel('State').selectOption('NY');
  await page.getByLabel('ZIP Code').fill('10001');
}

async function fillCard(card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

/** The answer to the next form post to /checkout. */
const checkoutPost = () =>
  page.waitForResponse((r) => r.url().endsWith('/checkout') && r.request().method() === 'POST');

/** Without JavaScript: from the details to the payment step (the card's fields appear). */
async function continueToPayment() {
  const [answer] = await Promise.all([
    checkoutPost(),
    page.getByRole('button', { name: 'Continue to payment' }).click(),
  ]);
  expect(answer.status()).toBe(200);
  await page.waitForLoadState('load');
  await page.getByLabel('Card number').waitFor();
}

const total = (name: string) => page.locator(`.checkout [data-total="${name}"]`);
/** Waits until a totals row shows `text` (the island updates it from the quote call). */
const totalBecomes = (name: string, text: string) =>
  page.waitForFunction(
    ([n, t]) => document.querySelector(`.checkout [data-total="${n}"]`)?.textContent === t,
    [name, text] as const,
    {
      timeout: 5000,
    },
  );
const placeOrderButton = () => page.getByRole('button', { name: /Place order|Placing order…/ });
/** The island has hydrated once the no-script 'Update totals' button is gone. */
const hydrated = () =>
  page.getByRole('button', { name: 'Update totals' }).waitFor({ state: 'detached', timeout: 5000 });

const axeViolations = (on: Page = page): Promise<string[]> => axeViolationsOf(on);

/**
 * axe-core cannot run in a context with JavaScript off: the page as it is (a form post's answer, which cannot be
 * fetched again) is checked in a context with JavaScript on but the site's scripts blocked, styles loaded.
 */
async function axeViolationsWithoutScripts(): Promise<string[]> {
  const html = (await page.content()).replace('<head>', `<head><base href="${shop.url}/">`);
  const checker = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const other = await checker.newPage();
    await other.route('**/client/assets/*.js', (route) => route.abort());
    await other.setContent(html, { waitUntil: 'load' });
    return await axeViolations(other);
  } finally {
    await checker.close();
  }
}

describeEachEngine(
  (engine) => `checkout in Chromium (${engine})`,
  (engine) => {
    beforeAll(async () => {
      // The real server on a fresh database of this engine with the demo site (and one with a $50 minimum subtotal).
      [shop, bigOrdersOnly, bankTransferShop] = await Promise.all([
        startServer({ engine, cartRateLimitPerMinute: 100_000 }),
        startServer({
          engine,
          cartRateLimitPerMinute: 100_000,
          editSite: (site) => void (site.website.store.minimumSubtotal = 5000),
        }),
        startServer({
          engine,
          cartRateLimitPerMinute: 100_000,
          editSite: (site) => {
            const checkout = site.website.store.checkout as Record<string, unknown>;
            checkout.payments = { provider: 'manual', manualInstructions: BANK_DETAILS };
          },
        }),
      ]);
    });
    afterAll(async () => {
      await shop?.close();
      await bigOrdersOnly?.close();
      await bankTransferShop?.close();
    });

    it('cart → Check out → totals follow the address, shipping option and coupon → Place order → the order page; the cart is gone', async () => {
      await open('/shop/p/speckled-mug');
      await page.getByLabel('Select Color').selectOption('Oatmeal');
      await page.locator('form.purchase button[type=submit]').click();
      await page.locator('a.cart-pill').waitFor({ state: 'visible' });

      await open('/cart');
      await page.locator('.cart-line').first().waitFor();
      expect(await axeViolations()).toEqual([]);
      await page.getByRole('link', { name: 'Check out' }).click();
      await page.waitForURL(/\/checkout$/);
      await hydrated();
      expect(await page.locator('h1').textContent()).toBe('Checkout');
      expect(await page.locator('.summary-line').count()).toBe(1);
      expect(await page.locator('.summary-line').textContent()).toContain('Speckled Stoneware Mug');
      expect(await page.locator('.summary-line').textContent()).toContain('Color: Oatmeal');
      expect(await page.locator('.checkout-notice').first().textContent()).toMatch(/test store/i);
      expect(await total('subtotal').textContent()).toBe('$28.00');
      expect(await total('shipping').textContent()).toBe('$6.00');
      expect(await total('total').textContent()).toBe('$34.00');
      for (const [label, autocomplete] of [
        ['Email', 'email'],
        ['First name', 'given-name'],
        ['Last name', 'family-name'],
        ['City', 'address-level2'],
        ['Country', 'country'],
        ['State', 'address-level1'],
        ['ZIP Code', 'postal-code'],
        ['Card number', 'cc-number'],
        ['Expiry (MM / YY)', 'cc-exp'],
        ['CVC', 'cc-csc'],
      ] as const) {
        expect({ label, autocomplete: await page.getByLabel(label).getAttribute('autocomplete') }).toEqual({
          label,
          autocomplete,
        });
      }
      expect(await axeViolations()).toEqual([]);

      // The country's own labels and regions (the core's address dictionary).
      await page.getByLabel('Country').selectOption('CA');
      await page.getByLabel('Province/Territory').waitFor();
      expect(await page.getByLabel('Postal Code').count()).toBe(1);
      expect(await page.getByLabel('Province/Territory').locator('option', { hasText: 'Ontario' }).count()).toBe(1);
      await page.getByLabel('Country').selectOption('GB');
      await page.getByLabel('Postcode').waitFor();

      const orderCalls: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith(ORDERS_API)) orderCalls.push(r.postData() ?? '');
      });
      await fillCheckout(APPROVED_CARD);
      // New York: sales tax on the goods ($28 × 8.875 %), shipping untaxed.
      await page.waitForFunction(
        () => document.querySelector('.summary-totals')?.textContent?.includes('Sales tax'),
        null,
        { timeout: 5000 },
      );
      await totalBecomes('tax', '$2.49');
      await totalBecomes('total', '$36.49');

      await page.getByRole('radio', { name: /Express/ }).check();
      await totalBecomes('shipping', '$15.00');
      await totalBecomes('total', '$45.49');

      await page.getByLabel('Coupon code').fill('WELCOME10');
      await page.getByRole('button', { name: 'Apply coupon' }).click();
      await totalBecomes('discount', '−$2.80');
      expect(await page.locator('.summary-totals').textContent()).toContain('Discount (WELCOME10)');
      await totalBecomes('tax', '$2.24');
      await totalBecomes('total', '$42.44');

      // A double click places one order.
      await placeOrderButton().dblclick();
      await page.waitForURL(/\/checkout\/order\/[A-Za-z0-9_-]+$/, { timeout: 10_000 });
      expect(orderCalls).toHaveLength(1);

      expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
      // Page type 202, order confirmed (§2).
      expect(await page.locator('body').getAttribute('data-page-type')).toBe('202');
      expect(await page.locator('.order-confirmed__number').textContent()).toMatch(/^Order number \d+$/);
      const confirmed = await page.locator('.order-confirmed').textContent();
      expect(confirmed).toContain('ada@example.com');
      expect(confirmed).toContain('Speckled Stoneware Mug');
      expect(confirmed).toContain('Express (1–2 business days)');
      expect(await page.locator('.order-confirmed address').innerText()).toBe(
        ['Ada Lovelace', '1 Main Street', 'New York, NY 10001', 'United States'].join('\n'),
      );
      expect(await page.locator('[data-total="discount"]').textContent()).toBe('−$2.80');
      expect(await page.locator('[data-total="total"]').textContent()).toBe('$42.44');
      // The §7 purchase event, from the stored order, in cents ÷ 100: the same total.
      const event = JSON.parse(
        (await page.locator('.order-confirmed').getAttribute('data-purchase-event')) ?? '{}',
      ) as { value?: number; items?: unknown[] };
      expect(event.value).toBe(42.44);
      expect(event.items).toHaveLength(1);
      expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
      const headers = (await context.request.get(page.url())).headers();
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['cache-control']).toBe('private, no-store');
      expect(await axeViolations()).toEqual([]);

      // The cart is bought: no pill, and the next add starts a new cart.
      await open('/shop/p/coffee-scoop');
      await page.waitForLoadState('networkidle');
      expect(await page.locator('a.cart-pill').isHidden()).toBe(true);
      await page.locator('form.purchase button[type=submit]').click();
      await page.locator('a.cart-pill').waitFor({ state: 'visible' });
      expect(await page.locator('a.cart-pill .cart-pill__count').textContent()).toBe('1 item');
      expect(pageErrors).toEqual([]);
    });

    it('an invalid coupon and an invalid address: each message next to its field, what was typed kept, no order', async () => {
      await seedCart([{ itemId: 'espresso-cups', sku: 'ESP-PAIR' }]);
      await open('/checkout');
      await hydrated();
      await fillCheckout(APPROVED_CARD);
      const coupon = page.getByLabel('Coupon code');
      await coupon.fill('NOPE');
      await page.getByRole('button', { name: 'Apply coupon' }).click();
      const messageOf = async (field: Locator) => {
        await page.waitForFunction((el) => el?.getAttribute('aria-invalid') === 'true', await field.elementHandle());
        return page.locator(`#${(await field.getAttribute('aria-describedby'))?.split(' ')[0]}`).textContent();
      };
      expect(await messageOf(coupon)).toBe('That coupon code is not valid.');
      await coupon.fill('');
      const zip = page.getByLabel('ZIP Code');
      await zip.fill('1234');
      const ordersBefore = (await shop.db!.selectFrom('orders').select('id').execute()).length;
      await placeOrderButton().click();
      expect(await messageOf(zip)).toBe('ZIP Codes need to be 5 digits.');
      expect(await zip.inputValue()).toBe('1234');
      expect(await page.getByLabel('City').inputValue()).toBe('New York');
      expect(await shop.db!.selectFrom('orders').select('id').execute()).toHaveLength(ordersBefore);
      expect(await axeViolations()).toEqual([]);
    });

    it('a declined card: the message next to the card field, the summary focused, everything typed kept; a new try pays', async () => {
      await seedCart([{ itemId: 'espresso-cups', sku: 'ESP-PAIR' }]);
      await open('/checkout');
      await hydrated();
      // The core's e-mail rule as the shopper moves on, and the message gone as soon as the address is right.
      const email = page.getByLabel('Email');
      await email.fill('grace@');
      await email.press('Tab');
      await page.locator('#checkout-email-error').waitFor();
      expect(await page.locator('#checkout-email-error').textContent()).toBe(
        'Email is not valid. Email addresses should follow the format email@example.com.',
      );
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      await email.fill('grace@example.com');
      await page.locator('#checkout-email-error').waitFor({ state: 'detached' });
      await fillCheckout(DECLINED_CARD, { email: 'grace@example.com' });
      await placeOrderButton().click();

      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
      const card = page.getByLabel('Card number');
      expect(await card.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await card.getAttribute('aria-describedby')) ?? '';
      const message = (await page.locator(`#${describedBy}`).textContent()) ?? '';
      expect(message).toMatch(/declined/i);
      expect(await alert.textContent()).toContain(message);
      expect(await page.getByLabel('Email').inputValue()).toBe('grace@example.com');
      expect(await page.getByLabel('City').inputValue()).toBe('New York');
      expect(await page.getByLabel('State').inputValue()).toBe('NY');
      expect(await card.inputValue()).toBe(DECLINED_CARD);
      expect(await placeOrderButton().textContent()).toBe('Place order');
      expect(await axeViolations()).toEqual([]);

      await card.fill(APPROVED_CARD);
      await placeOrderButton().click();
      await page.waitForURL(/\/checkout\/order\//, { timeout: 10_000 });
      expect(await page.locator('.order-confirmed').textContent()).toContain('grace@example.com');
      expect(pageErrors).toEqual([]);
    });

    it('after a Place order with missing fields, each message goes as its field is fixed, the summary follows, and Apply (or Enter in the coupon field) checks the code only', async () => {
      await seedCart([{ itemId: 'espresso-cups', sku: 'ESP-PAIR' }]);
      await open('/checkout');
      await hydrated();
      const posted: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith(ORDERS_API)) posted.push(r.url());
      });
      await placeOrderButton().click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Please check the details marked below.');
      expect(await alert.textContent()).toContain('Email: ');
      expect(await alert.textContent()).toContain('CVC: ');

      // The details fixed: their messages go, the summary lists what is left (the card).
      await fillDetails();
      await page.waitForFunction(() => !document.querySelector('[role=alert]')?.textContent?.includes('Email: '));
      expect(await alert.textContent()).toContain('Card number: ');
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBeNull();

      // The card typed: nothing is left, so the summary goes.
      await fillCard(APPROVED_CARD);
      await alert.waitFor({ state: 'detached' });

      // A coupon applied with Enter: the code is checked, nothing else; no field is marked and no order is sent.
      await page.getByLabel('Coupon code').fill('WELCOME10');
      await page.getByLabel('Coupon code').press('Enter');
      await page.locator('.checkout [data-total="discount"]').waitFor();
      // And with its button, after the discount row came.
      await page.getByRole('button', { name: 'Apply coupon' }).click();
      await page.locator('.checkout [data-total="discount"]').waitFor();
      expect(await page.locator('[aria-invalid=true]').count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.getByLabel('Card number').inputValue()).toBe(APPROVED_CARD);
      expect(posted).toEqual([]);
      expect(pageErrors).toEqual([]);
    });

    it('Placing order… while it runs, a dropped connection says so, and the retry sends the same idempotency key', async () => {
      await seedCart([{ itemId: 'linen-tea-towel', sku: 'TOWEL-NAT' }]);
      await open('/checkout');
      await hydrated();
      await fillCheckout(APPROVED_CARD);
      const keys: string[] = [];
      let drop = true;
      await page.route(`**${ORDERS_API}`, async (route) => {
        keys.push((JSON.parse(route.request().postData() ?? '{}') as { idempotencyKey: string }).idempotencyKey);
        // Held back a moment, so that the button's busy state can be seen.
        await new Promise((resolve) => setTimeout(resolve, 400));
        if (drop) await route.abort('internetdisconnected');
        else await route.continue();
      });
      await placeOrderButton().click();
      await page.waitForFunction(() => document.querySelector('.checkout-place')?.textContent === 'Placing order…');
      expect(await placeOrderButton().isDisabled()).toBe(true);
      await page.getByRole('alert').filter({ hasText: 'Please check your internet connection.' }).waitFor();
      expect(await placeOrderButton().textContent()).toBe('Place order');
      expect(await placeOrderButton().isEnabled()).toBe(true);

      drop = false;
      await placeOrderButton().click();
      await page.waitForURL(/\/checkout\/order\//, { timeout: 10_000 });
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    });

    it('marks a line that sold out meanwhile with the §5 text', async () => {
      await seedCart([{ itemId: 'dinner-plate', sku: 'PLATE-OAT', quantity: 2 }]);
      await open('/checkout');
      await hydrated();
      await fillCheckout(APPROVED_CARD);

      // Another shopper buys both plates first.
      const other = await browser.newContext();
      const crumb = await crumbHeader(other, shop.url);
      const added = await other.request.post(shop.url + ENTRIES_API, {
        headers: crumb,
        data: { itemId: 'dinner-plate', sku: 'PLATE-OAT', quantity: 2, additionalFields: '' },
      });
      expect(added.status()).toBe(200);
      const bought = await other.request.post(shop.url + ORDERS_API, {
        headers: crumb,
        data: {
          idempotencyKey: 'other-shopper-buys-the-plates',
          email: 'other@example.com',
          shippingAddress: {
            firstName: 'O',
            lastName: 'S',
            address1: '2 Side St',
            city: 'Boston',
            country: 'US',
            region: 'MA',
            postalCode: '02108',
          },
          shippingOptionId: 'standard',
          payment: { cardNumber: APPROVED_CARD, cardExpiry: '12 / 34', cardCvc: '123' },
        },
      });
      expect(bought.status(), await bought.text()).toBe(201);
      await other.close();

      await placeOrderButton().click();
      const line = page.locator('.summary-line', { hasText: 'Dinner Plate' });
      await line.locator('.field__error').waitFor();
      expect(await line.locator('.field__error').textContent()).toBe(OUT_OF_STOCK);
      expect(await page.getByRole('alert').textContent()).toContain(OUT_OF_STOCK);
      expect(page.url()).toMatch(/\/checkout$/);
    });

    it('below the minimum subtotal: the cart page and the checkout say the §8 text and cannot go on', async () => {
      await seedCart([{ itemId: 'speckled-mug', sku: 'MUG-OAT' }], bigOrdersOnly);
      const text = 'To check out, your order subtotal must be $50.00 or more.';
      await open('/cart', bigOrdersOnly);
      await page.locator('.cart-line').first().waitFor();
      const button = page.getByRole('button', { name: 'Check out' });
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      expect(await page.getByRole('link', { name: 'Check out' }).count()).toBe(0);
      expect(await page.getByText(text).count()).toBe(1);
      expect(await axeViolations()).toEqual([]);

      await open('/checkout', bigOrdersOnly);
      await hydrated();
      expect(await page.getByText(text).count()).toBe(1);
      expect(await placeOrderButton().isDisabled()).toBe(true);
      expect(await axeViolations()).toEqual([]);
    });

    it('a manual payment: the store’s instructions on the checkout and on the order page, no card fields', async () => {
      await seedCart([{ itemId: 'coffee-scoop', sku: 'SCOOP' }], bankTransferShop);
      await open('/checkout', bankTransferShop);
      await hydrated();
      expect(await page.locator('.checkout-notice').textContent()).toBe(BANK_DETAILS);
      expect(await page.getByLabel('Card number').count()).toBe(0);
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
      await page.getByLabel('City').fill('Buffalo');
      await page.getByLabel('State').selectOption('NY');
      await page.getByLabel('ZIP Code').fill('14201');
      await placeOrderButton().click();
      await page.waitForURL(/\/checkout\/order\//);
      const howToPay = page.getByRole('region', { name: 'How to pay' });
      expect(await howToPay.textContent()).toContain(BANK_DETAILS);
      expect(await axeViolations()).toEqual([]);
      expect(pageErrors).toEqual([]);
    });

    it('goto-checkout without a cart cookie: the Unable to Purchase Item alert; with a cart: on to /checkout', async () => {
      const response = await open('/commerce/goto-checkout');
      expect(response?.status()).toBe(400);
      const alert = page.getByRole('alert');
      expect(await alert.locator('h1').textContent()).toBe('Unable to Purchase Item');
      expect(await alert.textContent()).toContain(
        'Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.',
      );
      expect(await alert.getByRole('link').getAttribute('href')).toBe('/shop');
      expect(await axeViolations()).toEqual([]);

      await seedCart([{ itemId: 'coffee-scoop', sku: 'SCOOP' }]);
      await open('/commerce/goto-checkout');
      expect(new URL(page.url()).pathname).toBe('/checkout');
      expect(await page.locator('.summary-line').textContent()).toContain('Coffee Scoop');
    });

    it('express checkout: Buy Now on a product page adds it and goes straight to the checkout; cookies off shows the alert', async () => {
      await open('/shop/p/speckled-mug');
      await page.getByLabel('Select Color').selectOption('Slate');
      await page.getByRole('button', { name: 'Buy Now' }).click();
      await page.waitForURL(/\/checkout$/);
      expect(await page.locator('.summary-line').textContent()).toContain('Speckled');
      expect(pageErrors).toEqual([]);

      // Options first, as for every add (§5): the alert is titled for the purchase.
      await open('/shop/p/speckled-mug');
      await page.getByRole('button', { name: 'Buy Now' }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Unable to Purchase Item');
      expect(await dialog.textContent()).toContain('Please select the Color option.');

      // A browser that keeps no cookies cannot reach the checkout (§5 check 5).
      await page.keyboard.press('Escape');
      await page.evaluate(() => Object.defineProperty(navigator, 'cookieEnabled', { get: () => false }));
      await page.getByLabel('Select Color').selectOption('Slate');
      await page.getByRole('button', { name: 'Buy Now' }).click();
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(
        'Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.',
      );
    });

    it('shows the empty-cart text on /checkout without a cart', async () => {
      await open('/checkout');
      expect(await page.getByText('You have nothing in your shopping cart.').count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Continue shopping' }).getAttribute('href')).toBe('/shop');
    });

    it('without JavaScript: cart → Check out → the details (Continue to payment) → the payment step with the taxed total → a refused card → Place order → the order page', async () => {
      await newContext({ javaScriptEnabled: false });
      await seedCart([{ itemId: 'ethiopia-yirgacheffe', sku: 'ETH-250' }]);
      await open('/cart');
      await page.getByRole('link', { name: 'Check out' }).click();
      await page.waitForURL(/\/checkout$/);
      // The details first: no card is asked for before the total is known.
      expect(await page.getByRole('button', { name: 'Update totals' }).count()).toBe(1);
      expect(await page.getByLabel('Card number').count()).toBe(0);
      expect(await placeOrderButton().count()).toBe(0);
      expect(await axeViolationsWithoutScripts()).toEqual([]);

      // Nothing given: each message by its field, still the details.
      const [incomplete] = await Promise.all([
        checkoutPost(),
        page.getByRole('button', { name: 'Continue to payment' }).click(),
      ]);
      expect(incomplete.status()).toBe(400);
      await page.waitForLoadState('load');
      expect(await page.getByRole('alert').textContent()).toContain('Please check the details marked below.');
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Card number').count()).toBe(0);

      await fillDetails({ email: 'linus@example.com' });
      await page.getByRole('radio', { name: /Express/ }).check();
      await continueToPayment();
      // The payment step: the totals for the address, shipping and tax included, and what was given.
      expect(await total('shipping').textContent()).toBe('$15.00');
      expect(await total('tax').textContent()).toBe('$1.33');
      expect(await total('total').textContent()).toBe('$31.33');
      expect(await page.locator('.checkout-review').textContent()).toContain('linus@example.com');
      expect(await page.locator('.checkout-review').textContent()).toContain('1 Main Street');
      expect(await page.locator('.checkout-review').textContent()).toContain('Express');
      expect(await page.getByLabel('Email').count()).toBe(0);
      expect(await axeViolationsWithoutScripts()).toEqual([]);

      await fillCard(DECLINED_CARD);
      const [refused] = await Promise.all([checkoutPost(), placeOrderButton().click()]);
      expect(refused.status()).toBe(402);
      await page.waitForLoadState('load');
      expect(await page.title()).toMatch(/^Error: Checkout/);
      const alert = page.getByRole('alert');
      expect(await alert.textContent()).toMatch(/declined/i);
      const card = page.getByLabel('Card number');
      expect(await card.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${await card.getAttribute('aria-describedby')}`).textContent()).toMatch(/declined/i);
      // Card data is never written back into a page; the details stay given.
      expect(await card.inputValue()).toBe('');
      expect(await page.locator('.checkout-review').textContent()).toContain('New York');
      expect(await total('total').textContent()).toBe('$31.33');
      expect(await axeViolationsWithoutScripts()).toEqual([]);

      // 'Change' goes back to the details with what was given.
      await Promise.all([checkoutPost(), page.getByRole('button', { name: 'Change' }).click()]);
      await page.waitForLoadState('load');
      expect(await page.getByLabel('City').inputValue()).toBe('New York');
      expect(await page.getByLabel('State').inputValue()).toBe('NY');
      expect(await page.getByRole('radio', { name: /Express/ }).isChecked()).toBe(true);
      await continueToPayment();

      await fillCard(APPROVED_CARD);
      await placeOrderButton().click();
      await page.waitForURL(/\/checkout\/order\//);
      expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
      expect(await page.locator('.order-confirmed').textContent()).toContain('Ethiopia');
      expect(await page.locator('[data-total="total"]').textContent()).toBe('$31.33');
      const cookies = await context.cookies();
      expect(cookies.filter((c) => c.name === 'CART' || c.name === 'hasCart')).toEqual([]);
    });

    it('without JavaScript, a taxed address: the total is on the page before the card is asked for, and one Place order pays it (the card typed once)', async () => {
      await newContext({ javaScriptEnabled: false });
      await seedCart([{ itemId: 'ethiopia-yirgacheffe', sku: 'ETH-250', quantity: 3 }]);
      await open('/checkout');
      await fillDetails();
      await continueToPayment();
      const shown = await total('total').textContent();
      expect(await total('tax').textContent()).not.toBe('$0.00');
      const places: number[] = [];
      page.on('response', (r) => {
        if (
          r.url().endsWith('/checkout') &&
          r.request().method() === 'POST' &&
          /intent=place/.test(r.request().postData() ?? '')
        )
          places.push(r.status());
      });
      await fillCard(APPROVED_CARD);
      await placeOrderButton().click();
      await page.waitForURL(/\/checkout\/order\//);
      expect(places).toEqual([303]);
      expect(await page.locator('[data-total="total"]').textContent()).toBe(shown);
    });

    it('without JavaScript: a change between the steps (the cart) is not charged: the new total, then Place order', async () => {
      await newContext({ javaScriptEnabled: false });
      await seedCart([{ itemId: 'ethiopia-yirgacheffe', sku: 'ETH-250' }]);
      await open('/checkout');
      await fillDetails();
      await continueToPayment();
      const before = await total('total').textContent();
      // Another tab adds a line meanwhile.
      await seedCart([{ itemId: 'ethiopia-yirgacheffe', sku: 'ETH-250' }]);
      await fillCard(APPROVED_CARD);
      const [changed] = await Promise.all([checkoutPost(), placeOrderButton().click()]);
      expect(changed.status()).toBe(409);
      await page.waitForLoadState('load');
      const now = await total('total').textContent();
      expect(now).not.toBe(before);
      expect(await page.getByRole('alert').textContent()).toContain(
        `Your total is now ${now} with the details you entered. Please check it and your card details, then press Place order again.`,
      );
      expect(await page.locator('.checkout-review').textContent()).toContain('ada@example.com');

      await fillCard(APPROVED_CARD);
      await placeOrderButton().click();
      await page.waitForURL(/\/checkout\/order\//);
      expect(await page.locator('[data-total="total"]').textContent()).toBe(now);
    });
  },
);
