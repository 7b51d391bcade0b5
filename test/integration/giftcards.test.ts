/**
 * Gift cards on SQLite and PostgreSQL: buying one at /checkout/giftcard (an order, a card stored hashed, the
 * recipient's e-mail held until the delivery date), paying with one or several at /checkout (part or all of the
 * order; only the rest asked of the payment provider), refusals that leave nothing behind, the 20-way race for one
 * balance, and a refund giving the balance back.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GIFT_CARD_MESSAGES } from '../../src/core/giftCard';
import { ok } from '../../src/core/result';
import { inTransaction } from '../../src/platform/db/transaction';
import { buildApp } from '../../src/server/app';
import { hashGiftCardCode, issueGiftCard } from '../../src/modules/giftCards/giftCards';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { smtpTransport } from '../../src/platform/mail/transport';
import { paymentProviderFor } from '../../src/modules/payments';
import type { PaymentProvider } from '../../src/modules/payments/provider';
import { refundOrder } from '../../src/modules/orders/refunds';
import { getSite } from '../../src/modules/site/sites';
import { checkoutSite, DECLINED_CARD, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const QUOTE_API = '/api/commerce/checkout/quote';
const ORDERS_API = '/api/commerce/checkout/orders';
const GIFT_CARD_PAGE = '/checkout/giftcard?websiteId=shop&giftCardProductId=gift';
const CODE_IN_TEXT = /code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/;

function countingProvider() {
  const inner = paymentProviderFor({ provider: 'test', manualInstructions: '' }, {});
  const calls = { authorize: [] as number[], capture: 0, void: 0, refund: [] as number[] };
  const provider: PaymentProvider = {
    name: inner.name,
    notice: inner.notice,
    authorize: (req) => (calls.authorize.push(req.amount), inner.authorize(req)),
    capture: (ref, amount, key) => (calls.capture++, inner.capture(ref, amount, key)),
    void: (ref, key) => (calls.void++, inner.void(ref, key)),
    refund: (ref, amount, key) => (calls.refund.push(amount), inner.refund(ref, amount, key)),
  };
  return { provider, calls, reset: () => Object.assign(calls, { authorize: [], capture: 0, void: 0, refund: [] }) };
}

let keyCounter = 0;
const newKey = () => `gkey-${Date.now().toString(36)}-${(keyCounter++).toString(36)}-abcdefgh`;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let helperSmtp: TestSmtpServer;
  const payments = countingProvider();

  beforeAll(async () => {
    helperSmtp = await startSmtpServer();
    await seedSite(getDb(), checkoutSite);
    app = sendCrumbs(
      await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000, paymentsFor: () => payments.provider }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await helperSmtp?.close();
  });
  beforeEach(async () => {
    const db = getDb();
    for (const table of [
      'gift_card_transactions',
      'gift_cards',
      'outbox',
      'payments',
      'order_lines',
      'orders',
      'cart_entries',
      'carts',
    ] as const) {
      await db.deleteFrom(table).execute();
    }
    await db.updateTable('variants').set({ qty_in_stock: 7 }).where('sku', '=', 'limited-1').execute();
    payments.reset();
  });

  const json = (method: 'POST' | 'GET', url: string, payload?: unknown, cookie?: string) =>
    app.inject({
      method,
      url,
      headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const form = (url: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const cartCookieOf = (response: LightMyRequestResponse) =>
    `CART=${response.cookies.find((c) => c.name === 'CART')!.value}`;
  const cartWith = async (itemId: string, sku: string, quantity = 1) => {
    const added = await json('POST', ENTRIES_API, { itemId, sku, quantity, additionalFields: '' });
    expect(added.statusCode, added.body).toBe(200);
    return cartCookieOf(added);
  };
  const order = (cookie: string, overrides: Record<string, unknown> = {}) =>
    json(
      'POST',
      ORDERS_API,
      {
        idempotencyKey: newKey(),
        email: 'ada@example.com',
        shippingAddress: NEW_YORK,
        shippingOptionId: 'standard',
        payment: TEST_CARD,
        ...overrides,
      },
      cookie,
    );
  /** A card issued straight through the service and delivered (as `vitrine giftcards issue` does); its code. */
  const issue = async (amountCents: number): Promise<string> => {
    const site = (await getSite(getDb(), 'shop'))!;
    const issued = await inTransaction(getDb(), async (trx) =>
      ok(
        await issueGiftCard(trx, site, {
          amountCents,
          recipientName: 'Test',
          recipientEmail: 'test@example.com',
          message: '',
          purchaserEmail: null,
          orderId: null,
          delivery: { date: '2025-01-01', sendAfter: null },
          shopUrl: 'http://shop.test/',
          now: new Date(),
        }),
      ),
    );
    if (!issued.ok) throw new Error('not issued');
    let code = '';
    await drainOutbox(getDb(), smtpTransport(helperSmtp.url, 'Shop <shop@shop.test>'), {
      onlyIds: [issued.value.messageId],
      onSent: (_id, made) => (code = made),
    });
    if (code === '') throw new Error('not delivered');
    return code;
  };
  /** Every text of every row of every table, as one string per table (what a database reader sees). */
  const everyStoredText = async (): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    for (const table of await getDb().introspection.getTables()) {
      const rows = await getDb()
        .selectFrom(table.name as 'outbox')
        .selectAll()
        .execute();
      out.set(table.name, JSON.stringify(rows));
    }
    return out;
  };
  /** The tables holding the code in any form (grouped, without dashes, any case), or any code-shaped text. */
  const tablesHolding = async (code?: string): Promise<string[]> => {
    const bare = code?.replace(/-/g, '');
    const found: string[] = [];
    for (const [table, text] of await everyStoredText()) {
      const upper = text.toUpperCase();
      if (
        /[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/.test(text) ||
        (code && (upper.includes(code) || upper.includes(bare!)))
      )
        found.push(table);
    }
    return found;
  };
  const balanceOf = async (code: string) =>
    Number(
      (
        await getDb()
          .selectFrom('gift_cards')
          .select('balance')
          .where('code_hash', '=', hashGiftCardCode(code))
          .executeTakeFirstOrThrow()
      ).balance,
    );
  const count = async (table: 'orders' | 'payments' | 'gift_card_transactions' | 'gift_cards' | 'outbox') =>
    Number(
      (
        await getDb()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const buyer = (overrides: Record<string, string> = {}) => ({
    idempotencyKey: newKey(),
    sku: 'gift-50',
    email: 'buyer@example.com',
    recipientName: 'Grace Hopper',
    recipientEmail: 'grace@example.com',
    message: 'Happy birthday!',
    deliveryDate: '',
    ...TEST_CARD,
    ...overrides,
  });

  describe('buying a gift card', () => {
    it('shows the form with the chosen amount, and 404 for another product or site', async () => {
      const page = await app.inject({
        method: 'GET',
        url: `${GIFT_CARD_PAGE}&sku=gift-50`,
        headers: { host: SHOP_HOST },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toMatch(/checked="" value="gift-50"/);
      expect(page.body).toContain('name="recipientEmail"');
      expect(page.body).toContain('type="date"');
      for (const url of [
        '/checkout/giftcard?websiteId=shop&giftCardProductId=tee',
        '/checkout/giftcard?websiteId=other&giftCardProductId=gift',
        '/checkout/giftcard',
      ]) {
        expect((await app.inject({ method: 'GET', url, headers: { host: SHOP_HOST } })).statusCode, url).toBe(404);
      }
    });

    it('pays, then makes the code only when the e-mail is sent; no table ever holds it in clear', async () => {
      const smtp = await startSmtpServer();
      try {
        const bought = await form(GIFT_CARD_PAGE, buyer());
        expect(bought.statusCode, bought.body).toBe(303);
        expect(bought.headers.location).toMatch(/^\/checkout\/order\/[A-Za-z0-9_-]{22}$/);
        expect(payments.calls.authorize).toEqual([5000]);
        // Bought: the card waits for its e-mail, with no code at all; the stored e-mail has a placeholder.
        const card = await getDb().selectFrom('gift_cards').selectAll().executeTakeFirstOrThrow();
        expect(card).toMatchObject({
          initial_balance: 5000,
          balance: 5000,
          status: 'scheduled',
          code_hash: null,
          last_four: null,
          recipient_email: 'grace@example.com',
          send_after: null,
        });
        const queued = await getDb()
          .selectFrom('outbox')
          .selectAll()
          .where('kind', '=', 'gift-card')
          .executeTakeFirstOrThrow();
        expect(queued.text_body).toContain('Your gift card code: ••••-••••-••••-••••');
        expect(await tablesHolding()).toEqual([]);
        // The order (one gift-card line) and its confirmation to the buyer.
        const orderRow = await getDb().selectFrom('orders').selectAll().executeTakeFirstOrThrow();
        expect(orderRow).toMatchObject({ email: 'buyer@example.com', grand_total: 5000, shipping: 0, status: 'paid' });
        expect(card.order_id).toBe(orderRow.id);

        const drained = await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'));
        expect(drained).toMatchObject({ sent: 3, failed: 0 }); // the buyer's confirmation, the shop's notice, the gift card
        const toRecipient = smtp.received.find((m) => m.envelopeTo.includes('grace@example.com'))!;
        const code = CODE_IN_TEXT.exec(toRecipient.text)![1]!;
        expect(toRecipient.text).toContain('Happy birthday!');
        expect(toRecipient.text).toContain('$50.00');
        expect(toRecipient.html).toContain(`<strong data-gift-card-code="">${code}</strong>`);
        // Sent: the card is active under the code's hash; the kept e-mail names it by its last four only.
        const delivered = await getDb().selectFrom('gift_cards').selectAll().executeTakeFirstOrThrow();
        expect(delivered).toMatchObject({
          status: 'active',
          code_hash: hashGiftCardCode(code),
          last_four: code.slice(-4),
          codes_made: 1,
        });
        const kept = await getDb()
          .selectFrom('outbox')
          .selectAll()
          .where('kind', '=', 'gift-card')
          .executeTakeFirstOrThrow();
        expect(kept.status).toBe('sent');
        expect(kept.text_body).toContain(`Your gift card code: •••• ${code.slice(-4)}`);
        expect(kept.html_body).toContain(`<strong data-gift-card-code="">•••• ${code.slice(-4)}</strong>`);
        expect(await tablesHolding(code)).toEqual([]);
        // And the code pays.
        const cookie = await cartWith('limited', 'limited-1');
        const quote = (await json('POST', QUOTE_API, { giftCardCodes: [code] }, cookie)).json();
        expect(quote.giftCards).toEqual([{ code, lastFour: code.slice(-4), amountCents: 4600, balanceCents: 5000 }]);
      } finally {
        await smtp.close();
      }
    });

    it('makes a new code when a send is not confirmed: only the code of the confirmed e-mail pays', async () => {
      const smtp = await startSmtpServer();
      try {
        expect((await form(GIFT_CARD_PAGE, buyer())).statusCode).toBe(303);
        const real = smtpTransport(smtp.url, 'Shop <shop@shop.test>');
        // The SMTP server accepts the e-mail, then the sender fails before recording it (as a process that dies).
        const dying = {
          send: async (mail: Parameters<typeof real.send>[0]) => {
            await real.send(mail);
            throw new Error('process died');
          },
        };
        const first = await drainOutbox(getDb(), dying as typeof real);
        expect(first.retried).toBe(3);
        const firstCode = CODE_IN_TEXT.exec(
          smtp.received.find((m) => m.envelopeTo.includes('grace@example.com'))!.text,
        )![1]!;
        const pending = await getDb().selectFrom('gift_cards').selectAll().executeTakeFirstOrThrow();
        expect(pending).toMatchObject({ status: 'scheduled', codes_made: 1 });
        expect(await tablesHolding(firstCode)).toEqual([]);
        const cookie = await cartWith('limited', 'limited-1');
        expect((await json('POST', QUOTE_API, { giftCardCodes: [firstCode] }, cookie)).json().giftCardError).toBe(
          GIFT_CARD_MESSAGES.invalid,
        );

        // The retry makes a new code and sends it; that one pays, the unconfirmed one never does.
        const second = await drainOutbox(getDb(), real, { includeWaiting: true });
        expect(second).toMatchObject({ sent: 3, failed: 0 });
        const toGrace = smtp.received.filter((m) => m.envelopeTo.includes('grace@example.com'));
        expect(toGrace).toHaveLength(2);
        const secondCode = CODE_IN_TEXT.exec(toGrace[1]!.text)![1]!;
        expect(secondCode).not.toBe(firstCode);
        expect(await getDb().selectFrom('gift_cards').selectAll().executeTakeFirstOrThrow()).toMatchObject({
          status: 'active',
          codes_made: 2,
          last_four: secondCode.slice(-4),
        });
        expect((await json('POST', QUOTE_API, { giftCardCodes: [secondCode] }, cookie)).json().giftCards).toHaveLength(
          1,
        );
        expect((await json('POST', QUOTE_API, { giftCardCodes: [firstCode] }, cookie)).json().giftCardError).toBe(
          GIFT_CARD_MESSAGES.invalid,
        );
        expect(await tablesHolding(firstCode)).toEqual([]);
        expect(await tablesHolding(secondCode)).toEqual([]);
      } finally {
        await smtp.close();
      }
    });

    it('never sends the code of a card refunded before its delivery date', async () => {
      const smtp = await startSmtpServer();
      try {
        const later = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
          new Date(Date.now() + 3 * 86_400_000),
        );
        const bought = await form(GIFT_CARD_PAGE, buyer({ deliveryDate: later }));
        expect(bought.statusCode).toBe(303);
        const number = (await getDb().selectFrom('orders').select('number').executeTakeFirstOrThrow()).number;
        expect((await refundOrder(getDb(), 'shop', Number(number), payments.provider)).ok).toBe(true);
        const drained = await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'), {
          now: new Date(Date.now() + 5 * 86_400_000),
        });
        expect(drained.errors.map((e) => e.error)).toContain(
          'the gift card was disabled (or removed) before its e-mail was sent',
        );
        expect(smtp.received.some((m) => m.envelopeTo.includes('grace@example.com'))).toBe(false);
        expect(await getDb().selectFrom('gift_cards').selectAll().executeTakeFirstOrThrow()).toMatchObject({
          status: 'disabled',
          code_hash: null,
        });
      } finally {
        await smtp.close();
      }
    });

    it('holds the e-mail (and the code) until the delivery date (midnight in the site time zone)', async () => {
      const smtp = await startSmtpServer();
      try {
        const later = new Date(Date.now() + 10 * 86_400_000);
        const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(later);
        const bought = await form(GIFT_CARD_PAGE, buyer({ deliveryDate: day }));
        expect(bought.statusCode, bought.body).toBe(303);
        const mail = await getDb()
          .selectFrom('outbox')
          .selectAll()
          .where('kind', '=', 'gift-card')
          .executeTakeFirstOrThrow();
        expect(mail.send_after).not.toBeNull();
        expect(
          new Intl.DateTimeFormat('en-CA', {
            timeZone: 'America/New_York',
            hour: '2-digit',
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
          }).format(new Date(mail.send_after!)),
        ).toBe(`${day}, 00`);
        const transport = smtpTransport(smtp.url, 'Shop <shop@shop.test>');
        await drainOutbox(getDb(), transport);
        // Not even "send now" (waiting retries included) sends it early.
        await drainOutbox(getDb(), transport, { includeWaiting: true });
        expect(smtp.received.some((m) => m.envelopeTo.includes('grace@example.com'))).toBe(false);
        expect(smtp.received.some((m) => m.envelopeTo.includes('buyer@example.com'))).toBe(true);
        expect(
          await getDb().selectFrom('gift_cards').select(['status', 'code_hash']).executeTakeFirstOrThrow(),
        ).toEqual({ status: 'scheduled', code_hash: null });
        await drainOutbox(getDb(), transport, { now: new Date(Date.parse(mail.send_after!) + 1000) });
        expect(smtp.received.some((m) => m.envelopeTo.includes('grace@example.com'))).toBe(true);
      } finally {
        await smtp.close();
      }
    });

    it("tells on the order's page for whom the card is, the message, and when it is e-mailed", async () => {
      const smtp = await startSmtpServer();
      try {
        const later = new Date(Date.now() + 10 * 86_400_000);
        const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(later);
        const dayText = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'America/New_York',
          day: 'numeric',
          month: 'long',
          year: 'numeric',
        }).format(later);
        const bought = await form(
          GIFT_CARD_PAGE,
          buyer({ deliveryDate: day, message: 'Happy birthday!\nSee you <soon>' }),
        );
        expect(bought.statusCode, bought.body).toBe(303);
        const pageText = async () => {
          const page = await app.inject({
            method: 'GET',
            url: bought.headers.location as string,
            headers: { host: SHOP_HOST },
          });
          expect(page.statusCode).toBe(200);
          return page.body.replaceAll('<!-- -->', '');
        };
        const before = await pageText();
        expect(before).toContain('<h2 id="order-gift-cards">Gift card</h2>');
        expect(before).toContain('<span class="order-confirmed__label">For:</span> Grace Hopper</p>');
        expect(before).toContain('<blockquote>Happy birthday!\nSee you &lt;soon&gt;</blockquote>');
        expect(before).toContain(`<p>It will be e-mailed to grace@example.com on ${dayText}.</p>`);
        // Sent on its day: the page says so (and never shows the code).
        const mail = await getDb()
          .selectFrom('outbox')
          .select('send_after')
          .where('kind', '=', 'gift-card')
          .executeTakeFirstOrThrow();
        const sentAt = new Date(Date.parse(mail.send_after!) + 1000);
        let code = '';
        await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'), {
          now: sentAt,
          onSent: (_id, made) => (code = made),
        });
        expect(code).not.toBe('');
        const after = await pageText();
        const { delivered_at } = await getDb()
          .selectFrom('gift_cards')
          .select('delivered_at')
          .executeTakeFirstOrThrow();
        const deliveredText = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'America/New_York',
          day: 'numeric',
          month: 'long',
          year: 'numeric',
        }).format(new Date(delivered_at!));
        expect(after).toContain(`<p>E-mailed to grace@example.com on ${deliveredText}.</p>`);
        expect(after).not.toContain(code);
        expect(after).not.toContain(code.replace(/-/g, ''));
      } finally {
        await smtp.close();
      }
    });

    it('says a card bought for today is on its way, and a refunded one cancelled', async () => {
      const bought = await form(GIFT_CARD_PAGE, buyer());
      expect(bought.statusCode, bought.body).toBe(303);
      const page = async () =>
        (await app.inject({ method: 'GET', url: bought.headers.location as string, headers: { host: SHOP_HOST } }))
          .body;
      expect(await page()).toContain('<p>It is on its way to grace@example.com.</p>');
      const orderRow = await getDb().selectFrom('orders').select('number').executeTakeFirstOrThrow();
      expect((await refundOrder(getDb(), 'shop', Number(orderRow.number), payments.provider)).ok).toBe(true);
      expect(await page()).toContain('<p>This gift card was cancelled.</p>');
    });

    it('refuses wrong details, a past date and a declined card with messages by the fields, leaving nothing behind', async () => {
      const missing = await form(
        GIFT_CARD_PAGE,
        buyer({ sku: '', recipientEmail: 'nope', recipientName: '', deliveryDate: '2001-01-01' }),
      );
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain('Choose an amount.');
      expect(missing.body).toContain('Email is not valid.');
      expect(missing.body).toContain('The delivery date cannot be in the past.');
      expect(missing.body).toContain('role="alert"');
      const declined = await form(GIFT_CARD_PAGE, buyer(DECLINED_CARD));
      expect(declined.statusCode).toBe(402);
      expect(declined.body).toContain('Your card was declined.');
      expect(await count('orders')).toBe(0);
      expect(await count('gift_cards')).toBe(0);
      expect(await count('outbox')).toBe(0);
    });

    it('lists every field to mend in one post, card fields included, in the order of the page', async () => {
      const empty = await form(
        GIFT_CARD_PAGE,
        buyer({
          sku: '',
          email: '',
          recipientEmail: '',
          recipientName: '',
          cardNumber: '',
          cardExpiry: '',
          cardCvc: '',
        }),
      );
      expect(empty.statusCode).toBe(400);
      const listed = [...empty.body.matchAll(/<li><a href="#[^"]+">([^<]+)<!-- -->:/g)].map((m) => m[1]);
      expect(listed).toEqual([
        'Amount',
        'Recipient’s name',
        'Recipient’s email',
        'Your email',
        'Card number',
        'Expiry (MM / YY)',
        'CVC',
      ]);
      expect(await count('orders')).toBe(0);
    });

    it('buys once for a double submit with the same key', async () => {
      const fields = buyer();
      const [a, b] = await Promise.all([form(GIFT_CARD_PAGE, fields), form(GIFT_CARD_PAGE, fields)]);
      const statuses = [a.statusCode, b.statusCode].sort();
      expect(statuses[0]).toBe(303);
      expect(await count('orders')).toBe(1);
      expect(await count('gift_cards')).toBe(1);
      expect(payments.calls.authorize).toHaveLength(1);
    });
  });

  describe('gift cards and the regular cart', () => {
    it('refuses to add a gift card to the cart, pointing to its own page', async () => {
      const refused = await json('POST', ENTRIES_API, {
        itemId: 'gift',
        sku: 'gift-50',
        quantity: 1,
        additionalFields: '',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'add-to-cart-refused',
        message: 'Gift cards cannot be added to the cart. Please buy it from the gift card’s own page.',
        field: 'itemId',
      });
      expect(refused.cookies.find((c) => c.name === 'CART')).toBeUndefined();
      expect(await count('orders')).toBe(0);
      expect(
        Number(
          (
            await getDb()
              .selectFrom('cart_entries')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBe(0);
    });

    it('refuses to place an order for a cart that holds a gift card, charging nothing', async () => {
      const cookie = await cartWith('limited', 'limited-1');
      const cartId = cookie.slice('CART='.length);
      await getDb()
        .insertInto('cart_entries')
        .values({
          id: 'sneaked-gift',
          cart_id: cartId,
          item_id: 'gift',
          sku: 'gift-50',
          quantity: 1,
          additional_fields: '',
          unit_price: 5000,
          created_at: new Date().toISOString(),
        })
        .execute();
      const message =
        'Gift cards cannot be bought through the cart. Please remove the gift card and buy it from its own page.';
      const refused = await order(cookie);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'checkout-refused',
        message,
        lines: [{ entryId: 'sneaked-gift', sku: 'gift-50', message }],
      });
      // The no-JavaScript form says the same.
      const page = await app.inject({
        method: 'POST',
        url: '/checkout',
        headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          intent: 'place',
          idempotencyKey: newKey(),
          email: 'ada@example.com',
          ...TEST_CARD,
        }).toString(),
      });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain(message);
      expect(payments.calls.authorize).toEqual([]);
      expect(await count('orders')).toBe(0);
      expect(await count('gift_cards')).toBe(0);
      expect(await count('payments')).toBe(0);
    });
  });

  describe('paying with gift cards at /checkout', () => {
    it('quotes each card and what is left, then authorizes only the rest', async () => {
      const code = await issue(2500);
      const cookie = await cartWith('limited', 'limited-1'); // $40.00 + $6.00 shipping
      const quote = (
        await json('POST', QUOTE_API, { giftCardCodes: [code.toLowerCase().replace(/-/g, ' ')] }, cookie)
      ).json();
      expect(quote.totals.grandTotalCents).toBe(4600);
      expect(quote.giftCards).toEqual([{ code, lastFour: code.slice(-4), amountCents: 2500, balanceCents: 2500 }]);
      expect(quote.amountDueCents).toBe(2100);
      expect(quote.giftCardError).toBeUndefined();

      // With the New York address: + 8.875 % tax ($3.55) = $49.55, of which the card pays $25.00.
      const placed = await order(cookie, { giftCardCodes: [code] });
      expect(placed.statusCode, placed.body).toBe(201);
      expect(payments.calls.authorize).toEqual([2455]);
      expect(await balanceOf(code)).toBe(0);
      const orderId = placed.json().order.id;
      const moves = await getDb()
        .selectFrom('gift_card_transactions')
        .selectAll()
        .where('order_id', '=', orderId)
        .execute();
      expect(moves.map((m) => [m.kind, Number(m.amount)])).toEqual([['redeem', 2500]]);
      expect(Number((await getDb().selectFrom('payments').select('amount').executeTakeFirstOrThrow()).amount)).toBe(
        2455,
      );

      // The order page and the e-mails show the card (by its last four) and what was charged to the card.
      const last4 = code.slice(-4);
      const page = await app.inject({ method: 'GET', url: `/checkout/order/${orderId}`, headers: { host: SHOP_HOST } });
      expect(page.statusCode).toBe(200);
      const body = page.body.replace(/<!-- -->/g, ''); // React's separators between text parts
      expect(body).toContain(`<dt>Gift card •••• ${last4}</dt><dd data-total="gift-card">−$25.00</dd>`);
      expect(body).toContain('<dt>Charged to card</dt><dd data-total="due">$24.55</dd>');
      const smtp = await startSmtpServer();
      try {
        await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'));
        const confirmation = smtp.received.find((m) => m.envelopeTo.includes('ada@example.com'))!;
        expect(confirmation.text).toContain(`Total: $49.55\nGift card •••• ${last4}: −$25.00\nCharged to card: $24.55`);
        expect(confirmation.html).toContain(`Gift card •••• ${last4}</th>`);
        expect(confirmation.html).toContain('Charged to card</th>');
        const notice = smtp.received.find(
          (m) => !m.envelopeTo.includes('ada@example.com') && !m.envelopeTo.includes('test@example.com'),
        )!;
        expect(notice.text).toContain(`Gift card •••• ${last4}: −$25.00\nCharged to card: $24.55`);
      } finally {
        await smtp.close();
      }
    });

    it('pays a whole order with several cards and asks the payment provider for nothing', async () => {
      const first = await issue(3000);
      const second = await issue(5000);
      const cookie = await cartWith('limited', 'limited-1');
      const quote = (await json('POST', QUOTE_API, { giftCardCodes: [first, second] }, cookie)).json();
      expect(quote.giftCards.map((c: { amountCents: number }) => c.amountCents)).toEqual([3000, 1600]);
      expect(quote.amountDueCents).toBe(0);
      const placed = await order(cookie, { giftCardCodes: [first, second], payment: {} });
      expect(placed.statusCode, placed.body).toBe(201);
      expect(payments.calls.authorize).toEqual([]);
      expect(await balanceOf(first)).toBe(0);
      expect(await balanceOf(second)).toBe(3045);
    });

    it('says why a code does not apply, and refuses the order without writing anything', async () => {
      const spent = await issue(100);
      const cookie = await cartWith('limited', 'limited-1');
      await getDb().updateTable('gift_cards').set({ balance: 0 }).execute();
      const cases: [string[], string][] = [
        [['ABCD-EFGH-JKLM-NPQR'], GIFT_CARD_MESSAGES.invalid],
        [['not a code'], GIFT_CARD_MESSAGES.invalid],
        [[spent], GIFT_CARD_MESSAGES.usedUp],
      ];
      for (const [codes, message] of cases) {
        const quote = (await json('POST', QUOTE_API, { giftCardCodes: codes }, cookie)).json();
        expect(quote.giftCardError, codes[0]).toBe(message);
        expect(quote.giftCards).toEqual([]);
        const refused = await order(cookie, { giftCardCodes: codes });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ message, fields: { giftCardCode: message } });
      }
      expect(await count('orders')).toBe(0);
      expect(await count('payments')).toBe(0);
      expect(payments.calls.authorize).toEqual([]);
    });

    it('leaves the balance whole when the card part of the payment is declined', async () => {
      const code = await issue(2500);
      const cookie = await cartWith('limited', 'limited-1');
      const declined = await order(cookie, { giftCardCodes: [code], payment: DECLINED_CARD });
      expect(declined.statusCode).toBe(402);
      expect(await balanceOf(code)).toBe(2500);
      expect(await count('orders')).toBe(0);
      expect(
        Number(
          (
            await getDb()
              .selectFrom('gift_card_transactions')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('kind', '=', 'redeem')
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBe(0);
    });

    it('spends one balance once: 20 orders at once for the same full balance make exactly one order', async () => {
      const code = await issue(4955); // the order's total with the New York address
      const cookies: string[] = [];
      for (let i = 0; i < 20; i++) cookies.push(await cartWith('limited', 'limited-1'));
      const answers = await Promise.all(cookies.map((cookie) => order(cookie, { giftCardCodes: [code], payment: {} })));
      const placed = answers.filter((a) => a.statusCode === 201);
      expect(placed).toHaveLength(1);
      for (const refused of answers.filter((a) => a.statusCode !== 201)) {
        expect(refused.statusCode, refused.body).toBe(400);
        expect([GIFT_CARD_MESSAGES.usedUp, GIFT_CARD_MESSAGES.balanceChanged]).toContain(refused.json().message);
      }
      expect(await balanceOf(code)).toBe(0);
      expect(await count('orders')).toBe(1);
      expect(
        Number(
          (
            await getDb()
              .selectFrom('gift_card_transactions')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('kind', '=', 'redeem')
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBe(1);
      // The stock moved once too.
      expect(
        (
          await getDb()
            .selectFrom('variants')
            .select('qty_in_stock')
            .where('sku', '=', 'limited-1')
            .executeTakeFirstOrThrow()
        ).qty_in_stock,
      ).toBe(6);
    });

    it('gives the gift-card part back on a refund, and the card part through the provider', async () => {
      const code = await issue(2500);
      const cookie = await cartWith('limited', 'limited-1');
      const placed = await order(cookie, { giftCardCodes: [code] });
      expect(placed.statusCode, placed.body).toBe(201);
      const refunded = await refundOrder(getDb(), 'shop', placed.json().order.number, payments.provider);
      expect(refunded.ok).toBe(true);
      expect(payments.calls.refund).toEqual([2455]);
      expect(await balanceOf(code)).toBe(2500);
      const again = await refundOrder(getDb(), 'shop', placed.json().order.number, payments.provider);
      expect(again.ok).toBe(false);
      expect(await balanceOf(code)).toBe(2500);
      const moves = await getDb()
        .selectFrom('gift_card_transactions')
        .select(['kind', 'amount'])
        .orderBy('created_at')
        .execute();
      expect(moves.map((m) => m.kind).sort()).toEqual(['issue', 'redeem', 'refund']);
    });

    it('applies gift cards in the no-JavaScript form: Apply, then Remove', async () => {
      const code = await issue(1000);
      const cookie = await cartWith('limited', 'limited-1');
      const post = (fields: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: '/checkout',
          headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        });
      const applied = await post({ intent: 'quote', giftCardCode: code, giftCardCodes: '' });
      expect(applied.statusCode).toBe(200);
      expect(applied.body).toContain(`name="giftCardCodes" value="${code}"`);
      expect(applied.body).toContain(`•••• ${code.slice(-4)}`);
      expect(applied.body).toContain('Left to pay');
      expect(applied.body).toContain('$36.00');
      const wrong = await post({ intent: 'quote', giftCardCode: 'ABCD-EFGH-JKLM-NPQR', giftCardCodes: code });
      expect(wrong.body).toContain(GIFT_CARD_MESSAGES.invalid);
      expect(wrong.body).toContain(`name="giftCardCodes" value="${code}"`);
      const removed = await post({ removeGiftCard: code, giftCardCodes: code });
      expect(removed.body).toContain('name="giftCardCodes" value=""');
      expect(removed.body).not.toContain('Left to pay');
    });
  });
});
