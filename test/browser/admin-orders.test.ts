/**
 * The owner's orders in Chromium (issue 25), on both engines: a store manager signs in at /account/sign-in, finds the
 * order a shopper has just placed in /admin/orders, fulfils it with a carrier and tracking number (the tracking link
 * shows), refunds one line with restock (the payment becomes 'Partially refunded', the stock goes back up), and finds
 * the shopper among the customers; a viewer sees no fulfil, refund or cancel button and is refused a refund (403);
 * nobody signed in gets the sign-in page and no data. Every admin page has no axe violation and nothing wider than
 * the window at 390 px and 1280 px; one whole fulfil is made with the keyboard alone, focus visible at each step; an
 * order is canceled from its page (reason, the confirm box; Canceled, the stock back); and
 * the same fulfil works with JavaScript off; a note is added with the keyboard (the notice, under Notes, in the
 * timeline). Needs the built bundle (`vite build`).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD } from '../../src/core/crumb';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { addStaff, MANAGER, overflowOf, placeOrder, signedIn, VIEWER } from './adminShop';
import { startServer, type RunningServer } from './server';

const SHOPPER = 'shopper@example.com';

/** The page at `path` that a form came back to with its notice (?done=…). */
const done = (path: string) => (url: URL) => url.pathname === path && url.searchParams.has('done');
const TRACKING = '1Z999AA10123456784';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `the owner's orders in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    /** The shopper's order, placed before the tests: 2 Oatmeal mugs. */
    let number: number;
    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await addStaff(shop);
      number = await placeOrder(browser, shop, SHOPPER, 2);
    });
    afterAll(async () => shop?.close());

    /** The Oatmeal mug's stock as the inventory page shows it. */
    const stockShown = async (page: Page): Promise<string> => {
      await page.goto(`${shop.url}/admin/inventory?q=MUG-OAT`);
      const row = page.locator('tr', { has: page.getByRole('link', { name: 'MUG-OAT', exact: true }) });
      return (await row.locator('td.num').innerText()).trim();
    };

    it('finds the order, fulfils it with tracking, refunds a line with restock, and lists the customer', async () => {
      const context = await signedIn(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      const stockBefore = Number(await stockShown(page));

      await page.goto(`${shop.url}/admin`);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Orders' }).click();
      await page.getByLabel('Search').fill(SHOPPER);
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/\/admin\/orders\?.*q=shopper/);
      const row = page.getByRole('row', { name: new RegExp(`#${number}`) });
      expect(await row.getByRole('cell').allInnerTexts()).toEqual(
        expect.arrayContaining(['Ada Lovelace', SHOPPER, 'Paid', 'Pending']),
      );
      await row.getByRole('link', { name: `#${number}` }).click();
      await page.waitForURL(`**/admin/orders/${number}`);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(`Order #${number}`);

      await page.getByLabel('Carrier (optional)').selectOption('UPS');
      await page.getByLabel('Tracking number (optional)').fill(TRACKING);
      await expect(page.getByLabel('Send the customer a shipping e-mail').isChecked()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Mark as fulfilled' }).click();
      await page.waitForURL(done(`/admin/orders/${number}`));
      await expect(page.getByRole('status').innerText()).resolves.toBe(`Fulfilled order ${number}.`);
      await expect(page.getByText('Fulfilment: Fulfilled').isVisible()).resolves.toBe(true);
      const track = page.getByRole('link', { name: `Track ${TRACKING}` });
      await expect(track.getAttribute('href')).resolves.toBe(`https://www.ups.com/track?tracknum=${TRACKING}`);
      await expect(page.getByRole('button', { name: 'Undo: back to Pending' }).isVisible()).resolves.toBe(true);
      // The customer's e-mail is queued with the order's others.
      await expect(
        page.getByRole('region', { name: 'E-mails table' }).getByText(`Your order #${number} is on its way`).count(),
      ).resolves.toBe(1);

      await page.getByRole('link', { name: 'Refund…' }).click();
      await page.waitForURL(`**/admin/orders/${number}/refund`);
      await page.getByLabel('Speckled Stoneware Mug').fill('1');
      await page.getByLabel('Reason').fill('Chipped in the post');
      await expect(page.getByLabel('Put the units back in stock').isChecked()).resolves.toBe(true);
      await page.getByLabel(`Yes, give this money back to ${SHOPPER}`).check();
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      await page.waitForURL(done(`/admin/orders/${number}`));
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        new RegExp(`^Refunded \\$\\d+\\.\\d\\d of order ${number}\\.$`),
      );
      await expect(page.getByText('Payment: Partially refunded').isVisible()).resolves.toBe(true);
      await expect(
        page
          .getByRole('region', { name: 'Refunds table' })
          .getByText('Chipped in the post (units put back in stock)')
          .count(),
      ).resolves.toBe(1);
      await expect(page.locator('.admin-timeline').innerText()).resolves.toContain('Refunded $');

      expect(Number(await stockShown(page))).toBe(stockBefore + 1);

      await page.goto(`${shop.url}/admin/orders?payment=partially-refunded`);
      await expect(page.getByRole('link', { name: `#${number}` }).count()).resolves.toBe(1);

      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Customers' }).click();
      await page.waitForURL('**/admin/customers');
      const customer = page.getByRole('row', { name: new RegExp(SHOPPER) });
      expect(await customer.getByRole('cell').allInnerTexts()).toEqual(expect.arrayContaining(['Ada Lovelace', '1']));
      await customer.getByRole('link', { name: SHOPPER }).click();
      await expect(page.getByRole('link', { name: `#${number}` }).count()).resolves.toBe(1);
      await context.close();
    });

    it('shows a viewer no fulfil, refund or cancel button, and refuses its refund (403, nothing refunded)', async () => {
      const order = await placeOrder(browser, shop, 'viewer-case@example.com', 1);
      const context = await signedIn(browser, shop, VIEWER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/orders`);
      await expect(page.getByRole('link', { name: `#${order}` }).count()).resolves.toBe(1);
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Mark as fulfilled' }).count()).toBe(0);
      await page.goto(`${shop.url}/admin/orders/${order}`);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(`Order #${order}`);
      await expect(page.getByText('Not fulfilled yet.').isVisible()).resolves.toBe(true);
      for (const name of ['Mark as fulfilled', 'Cancel order', 'Add note'])
        expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      expect(await page.getByRole('link', { name: 'Refund…' }).count()).toBe(0);

      const headers = await crumbHeader(context, shop.url);
      const form = await context.request.post(`${shop.url}/admin/orders/${order}/refund`, {
        headers,
        form: { [CRUMB_FIELD]: headers[Object.keys(headers)[0]!]!, 'qty-0': '1', reason: 'x', confirm: 'yes' },
        maxRedirects: 0,
      });
      expect(form.status()).toBe(403);
      expect(await form.text()).not.toContain('viewer-case@example.com');
      const api = await context.request.post(`${shop.url}/api/admin/orders/${order}/refunds`, {
        headers: { ...headers, 'idempotency-key': 'viewer-try' },
        data: { lines: [{ position: 0, quantity: 1 }], reason: 'x' },
      });
      expect(api.status()).toBe(403);
      const refund = await context.request.get(`${shop.url}/admin/orders/${order}/refund`, { maxRedirects: 0 });
      expect(refund.status()).toBe(403);
      await page.reload();
      await expect(page.getByText('Payment: Paid').isVisible()).resolves.toBe(true);
      await context.close();
    });

    it('sends nobody signed in to the sign-in page, with no data', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      for (const path of ['/admin/orders', `/admin/orders/${number}`, '/admin/customers', '/admin/inventory']) {
        await page.goto(`${shop.url}${path}`);
        expect(new URL(page.url()).pathname, path).toBe('/account/sign-in');
        await expect(page.getByRole('button', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
        expect(await page.content(), path).not.toContain(SHOPPER);
      }
      const api = await context.request.get(`${shop.url}/api/admin/orders`);
      expect(api.status()).toBe(401);
      expect(await api.text()).not.toContain(SHOPPER);
      await context.close();
    });

    it('has no axe violation on any admin page, and nothing wider than the window, at 390 px and 1280 px', async () => {
      const pages = [
        '/admin',
        '/admin/orders',
        `/admin/orders/${number}`,
        `/admin/orders/${number}/refund`,
        '/admin/customers',
        `/admin/customers/${encodeURIComponent(SHOPPER)}`,
        '/admin/inventory',
        '/admin/inventory/MUG-OAT',
      ];
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, MANAGER, { width });
        const page = await context.newPage();
        for (const path of pages) {
          const answer = await page.goto(`${shop.url}${path}`);
          expect(answer?.status(), path).toBe(200);
          expect(await axeViolationsOf(page), `${path} at ${width} px`).toEqual([]);
          expect(await overflowOf(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
        }
        await context.close();
      }
    });

    it('fulfils an order with the keyboard alone, the focus visible at every step', async () => {
      const order = await placeOrder(browser, shop, 'keyboard@example.com', 1);
      const context = await signedIn(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/orders?q=keyboard%40example.com`);
      /** Tabs until the focused element matches; each stop must show its focus (an outline). */
      const tabTo = async (matches: (el: { tag: string; text: string; label: string }) => boolean) => {
        for (let i = 0; i < 80; i++) {
          await page.keyboard.press('Tab');
          const focused = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement;
            const style = getComputedStyle(el);
            return {
              tag: el.tagName,
              text: (el.innerText ?? '').trim(),
              label: el.id ? (document.querySelector(`label[for="${el.id}"]`)?.textContent ?? '') : '',
              outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
            };
          });
          expect(focused.outline, `focus visible on ${focused.tag} ${focused.text || focused.label}`).toBe(true);
          if (matches(focused)) return;
        }
        throw new Error('never reached by Tab');
      };
      await tabTo((el) => el.tag === 'A' && el.text === 'Skip to content');
      await tabTo((el) => el.tag === 'A' && el.text === `#${order}`);
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/admin/orders/${order}`);
      await tabTo((el) => el.tag === 'SELECT' && el.label === 'Carrier (optional)');
      await page.keyboard.type('DHL');
      await tabTo((el) => el.tag === 'INPUT' && el.label === 'Tracking number (optional)');
      await page.keyboard.type('JD014600003828');
      await tabTo((el) => el.tag === 'INPUT' && el.label === 'Send the customer a shipping e-mail');
      await page.keyboard.press('Space');
      await tabTo((el) => el.tag === 'BUTTON' && el.text === 'Mark as fulfilled');
      await page.keyboard.press('Enter');
      await page.waitForURL(done(`/admin/orders/${order}`));
      await expect(page.getByRole('status').innerText()).resolves.toBe(`Fulfilled order ${order}.`);
      const track = page.getByRole('link', { name: 'Track JD014600003828' });
      await expect(track.getAttribute('href')).resolves.toBe(
        'https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=JD014600003828',
      );
      // The e-mail box was unticked: no shipping e-mail.
      await expect(page.getByText('is on its way').count()).resolves.toBe(0);
      await context.close();
    });

    it('fulfils and undoes with JavaScript off', async () => {
      const order = await placeOrder(browser, shop, 'nojs@example.com', 1);
      const context = await signedIn(browser, shop, MANAGER, { width: 390, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/orders?fulfilment=pending`);
      await page.getByLabel(`Select order ${order}`).check();
      await page.getByLabel('Carrier (optional)').selectOption('USPS');
      await page.getByLabel('Tracking number (optional)').fill('9400 1000 0000 0000 0000 00');
      await page.getByRole('button', { name: 'Mark as fulfilled' }).click();
      await page.waitForURL(done('/admin/orders'));
      await expect(page.getByRole('status').innerText()).resolves.toBe(`Fulfilled order ${order}.`);
      await expect(page.getByLabel(`Select order ${order}`).count()).resolves.toBe(0);
      await page.goto(`${shop.url}/admin/orders/${order}`);
      await expect(
        page.getByRole('link', { name: 'Track 9400 1000 0000 0000 0000 00' }).getAttribute('href'),
      ).resolves.toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000');
      await page.getByRole('button', { name: 'Undo: back to Pending' }).click();
      await page.waitForURL(done(`/admin/orders/${order}`));
      await expect(page.getByRole('status').innerText()).resolves.toBe(`Order ${order} is pending again.`);
      await expect(page.getByText('Fulfilment: Pending').isVisible()).resolves.toBe(true);
      await context.close();
    });

    it('cancels an order from its page: the reason, the confirm box, Canceled, and the stock back', async () => {
      const order = await placeOrder(browser, shop, 'cancel@example.com', 3);
      const context = await signedIn(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      const stockBefore = Number(await stockShown(page));
      await page.goto(`${shop.url}/admin/orders/${order}`);
      await page.getByLabel('Reason (optional; the customer is told it)').fill('Out of glaze');
      // Without the confirm box the browser keeps the form (the box is required): nothing is canceled.
      await page.getByRole('button', { name: 'Cancel order' }).click();
      await expect(
        page
          .getByLabel(`Yes, cancel order ${order}`)
          .evaluate((box) => (box as HTMLInputElement).validity.valueMissing),
      ).resolves.toBe(true);
      expect(new URL(page.url()).search).toBe('');
      await expect(page.getByText('Fulfilment: Pending').isVisible()).resolves.toBe(true);

      await page.getByLabel(`Yes, cancel order ${order}`).check();
      await page.getByRole('button', { name: 'Cancel order' }).click();
      await page.waitForURL(done(`/admin/orders/${order}`));
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        new RegExp(`^Canceled order ${order}: refunded \\$\\d+\\.\\d\\d and put the stock back\\.$`),
      );
      await expect(page.getByText('Fulfilment: Canceled').isVisible()).resolves.toBe(true);
      await expect(page.getByText('Payment: Refunded').isVisible()).resolves.toBe(true);
      await expect(page.getByText('Canceled: nothing to ship.').isVisible()).resolves.toBe(true);
      await expect(
        page.getByRole('region', { name: 'Refunds table' }).getByText('Out of glaze (order canceled)').count(),
      ).resolves.toBe(1);
      expect(await page.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
      expect(Number(await stockShown(page))).toBe(stockBefore + 3);
      await page.goto(`${shop.url}/admin/orders?fulfilment=canceled`);
      await expect(page.getByRole('link', { name: `#${order}` }).count()).resolves.toBe(1);
      await context.close();
    });

    it('adds a note to an order with the keyboard: the notice, the note under Notes, and its line in the timeline', async () => {
      const order = await placeOrder(browser, shop, 'note@example.com', 1);
      const context = await signedIn(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/orders/${order}`);
      const notes = page.getByRole('region', { name: 'Notes' });
      await expect(notes.getByText('No notes yet.').isVisible()).resolves.toBe(true);
      await page.getByLabel('Add a note (only staff see it)').focus();
      await page.keyboard.type('Customer called: leave it with the neighbour');
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Add note');
      await page.keyboard.press('Enter');
      await page.waitForURL(done(`/admin/orders/${order}`));
      await expect(page.getByRole('status').innerText()).resolves.toBe('Note added.');
      await expect(
        notes.getByText('Customer called: leave it with the neighbour', { exact: true }).isVisible(),
      ).resolves.toBe(true);
      await expect(notes.getByText(`${MANAGER}, `).count()).resolves.toBe(1);
      expect(await notes.getByText('No notes yet.').count()).toBe(0);
      await expect(page.locator('.admin-timeline').innerText()).resolves.toContain(`Added a note to order ${order}`);
      await context.close();
    });
  },
);
