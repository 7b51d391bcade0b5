/**
 * What the storefront gathers, in Chromium (issue 25): a store manager disables a gift card and pauses a subscription
 * with the keyboard alone, every /admin/gathered page has no axe violation at 390 px and 1280 px (nothing wider than
 * the phone), and with JavaScript off the forms still post: the subscription is resumed, the notice says so. With the
 * mouse, a paused subscription is resumed and its next billing skipped (the date shown moves one month on), and
 * 'Send now' e-mails the shopper waiting for the mug (the notice says how many).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { MANAGER, PASSWORD, signedIn as signedInAs, signedInFrom } from './adminShop';
import { startServer, type RunningServer } from './server';

const EMAIL = 'manager@example.com';
const CARD = 'card-for-the-browser-1';
const SUB = 'sub-for-the-browser-0001';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `what the storefront gathers in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      const db = shop.db!;
      await createSiteUser(db, {
        siteId: 'demo',
        email: EMAIL,
        password: PASSWORD,
        role: ContributorRole.STORE_MANAGER,
      });
      const now = new Date().toISOString();
      await db
        .insertInto('gift_cards')
        .values({
          id: CARD,
          site_id: 'demo',
          code_hash: 'not-a-real-hash',
          last_four: 'WXYZ',
          currency: 'USD',
          initial_balance: 5000,
          balance: 3200,
          status: 'active',
          order_id: null,
          purchaser_email: null,
          recipient_name: 'Ada Lovelace',
          recipient_email: 'ada@example.com',
          message: '',
          delivery_date: now.slice(0, 10),
          send_after: null,
          outbox_id: null,
          codes_made: 1,
          delivered_at: now,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('gift_card_transactions')
        .values([
          { id: 't1', gift_card_id: CARD, order_id: null, kind: 'issue', amount: 5000, created_at: now },
          { id: 't2', gift_card_id: CARD, order_id: null, kind: 'redeem', amount: 1800, created_at: now },
        ])
        .execute();
      await db
        .insertInto('subscriptions')
        .values({
          id: SUB,
          site_id: 'demo',
          status: 'active',
          email: 'bea@example.com',
          item_id: 'coffee-subscription',
          sku: 'COFFEE-1',
          quantity: 1,
          unit_price: 1800,
          currency: 'USD',
          line: JSON.stringify({
            itemId: 'coffee-subscription',
            sku: 'COFFEE-1',
            title: 'Coffee subscription',
            attributes: {},
          }),
          subscription_option_id: null,
          billing_unit: 'MONTH',
          billing_value: 1,
          num_billing_cycles: 0,
          shipping_address: null,
          shipping_option_id: null,
          payment_provider: 'test',
          payment_method: 'tok',
          cart_id: 'cart-x',
          first_order_id: 'order-x',
          base_url: shop.url,
          periods_billed: 1,
          started_at: now,
          next_billing_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          cancelled_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      // Something in each list: a waiting shopper, a newsletter address, a form's submission.
      await db
        .insertInto('restock_sign_ups')
        .values({
          id: 'rs-1',
          site_id: 'demo',
          product_id: 'speckled-mug',
          sku: 'MUG-OAT',
          email: 'waiting@example.com',
          joined_mailing_list: 0,
          base_url: shop.url,
          created_at: now,
          notified_at: null,
          unsubscribe_token_hash: null,
        })
        .execute();
      await db
        .insertInto('mailing_list')
        .values({
          id: 'ml-1',
          site_id: 'demo',
          email: 'reader@example.com',
          status: 'pending',
          source_form_id: null,
          token_hash: 'x',
          created_at: now,
          confirmed_at: null,
        })
        .execute();
      await db
        .insertInto('form_submissions')
        .values({
          id: 'fs-1',
          site_id: 'demo',
          form_id: 'contact',
          form_name: 'Contact',
          fields: '{}',
          answers: JSON.stringify([{ title: 'Message', lines: ['Hello there'] }]),
          page_path: '/contact',
          created_at: now,
        })
        .execute();
    });
    afterAll(async () => shop?.close());

    const signedIn = (options: { javaScriptEnabled: boolean; width: number }): Promise<BrowserContext> =>
      signedInFrom(browser, shop, EMAIL, '/admin/gathered', options);

    /** Presses Tab until the focused element's text starts with `label` (at most 60 times); false if never. */
    const tabTo = async (page: Page, label: string): Promise<boolean> => {
      for (let i = 0; i < 60; i += 1) {
        await page.keyboard.press('Tab');
        const text = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? '');
        if (text.trim().startsWith(label)) return true;
      }
      return false;
    };

    it('a store manager disables a gift card and pauses a subscription with the keyboard', async () => {
      const context = await signedIn({ javaScriptEnabled: true, width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/gathered`);
      expect(await tabTo(page, 'Gift cards')).toBe(true);
      await Promise.all([page.waitForURL('**/admin/gathered/gift-cards'), page.keyboard.press('Enter')]);
      const row = page.getByRole('row', { name: /…WXYZ/ });
      await expect(row.getByRole('cell', { name: '$50.00' }).isVisible()).resolves.toBe(true);
      await expect(row.getByRole('cell', { name: '$32.00' }).isVisible()).resolves.toBe(true);
      expect(await tabTo(page, '…WXYZ')).toBe(true);
      await Promise.all([page.waitForURL(`**/admin/gathered/gift-cards/${CARD}`), page.keyboard.press('Enter')]);
      await expect(
        page
          .getByRole('table', { name: /history/ })
          .getByText('Redeemed')
          .isVisible(),
      ).resolves.toBe(true);
      expect(await tabTo(page, 'Disable')).toBe(true);
      await Promise.all([page.waitForURL(`**/admin/gathered/gift-cards/${CARD}?done=*`), page.keyboard.press('Enter')]);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        'Disabled the gift card …WXYZ: it can no longer be used at checkout.',
      );
      await expect(page.getByText('Disabled', { exact: true }).isVisible()).resolves.toBe(true);
      expect(await page.getByRole('button', { name: /^Disable/ }).count()).toBe(0);

      await page.goto(`${shop.url}/admin/gathered/subscriptions`);
      expect(await tabTo(page, 'bea@example.com')).toBe(true);
      await Promise.all([page.waitForURL(`**/admin/gathered/subscriptions/${SUB}`), page.keyboard.press('Enter')]);
      expect(await tabTo(page, 'Pause')).toBe(true);
      await Promise.all([
        page.waitForURL(`**/admin/gathered/subscriptions/${SUB}?done=*`),
        page.keyboard.press('Enter'),
      ]);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        'Paused the subscription of bea@example.com: it is not billed until resumed.',
      );
      const stored = await shop
        .db!.selectFrom('subscriptions')
        .select('status')
        .where('id', '=', SUB)
        .executeTakeFirstOrThrow();
      expect(stored.status).toBe('paused');
      const card = await shop
        .db!.selectFrom('gift_cards')
        .select('status')
        .where('id', '=', CARD)
        .executeTakeFirstOrThrow();
      expect(card.status).toBe('disabled');
      await context.close();
    });

    it('has no axe violation on any Gathered page at 390 px and 1280 px, and nothing wider than the phone', async () => {
      const paths = [
        '/admin/gathered',
        '/admin/gathered/forms/contact',
        '/admin/gathered/newsletter',
        '/admin/gathered/restock',
        '/admin/gathered/gift-cards',
        `/admin/gathered/gift-cards/${CARD}`,
        '/admin/gathered/subscriptions',
        `/admin/gathered/subscriptions/${SUB}`,
      ];
      for (const width of [390, 1280]) {
        const context = await signedIn({ javaScriptEnabled: true, width });
        const page = await context.newPage();
        for (const path of paths) {
          await page.goto(`${shop.url}${path}`);
          expect(await axeViolationsOf(page), `${path} at ${width} px`).toEqual([]);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
        }
        await context.close();
      }
    });

    it('posts its forms without JavaScript: Resume answers 303 back with the notice', async () => {
      const context = await signedIn({ javaScriptEnabled: false, width: 390 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/gathered/subscriptions/${SUB}`);
      await Promise.all([
        page.waitForURL(`**/admin/gathered/subscriptions/${SUB}?done=*`),
        page.getByRole('button', { name: 'Resume' }).click(),
      ]);
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Resumed the subscription of bea@example\.com; next billing \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
      );
      const stored = await shop
        .db!.selectFrom('subscriptions')
        .select('status')
        .where('id', '=', SUB)
        .executeTakeFirstOrThrow();
      expect(stored.status).toBe('active');
      await context.close();
    });

    it('a store manager resumes a paused subscription and skips its next billing, and sends a restock e-mail now', async () => {
      const paused = 'sub-for-the-browser-0002';
      const now = new Date().toISOString();
      // Started on the 15th of this month at 10:00 UTC, billed once: next billing one month on, a skip makes it two.
      const today = new Date();
      const monthsOn = (months: number) =>
        new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + months, 15, 10)).toISOString();
      const shown = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
      await shop
        .db!.insertInto('subscriptions')
        .values({
          id: paused,
          site_id: 'demo',
          status: 'paused',
          email: 'cleo@example.com',
          item_id: 'coffee-subscription',
          sku: 'COFFEE-1',
          quantity: 1,
          unit_price: 1800,
          currency: 'USD',
          line: JSON.stringify({
            itemId: 'coffee-subscription',
            sku: 'COFFEE-1',
            title: 'Coffee subscription',
            attributes: {},
          }),
          subscription_option_id: null,
          billing_unit: 'MONTH',
          billing_value: 1,
          num_billing_cycles: 0,
          shipping_address: null,
          shipping_option_id: null,
          payment_provider: 'test',
          payment_method: 'tok',
          cart_id: 'cart-y',
          first_order_id: 'order-y',
          base_url: shop.url,
          periods_billed: 1,
          started_at: monthsOn(0),
          next_billing_at: monthsOn(1),
          cancelled_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const context = await signedInAs(browser, shop, MANAGER, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/gathered/subscriptions`);
      await page.getByRole('link', { name: 'cleo@example.com' }).click();
      await page.waitForURL(`**/admin/gathered/subscriptions/${paused}`);
      const fact = (term: string) => page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
      await expect(fact('Status').innerText()).resolves.toBe('Paused');
      await expect(fact('Next billing (UTC)').innerText()).resolves.toBe(shown(monthsOn(1)));
      expect(await page.getByRole('button', { name: 'Skip next billing' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Resume' }).click();
      await page.waitForURL(`**/admin/gathered/subscriptions/${paused}?done=*`);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        `Resumed the subscription of cleo@example.com; next billing ${shown(monthsOn(1))} UTC.`,
      );
      await expect(fact('Status').innerText()).resolves.toBe('Active');

      await page.getByRole('button', { name: 'Skip next billing' }).click();
      await page.waitForURL((url) => url.searchParams.get('done')?.startsWith('Skipped') ?? false);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        `Skipped the next billing of cleo@example.com; next billing ${shown(monthsOn(2))} UTC.`,
      );
      await expect(fact('Next billing (UTC)').innerText()).resolves.toBe(shown(monthsOn(2)));
      await expect(fact('Status').innerText()).resolves.toBe('Active');

      await page.goto(`${shop.url}/admin/gathered/restock`);
      const send = page.getByRole('button', { name: /^Send now to the shoppers waiting for Speckled Stoneware Mug/ });
      await send.focus();
      await Promise.all([page.waitForURL('**/admin/gathered/restock?done=*'), page.keyboard.press('Enter')]);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        'E-mailed 1 waiting shopper that Speckled Stoneware Mug (Oatmeal) is back in stock. 0 still waiting.',
      );
      const row = page.getByRole('row', { name: /Speckled Stoneware Mug/ });
      // Waiting 0, e-mailed 1; nobody left to send to.
      expect((await row.locator('td.num').allInnerTexts()).slice(0, 2)).toEqual(['0', '1']);
      expect(await send.count()).toBe(0);
      const mail = await shop
        .db!.selectFrom('outbox')
        .select('to_address')
        .where('to_address', '=', 'waiting@example.com')
        .execute();
      expect(mail).toHaveLength(1);
      await context.close();
    });
  },
);
