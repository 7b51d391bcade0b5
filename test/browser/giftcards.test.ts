/**
 * Gift cards in a real browser, on SQLite and PostgreSQL: the demo's gift card without a denomination (the §5 alert),
 * with one → /checkout/giftcard → paid with the test card → the recipient's e-mail, read from a real SMTP server, has
 * the code → that code pays part of a cart's order at /checkout, the test card the rest. axe-core on each form.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { smtpTransport } from '../../src/platform/mail/transport';
import { describeEachEngine } from '../support/engines';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const APPROVED_CARD = '4242 4242 4242 4242';
const CODE = /[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/;

let browser: Browser;
let smtp: TestSmtpServer;

beforeAll(async () => {
  browser = await launchChromium();
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
});

describeEachEngine(
  (engine) => engine,
  (engine) => {
    let shop: RunningServer;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 100_000 });
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
    });
    afterAll(async () => {
      await context?.close();
      await shop?.close();
    });

    const open = async (path: string) => {
      await page.goto(shop.url + path, { waitUntil: 'load' });
      await page.waitForFunction(() => document.readyState === 'complete');
    };

    it('after a refused Buy gift card, each message goes as its field is fixed, and the summary with the last one', async () => {
      await open('/checkout/giftcard?websiteId=demo&giftCardProductId=gift-card&sku=GC-50');
      await Promise.all([
        page.waitForURL(/\/checkout\/giftcard\?/),
        page.getByRole('button', { name: 'Buy gift card' }).click(),
      ]);
      await page.waitForFunction(() => document.readyState === 'complete');
      const summary = page.getByRole('alert');
      await summary.waitFor();
      expect(await summary.textContent()).toContain('Recipient’s name: ');
      expect(await summary.textContent()).toContain('Card number: ');
      const name = page.getByLabel('Recipient’s name');
      expect(await name.getAttribute('aria-invalid')).toBe('true');

      await name.fill('Grace Hopper');
      await page.waitForFunction(
        () => !document.querySelector('[role=alert]')?.textContent?.includes('Recipient’s name: '),
      );
      expect(await name.getAttribute('aria-invalid')).toBeNull();
      expect(await page.locator('#giftcard-recipientName-error').count()).toBe(0);
      // A wrong e-mail keeps its message until it is right.
      const recipientEmail = page.getByLabel('Recipient’s email');
      await recipientEmail.fill('grace@');
      expect(await summary.textContent()).toContain('Recipient’s email: ');
      await recipientEmail.fill('grace@example.com');
      await page.getByLabel('Your email').fill('ada@example.com');
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await page.getByLabel('CVC').fill('123');
      await summary.waitFor({ state: 'detached' });
      expect(await page.locator('[aria-invalid=true]').count()).toBe(0);
      expect(pageErrors).toEqual([]);
    });

    it('buys a gift card, and its e-mailed code pays part of an order at checkout', async () => {
      // No denomination: the §5 alert with the gift card's title.
      await open('/shop/p/gift-card');
      const button = page.locator('form.purchase button[type=submit]');
      await button.click();
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      expect(await dialog.locator('h2').textContent()).toBe('Unable to purchase Gift Card');
      expect(await dialog.textContent()).toContain('Select a denomination for the Gift Card');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // A denomination: on to the gift-card checkout, the amount chosen.
      await page.getByLabel('Select Amount').selectOption('$50');
      await Promise.all([page.waitForURL(/\/checkout\/giftcard\?/), button.click()]);
      const url = new URL(page.url());
      expect(url.searchParams.get('websiteId')).toBe('demo');
      expect(url.searchParams.get('giftCardProductId')).toBe('gift-card');
      expect(url.searchParams.get('sku')).toBe('GC-50');
      await page.waitForFunction(() => document.readyState === 'complete');
      expect(await page.getByLabel('$50.00').isChecked()).toBe(true);
      expect(await axeViolationsOf(page)).toEqual([]);

      // A mistake first: the form again, with the message by its field.
      await page.getByLabel('Recipient’s name').fill('Grace Hopper');
      await page.getByLabel('Recipient’s email').fill('grace@example');
      await page.getByLabel('Message').fill('Happy birthday, Grace!');
      await page.getByLabel('Your email').fill('ada@example.com');
      await page.getByLabel('Card number').fill(APPROVED_CARD);
      await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await page.getByLabel('CVC').fill('123');
      await page.getByRole('button', { name: 'Buy gift card' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.locator('#giftcard-recipientEmail-error').textContent()).toContain('Email is not valid.');
      expect(await axeViolationsOf(page)).toEqual([]);

      await page.getByLabel('Recipient’s email').fill(`grace-${engine}@example.com`);
      await page.getByLabel('Card number').fill(APPROVED_CARD);
      await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await page.getByLabel('CVC').fill('123');
      await Promise.all([
        page.waitForURL(/\/checkout\/order\//),
        page.getByRole('button', { name: 'Buy gift card' }).click(),
      ]);
      expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
      expect(await page.textContent('main')).toContain('$50.00');
      // For whom, and when its e-mail goes: today's goes at once.
      const giftSection = page.getByRole('region', { name: 'Gift card' });
      expect(await giftSection.textContent()).toContain('For: Grace Hopper');
      expect(await giftSection.textContent()).toContain(`It is on its way to grace-${engine}@example.com.`);
      expect(await giftSection.locator('blockquote').textContent()).toBe('Happy birthday, Grace!');
      expect(await axeViolationsOf(page)).toEqual([]);

      // The recipient's e-mail, through a real SMTP server.
      const drained = await drainOutbox(shop.db!, smtpTransport(smtp.url, 'Shop <shop@example.com>'));
      expect(drained.failed).toBe(0);
      const mail = smtp.received.find((m) => m.envelopeTo.includes(`grace-${engine}@example.com`));
      expect(mail, 'the recipient got an e-mail').toBeDefined();
      expect(mail!.text).toContain('Happy birthday, Grace!');
      const code = CODE.exec(mail!.text)![0];

      // The code pays $50 of a $68 order of two bowls (+ shipping and tax); the test card pays the rest.
      // As a page's script adds: with the visitor's crumb (cookie and header).
      const added = await context.request.post(shop.url + ENTRIES_API, {
        headers: await crumbHeader(context, shop.url),
        data: { itemId: 'stoneware-bowl', sku: 'BOWL-L-CHK', quantity: 2, additionalFields: '' },
      });
      expect(added.status(), await added.text()).toBe(200);
      await open('/checkout');
      await page.getByLabel('Gift card (optional)').fill(code.toLowerCase());
      await page.locator('.checkout-gift-cards').getByRole('button', { name: 'Apply gift card' }).click();
      await page.locator('.checkout-gift-cards__card').waitFor();
      expect(await page.locator('.checkout-gift-cards__card').textContent()).toContain(`•••• ${code.slice(-4)}`);
      expect(await page.getByLabel('Gift card (optional)').inputValue()).toBe('');
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
      await page.getByLabel('City').fill('New York');
      await page.getByLabel('Country').selectOption('US');
      await page.getByLabel('State').selectOption('NY');
      await page.getByLabel('ZIP Code').fill('10001');
      await page.getByLabel('Card number').fill(APPROVED_CARD);
      await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await page.getByLabel('CVC').fill('123');
      // The quote after the address: the card pays $50, the rest is left to pay.
      await page.waitForFunction(() => document.querySelector('[data-total="tax"]')?.textContent !== '$0.00');
      const total = await page.locator('[data-total="total"]').textContent();
      const due = await page.locator('[data-total="due"]').textContent();
      const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);
      expect(cents(total) - cents(due)).toBe(5000);
      expect(await axeViolationsOf(page)).toEqual([]);
      await Promise.all([
        page.waitForURL(/\/checkout\/order\//),
        page.getByRole('button', { name: 'Place order' }).click(),
      ]);

      const orderId = new URL(page.url()).pathname.split('/').pop()!;
      const payment = await shop
        .db!.selectFrom('payments')
        .select(['amount', 'status'])
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      expect(Number(payment.amount)).toBe(cents(due));
      const card = await shop
        .db!.selectFrom('gift_cards')
        .select(['balance', 'initial_balance'])
        .executeTakeFirstOrThrow();
      expect(Number(card.balance)).toBe(0);
      expect(pageErrors).toEqual([]);
    });
  },
);
