/**
 * Subscriptions in a real browser, on SQLite and PostgreSQL: the real server with the demo site (its coffee
 * subscription given a stock of 10), Debian's Chromium, the built bundle (`npx vite build` first), a real SMTP server.
 * Journey: the PDP's plan wording → Subscribe → /checkout/subscribe (the wording again) → e-mail, address, test card →
 * the order page with the plan → the e-mail (the plan, a cancel link) → a renewal billed by what
 * `vitrine subscriptions bill --now …` runs takes stock and e-mails → the e-mail's cancel link cancels. The gift
 * option's custom form opens before the checkout, also when it was chosen before the options' code had loaded.
 * axe-core on the PDP and the subscribe page.
 */
import { readFileSync } from 'node:fs';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { billingDateText } from '../../src/core/subscriptionSchedule';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { smtpTransport } from '../../src/platform/mail/transport';
import { paymentProviderFor } from '../../src/modules/payments';
import { billDueSubscriptions } from '../../src/modules/subscriptions/billing';
import { describeEachEngine } from '../support/engines';
import { TEST_CARD } from '../support/checkoutSite';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtpServer';
import { axeViolationsOf, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const PDP = '/shop/p/coffee-subscription';
const PLAN = '$13.00 every 2 weeks';
const SKU = 'SUB-250-WB';
const STOCK = 10;
const DAY_MS = 86_400_000;
const CANCEL_LINK = /Cancel your subscription: (http:\/\/127\.0\.0\.1:\d+\/subscriptions\/cancel\/[A-Za-z0-9_-]{22})$/m;

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
  (engine) => `subscriptions in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    let context: BrowserContext;
    /** For axe-core only: it is injected as an inline script, which the pages' Content-Security-Policy refuses. */
    let axeContext: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      shop = await startServer({
        engine,
        cartRateLimitPerMinute: 100_000,
        editSite: (site) => {
          // The demo's subscription has unlimited stock; counted stock shows what each period takes.
          const products = (site as unknown as { products: { id: string; variants: { stock: unknown }[] }[] }).products;
          for (const variant of products.find((p) => p.id === 'coffee-subscription')!.variants)
            variant.stock = { qtyInStock: STOCK };
        },
      });
      // The journey runs under the pages' real Content-Security-Policy: a violation is a console error here.
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(10_000);
      axeContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') pageErrors.push(m.text());
      });
    });
    afterAll(async () => {
      await context?.close();
      await axeContext?.close();
      await shop?.close();
    });

    const open = async (url: string, on: Page = page) => {
      await on.goto(url.startsWith('http') ? url : shop.url + url, { waitUntil: 'load' });
      await on.waitForFunction(() => document.readyState === 'complete');
    };
    /** axe-core on the page at `path`, loaded afresh in a second context (the journey's page stays where it is). */
    const axeViolationsAt = async (path: string) => {
      const other = await axeContext.newPage();
      try {
        await open(path, other);
        return await axeViolationsOf(other);
      } finally {
        await other.close();
      }
    };
    const stock = async () =>
      Number(
        (await shop.db!.selectFrom('variants').select('qty_in_stock').where('sku', '=', SKU).executeTakeFirstOrThrow())
          .qty_in_stock,
      );
    const mailsTo = (to: string): ReceivedMail[] => smtp.received.filter((m) => m.envelopeTo.includes(to));
    const drain = async () => {
      const drained = await drainOutbox(shop.db!, smtpTransport(smtp.url, 'Shop <shop@example.com>'));
      expect(drained.failed).toBe(0);
    };
    const chooseVariant = async () => {
      await page.getByLabel('Select Size').selectOption('250 g');
      await page.getByLabel('Select Grind').selectOption('Whole bean');
    };

    it('PDP → Subscribe → /checkout/subscribe → the order page; the e-mail; a billed renewal takes stock; the e-mail’s link cancels', async () => {
      const email = `ada-${engine}@example.com`;
      await open(PDP);
      // The price block in the plan's wording, both options in it, the Subscribe button, no quantity input.
      expect(await page.locator('form.purchase .subscription-price').textContent()).toBe(PLAN);
      const options = page.locator('fieldset.subscription-options');
      expect(await options.locator('legend').textContent()).toBe('Subscription');
      expect((await options.locator('label').allTextContents()).map((t) => t.trim())).toEqual([
        PLAN,
        `${PLAN} (Subscribe as a gift)`,
      ]);
      expect(await page.getByRole('radio', { name: PLAN, exact: true }).isChecked()).toBe(true);
      const button = page.locator('form.purchase button[type=submit]');
      expect(await button.textContent()).toBe('Subscribe');
      expect(await page.locator('form.purchase input[type=number]').count()).toBe(0);
      expect(await axeViolationsAt(PDP)).toEqual([]);

      await chooseVariant();
      await Promise.all([page.waitForURL(/\/checkout\/subscribe\?cartToken=[A-Za-z0-9_-]{22}$/), button.click()]);
      await page.waitForFunction(() => document.readyState === 'complete');
      const subscribePath = new URL(page.url()).pathname + new URL(page.url()).search;
      expect(await page.locator('h1').textContent()).toBe('Subscribe to Coffee Subscription');
      expect(await page.locator('.subscription-plan').textContent()).toBe(`Plan: ${PLAN}`);
      expect(await page.locator('.summary-line').textContent()).toContain('Coffee Subscription');
      // The shopper's own cart is untouched by a subscription.
      expect((await context.cookies(shop.url)).filter((c) => c.name === 'CART' || c.name === 'hasCart')).toEqual([]);
      // The address is the cart's key: kept from other sites (no Referer), and from caches.
      const headers = (await context.request.get(page.url())).headers();
      expect([headers['referrer-policy'], headers['cache-control']]).toEqual(['same-origin', 'private, no-store']);
      expect(await axeViolationsAt(subscribePath)).toEqual([]);

      await page.getByLabel('Email').fill(email);
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
      await page.getByLabel('City').fill('New York');
      await page.getByLabel('Country').selectOption('US');
      await page.getByLabel('State').selectOption('NY');
      await page.getByLabel('ZIP Code').fill('10001');
      // The totals follow the address as on /checkout: the New York tax is on the page before the card is typed.
      await page.waitForFunction(() => document.querySelector('.checkout [data-total="tax"]')?.textContent !== '$0.00');
      const shownTotal = await page.locator('.checkout [data-total="total"]').textContent();
      expect(shownTotal).toBe('$20.15');
      await page.getByLabel('Card number').fill(TEST_CARD.cardNumber);
      await page.getByLabel('Expiry (MM / YY)').fill(TEST_CARD.cardExpiry);
      await page.getByLabel('CVC').fill(TEST_CARD.cardCvc);
      // One press subscribes, for the total the page showed.
      const posts: number[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/checkout/subscribe') && r.request().method() === 'POST') posts.push(r.status());
      });
      await Promise.all([
        page.waitForURL(/\/checkout\/order\/[A-Za-z0-9_-]+$/),
        page.getByRole('button', { name: 'Subscribe', exact: true }).click(),
      ]);
      expect(posts).toEqual([303]);
      expect(await page.locator('[data-total="total"]').textContent()).toBe(shownTotal);

      // The first period: an order, with the plan and the next billing date (two weeks on, in New York).
      const subscription = await shop
        .db!.selectFrom('subscriptions')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(subscription.status).toBe('active');
      const nextBilling = billingDateText(new Date(subscription.next_billing_at!), 'America/New_York');
      expect(new Date(subscription.next_billing_at!).getTime() - Date.now()).toBeGreaterThan(13 * DAY_MS);
      expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
      expect(await page.locator('.order-confirmed__subscription').textContent()).toBe(
        `Subscription: ${PLAN} · Next billing date: ${nextBilling}`,
      );
      expect(await page.locator('.order-confirmed').textContent()).toContain('Coffee Subscription');
      expect(await stock()).toBe(STOCK - 1);

      // The e-mail, through a real SMTP server: the plan and a cancel link.
      await drain();
      const started = mailsTo(email).find((m) =>
        m.headers.get('subject')?.startsWith('Your subscription to Coffee Subscription has started'),
      );
      expect(started, 'the shopper got the subscription e-mail').toBeDefined();
      expect(started!.text).toContain(`Plan: ${PLAN}\n`);
      expect(started!.text).toContain(`Next billing date: ${nextBilling}\n`);
      expect(started!.html).toContain(`Plan: <strong>${PLAN}</strong>`);
      const cancelUrl = CANCEL_LINK.exec(started!.text)?.[1];
      expect(cancelUrl, started!.text).toBeDefined();
      expect(started!.html).toContain(`<a href="${cancelUrl}"`);

      // A renewal, billed as `vitrine subscriptions bill --now <a day after the next billing date>` bills it.
      const now = new Date(new Date(subscription.next_billing_at!).getTime() + DAY_MS);
      const billed = await billDueSubscriptions(shop.db!, {
        now,
        paymentsFor: (site) => paymentProviderFor(site.settings.store.checkout.payments, {}),
      });
      expect({
        paid: billed.paid,
        declined: billed.declined,
        soldOut: billed.soldOut,
        failed: billed.failed,
        errors: billed.errors,
      }).toEqual({
        paid: 1,
        declined: 0,
        soldOut: 0,
        failed: 0,
        errors: [],
      });
      expect(await stock()).toBe(STOCK - 2);
      const renewalOrder = await shop
        .db!.selectFrom('orders')
        .select(['number', 'status'])
        .where('id', '=', billed.orderIds[0]!)
        .executeTakeFirstOrThrow();
      expect(renewalOrder.status).toBe('paid');
      // Run again at the same moment: the period is billed; nothing more is charged or taken.
      const again = await billDueSubscriptions(shop.db!, {
        now,
        paymentsFor: (site) => paymentProviderFor(site.settings.store.checkout.payments, {}),
      });
      expect(again.orderIds).toEqual([]);
      expect(await stock()).toBe(STOCK - 2);
      await drain();
      const renewed = mailsTo(email).filter((m) =>
        m.headers.get('subject')?.startsWith('Your subscription to Coffee Subscription was renewed'),
      );
      expect(renewed).toHaveLength(1);
      expect(renewed[0]!.text).toContain(`Plan: ${PLAN}\n`);
      expect(renewed[0]!.text).toContain(`Order #${renewalOrder.number}: $`);
      expect(renewed[0]!.text).toMatch(CANCEL_LINK);

      // A link that was not sent cancels nothing.
      const forged = cancelUrl!.slice(0, -1) + (cancelUrl!.endsWith('A') ? 'B' : 'A');
      expect((await context.request.get(forged)).status()).toBe(404);

      // The first e-mail's cancel link: a confirm page, then cancelled.
      await open(cancelUrl!);
      expect(await page.locator('h1').textContent()).toBe('Cancel your subscription');
      const confirm = await page.locator('.subscription-cancel').innerText();
      expect(confirm).toContain(`Coffee Subscription: ${PLAN}`);
      expect(confirm).toContain('Status: Active');
      expect(await axeViolationsAt(new URL(cancelUrl!).pathname)).toEqual([]);
      await Promise.all([
        page.waitForURL(cancelUrl!),
        page.getByRole('button', { name: 'Cancel subscription' }).click(),
      ]);
      await page.locator('h1', { hasText: 'Your subscription is cancelled' }).waitFor();
      expect(await page.locator('.subscription-cancel p').first().textContent()).toBe(
        `Coffee Subscription (${PLAN}) will not be charged or sent again.`,
      );
      const after = await shop
        .db!.selectFrom('subscriptions')
        .select(['status', 'next_billing_at'])
        .where('id', '=', subscription.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ status: 'cancelled', next_billing_at: null });
      // A cancelled subscription bills no more, however late.
      const later = await billDueSubscriptions(shop.db!, {
        now: new Date(now.getTime() + 60 * DAY_MS),
        paymentsFor: (site) => paymentProviderFor(site.settings.store.checkout.payments, {}),
      });
      expect(later.orderIds).toEqual([]);
      expect(await stock()).toBe(STOCK - 2);

      // The link again: nothing left to cancel.
      await open(cancelUrl!);
      expect(await page.locator('.subscription-cancel').innerText()).toContain(
        'This subscription has ended: there is nothing to cancel.',
      );
      expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
      expect(pageErrors).toEqual([]);
    });

    it('the gift option opens its form (Gift note) before going to the checkout, its answers on the line', async () => {
      await open(PDP);
      await page.getByRole('radio', { name: `${PLAN} (Subscribe as a gift)` }).check();
      const button = page.locator('form.purchase button[type=submit]');
      expect(await button.textContent()).toBe('Subscribe as a gift');
      await chooseVariant();
      await button.click();
      const dialog = page.getByRole('dialog', { name: 'Gift note' });
      await dialog.waitFor();
      expect(page.url()).toBe(shop.url + PDP);
      // The form's own checks first: the recipient is required.
      await dialog.locator('button[type=submit]').click();
      await dialog.locator('.field__error').first().waitFor();
      expect(await dialog.locator('.field__error').allTextContents()).toEqual(['Required']);
      await dialog.getByLabel('First Name').fill('Grace');
      await dialog.getByLabel('Last Name').fill('Hopper');
      await dialog.getByLabel('Message on the card').fill('Happy brewing!');
      await Promise.all([
        page.waitForURL(/\/checkout\/subscribe\?cartToken=[A-Za-z0-9_-]{22}$/),
        dialog.locator('button[type=submit]').click(),
      ]);
      await page.waitForFunction(() => document.readyState === 'complete');
      // The option's sale price, in the plan's wording; the answers on the summary's line.
      expect(await page.locator('.subscription-plan').textContent()).toBe(`Plan: ${PLAN}`);
      const line = await page.locator('.summary-line').innerText();
      expect(line).toContain('Grace Hopper');
      expect(line).toContain('Happy brewing!');
      const cartToken = new URL(page.url()).searchParams.get('cartToken')!;
      const entry = await shop
        .db!.selectFrom('cart_entries')
        .select(['sku', 'unit_price', 'additional_fields'])
        .where('cart_id', '=', cartToken)
        .executeTakeFirstOrThrow();
      expect({ sku: entry.sku, unitPrice: Number(entry.unit_price) }).toEqual({ sku: SKU, unitPrice: 1300 });
      expect(JSON.parse(entry.additional_fields)).toMatchObject({ message: 'Happy brewing!' });
      const option = await shop
        .db!.selectFrom('subscription_carts')
        .select('subscription_option_id')
        .where('cart_id', '=', cartToken)
        .executeTakeFirstOrThrow();
      expect(option.subscription_option_id).toBe('every-2-weeks-gift');
      expect(pageErrors).toEqual([]);
    });

    it('an option chosen before the options’ code loaded is the one the page goes on with', async () => {
      // The subscription's price and options hydrate when their own chunk has loaded (src/client/islands/deferredParts.tsx):
      // held back here until the shopper has chosen.
      const manifest = JSON.parse(readFileSync('dist/client/.vite/manifest.json', 'utf8')) as Record<
        string,
        { file: string }
      >;
      const chunk = manifest['src/client/islands/SubscriptionPrice.tsx']!.file;
      const early = await context.newPage();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let requested = false;
      await early.route(`**/client/${chunk}`, async (route) => {
        requested = true;
        await released;
        await route.continue();
      });
      try {
        await early.goto(shop.url + PDP, { waitUntil: 'domcontentloaded' });
        // The page's own code has run and asked for the options' chunk: the options are still the server's markup.
        await expect.poll(() => requested).toBe(true);
        await early.getByRole('radio', { name: `${PLAN} (Subscribe as a gift)` }).check();
        const button = early.locator('form.purchase button[type=submit]');
        expect(await button.textContent()).toBe('Subscribe');
        release();
        await early.waitForFunction(
          () => document.querySelector('form.purchase button[type=submit]')?.textContent === 'Subscribe as a gift',
        );
        expect(await early.getByRole('radio', { name: `${PLAN} (Subscribe as a gift)` }).isChecked()).toBe(true);
        expect(await early.locator('form.purchase .subscription-price').textContent()).toBe(PLAN);
      } finally {
        release();
        await early.close();
      }
    });
  },
);
