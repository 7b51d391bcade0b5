/**
 * `vitrine orders` (list, show, refund) on SQLite and PostgreSQL: orders placed through the checkout API, then the
 * command run in this process against the same database (DATABASE_URL), its printed lines and exit codes checked;
 * and two refunds of one order at once putting the stock back once.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { paymentProviderFor, type PaymentProvider } from '../../src/modules/payments';
import { refundOrder } from '../../src/modules/orders/refunds';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { OTHER_HOST, otherSite } from '../support/cartSite';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { forEachEngine } from '../support/engines';
import { sendCrumbs } from '../support/crumb';
import { vitrine } from '../support/cli';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const ORDERS_API = '/api/commerce/checkout/orders';

/** A second site: euros, prices with VAT included, paid by bank transfer (orders await payment). */
const euroSite: SiteFileInput = {
  ...otherSite,
  website: {
    ...otherSite.website,
    store: {
      checkout: {
        shipsTo: ['DE'],
        shippingOptions: [{ id: 'dhl', name: 'DHL', rate: 490 }],
        tax: { pricesIncludeTax: true, rates: [{ country: 'DE', rate: 19, name: 'VAT' }] },
        payments: { provider: 'manual' },
      },
    },
  },
};

const BERLIN = {
  firstName: 'Karl',
  lastName: 'Muster',
  address1: 'Hauptstraße 1',
  address2: '',
  city: 'Berlin',
  country: 'DE',
  region: '',
  postalCode: '10115',
  phone: '',
};
const TORONTO = {
  firstName: 'Grace',
  lastName: 'Hopper',
  address1: '2 King Street',
  address2: 'Unit 5',
  city: 'Toronto',
  country: 'CA',
  region: 'ON',
  postalCode: 'M5V 2T6',
  phone: '+1 416 555 0100',
};

describe('vitrine orders: usage', () => {
  it('is in the help', async () => {
    const run = await vitrine(['help'], 'sqlite::memory:');
    const help = run.out.join('\n');
    expect(help).toContain('orders [--site ID] [--status paid|awaiting-payment|refunded] [--limit N]');
    expect(help).toContain('orders show N [--site ID]');
    expect(help).toContain('orders refund N [--site ID]');
    expect(help).toContain('[--amount AMOUNT | --line POS:QTY,…] [--reason TEXT] [--restock] [--yes]');
    expect(help).toContain('orders fulfil N [--site ID] [--carrier C] [--tracking T] [--no-email]');
    expect(help).toContain('orders unfulfil N [--site ID]');
  });

  it('refuses wrong usage with exit code 2 and a hint, before touching the database', async () => {
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const cases: [string[], string][] = [
      [
        ['orders', 'cancel', '1'],
        "unknown orders command 'cancel' (use 'vitrine orders', 'vitrine orders show N', 'vitrine orders refund N', 'vitrine orders fulfil N' or 'vitrine orders unfulfil N')",
      ],
      [
        ['orders', '--status', 'shipped'],
        "option '--status' must be paid, awaiting-payment or refunded, not 'shipped'",
      ],
      [['orders', '--limit', '0'], "option '--limit' must be a whole number from 1 to 10000, not '0'"],
      [['orders', '--limit=ten'], "option '--limit' must be a whole number from 1 to 10000, not 'ten'"],
      [['orders', '--site'], "option '--site' needs a value"],
      [['orders', '--force'], "unknown option '--force' for 'orders'"],
      [['orders', 'show'], "'orders show' needs the order number: vitrine orders show N"],
      [['orders', 'show', 'abc'], "the order number must be a positive whole number, not 'abc'"],
      [['orders', 'show', '0'], "the order number must be a positive whole number, not '0'"],
      [['orders', 'show', '1.5'], "the order number must be a positive whole number, not '1.5'"],
      [['orders', 'show', '1', '2'], "'orders show' takes one order number, got 2"],
      [['orders', 'show', '1', '--site'], "option '--site' needs a value"],
      [['orders', 'refund'], "'orders refund' needs the order number: vitrine orders refund N"],
      [['orders', 'refund', '-3'], "the order number must be a positive whole number, not '-3'"],
      [['orders', 'refund', '1', '--force'], "unknown option '--force' for 'orders refund'"],
      [['orders', 'refund', '1', '--status', 'paid'], "unknown option '--status' for 'orders refund'"],
      [['orders', 'fulfil'], "'orders fulfil' needs the order number: vitrine orders fulfil N"],
      [['orders', 'fulfil', '1', '--tracking'], "option '--tracking' needs a value"],
      [['orders', 'fulfil', '1', '--email'], "unknown option '--email' for 'orders fulfil'"],
      [
        ['orders', 'fulfil', '1', '--tracking', '1Z<script>'],
        '--tracking: The tracking number may have only letters, digits, spaces and dashes.',
      ],
      [['orders', 'unfulfil', '0'], "the order number must be a positive whole number, not '0'"],
    ];
    for (const [args, message] of cases) {
      const run = await vitrine(args, unreachable);
      expect(run.err, args.join(' ')).toEqual([`vitrine: ${message}. Run 'vitrine help' for usage.`]);
      expect(run.code).toBe(2);
      expect(run.out).toEqual([]);
    }
  });
});

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  let keyCounter = 0;
  const run = (...args: string[]) => vitrine(['orders', ...args], getFresh().url);

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    await seedSite(getDb(), euroSite);
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => {
    await app?.close();
  });

  const json = (host: string, url: string, payload: unknown, cookie?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(payload),
    });
  const cartCookieOf = (response: LightMyRequestResponse) =>
    `CART=${response.cookies.find((c) => c.name === 'CART')!.value}`;
  /** Places an order through the API on `host` for these lines; its number. */
  const placeOrder = async (
    host: string,
    lines: { itemId: string; sku?: string; quantity: number; additionalFields?: unknown }[],
    details: Record<string, unknown>,
  ): Promise<number> => {
    let cookie: string | undefined;
    for (const line of lines) {
      const added = await json(host, ENTRIES_API, { additionalFields: '', ...line }, cookie);
      expect(added.statusCode, added.body).toBe(200);
      cookie ??= cartCookieOf(added);
    }
    const idempotencyKey = `cli-orders-${engine}-${(keyCounter++).toString().padStart(6, '0')}`;
    const placed = await json(host, ORDERS_API, { idempotencyKey, payment: TEST_CARD, ...details }, cookie);
    expect(placed.statusCode, placed.body).toBe(201);
    return (placed.json() as { order: { number: number } }).order.number;
  };
  const stockOf = async (sku: string) =>
    (await getDb().selectFrom('variants').select('qty_in_stock').where('sku', '=', sku).executeTakeFirstOrThrow())
      .qty_in_stock;
  const orderRow = (siteId: string, number: number) =>
    getDb()
      .selectFrom('orders')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('number', '=', number)
      .executeTakeFirstOrThrow();
  const paymentOf = async (siteId: string, number: number) =>
    (
      await getDb()
        .selectFrom('payments')
        .select('status')
        .where('order_id', '=', (await orderRow(siteId, number)).id)
        .executeTakeFirstOrThrow()
    ).status;

  it('says when there are no orders, and names an unknown site', async () => {
    expect(await run()).toEqual({ code: 0, out: ['No orders yet.'], err: [] });
    expect(await run('--status', 'refunded')).toEqual({ code: 0, out: ['No refunded orders.'], err: [] });
    expect(await run('--site', 'nope')).toEqual({
      code: 1,
      out: [],
      err: ["vitrine: there is no site 'nope' in the database"],
    });
    expect(await run('show', '1', '--site=nope')).toEqual({
      code: 1,
      out: [],
      err: ["vitrine: there is no site 'nope' in the database"],
    });
    expect(await run('show', '1')).toEqual({ code: 1, out: [], err: ["vitrine: site 'shop' has no order #1"] });
  });

  describe('with orders placed through the checkout', () => {
    const times = [
      '2026-11-20T09:00:00.000Z',
      '2026-11-21T10:30:00.000Z',
      '2026-11-22T18:45:10.000Z',
      '2026-11-23T08:05:00.000Z',
    ];

    beforeAll(async () => {
      const shopper = { email: 'ada@example.com', shippingAddress: NEW_YORK, shippingOptionId: 'standard' };
      // Shop #1: $80.00 + $9.99 = $89.99 ships free (over $75); New York tax 8.875 % = $7.99.
      expect(
        await placeOrder(
          SHOP_HOST,
          [
            { itemId: 'limited', sku: 'limited-1', quantity: 2 },
            { itemId: 'ebook', sku: 'ebook-1', quantity: 1 },
          ],
          shopper,
        ),
      ).toBe(1);
      // Euro #1: 2 × €10.00 + DHL €4.90, VAT included (19 % of €20.00 is €3.19), awaiting a bank transfer.
      expect(
        await placeOrder(OTHER_HOST, [{ itemId: 'tee', quantity: 2 }], {
          email: 'karl@example.de',
          shippingAddress: BERLIN,
          shippingOptionId: 'dhl',
        }),
      ).toBe(1);
      // Shop #2: $39.00 engraved + $25.00 tee, 10 % off ($6.40), express $15.00, tax 8.875 % of $57.60 = $5.11.
      const engraving = { 'engraving-text': 'Happy birthday, Sam', lettering: 'Serif', notes: '' };
      const lines = [
        { itemId: 'engraved', sku: 'engraved-1', quantity: 1, additionalFields: engraving },
        { itemId: 'tee', sku: 'tee-s-red', quantity: 1 },
      ];
      expect(
        await placeOrder(SHOP_HOST, lines, {
          ...shopper,
          email: 'grace@example.com',
          shippingOptionId: 'express',
          couponCode: 'welcome10',
        }),
      ).toBe(2);
      // Shop #3: $99.00 to Canada by Canada Post, no tax there.
      expect(
        await placeOrder(SHOP_HOST, [{ itemId: 'kit', sku: 'kit-1', quantity: 1 }], {
          email: 'grace@example.com',
          shippingAddress: TORONTO,
          shippingOptionId: 'canada-post',
        }),
      ).toBe(3);
      // Known times, so the listing's order and dates can be compared.
      for (const [siteId, number, at] of [
        ['shop', 1, times[0]],
        ['other', 1, times[1]],
        ['shop', 2, times[2]],
        ['shop', 3, times[3]],
      ] as const) {
        await getDb()
          .updateTable('orders')
          .set({ created_at: at })
          .where('site_id', '=', siteId)
          .where('number', '=', number)
          .execute();
      }
    });

    it('lists the orders newest first, filtered by site, status and limit', async () => {
      expect(await run()).toEqual({
        code: 0,
        err: [],
        out: [
          'NUMBER  PLACED (UTC)         STATUS            E-MAIL               TOTAL  SITE',
          '    #3  2026-11-23 08:05:00  paid              grace@example.com  $108.00  shop',
          '    #2  2026-11-22 18:45:10  paid              grace@example.com   $77.71  shop',
          '    #1  2026-11-21 10:30:00  awaiting-payment  karl@example.de     €24.90  other',
          '    #1  2026-11-20 09:00:00  paid              ada@example.com     $97.98  shop',
        ],
      });
      expect((await run('--site', 'other')).out).toEqual([
        'NUMBER  PLACED (UTC)         STATUS            E-MAIL            TOTAL  SITE',
        '    #1  2026-11-21 10:30:00  awaiting-payment  karl@example.de  €24.90  other',
      ]);
      expect((await run('--status=paid', '--site', 'shop', '--limit', '2')).out).toEqual([
        'NUMBER  PLACED (UTC)         STATUS  E-MAIL               TOTAL  SITE',
        '    #3  2026-11-23 08:05:00  paid    grace@example.com  $108.00  shop',
        '    #2  2026-11-22 18:45:10  paid    grace@example.com   $77.71  shop',
        '(the newest 2; --limit N shows more)',
      ]);
      expect((await run('--status', 'awaiting-payment', '--site', 'shop')).out).toEqual([
        'No awaiting-payment orders.',
      ]);
    });

    it('shows an order in full: lines with options and form answers, discount, shipping, tax, address, page', async () => {
      const id = (await orderRow('shop', 2)).id;
      expect(await run('show', '2')).toEqual({
        code: 0,
        err: [],
        out: [
          'Order #2',
          `Id:          ${id}`,
          'Site:        shop',
          'Placed:      2026-11-22 18:45:10 UTC',
          'Status:      paid',
          'E-mail:      grace@example.com',
          'Payment:     test',
          `Order page:  /checkout/order/${id}`,
          '',
          'Items:',
          '  Engraved mug, sku engraved-1',
          '    Engraving text: Happy birthday, Sam',
          '    Lettering: Serif',
          '    Notes: None',
          '    1 × $39.00 = $39.00',
          '  Tee (Size: S, Colour: Red), sku tee-s-red',
          '    1 × $25.00 = $25.00',
          '',
          'Subtotal:                     $64.00',
          'Discount (coupon WELCOME10):  -$6.40',
          'Shipping (Express):           $15.00',
          'Sales tax:                     $5.11',
          'Total:                        $77.71',
          '',
          'Shipping to:',
          '  Ada Lovelace',
          '  1 Main Street',
          '  New York, NY 10001',
          '  United States',
        ],
      });
    });

    it('shows tax included in the prices, and an order of another site by --site', async () => {
      const run3 = await run('show', '3');
      expect(run3.out.slice(-12)).toEqual([
        'Subtotal:                 $99.00',
        'Shipping (Canada Post):    $9.00',
        'Tax:                       $0.00',
        'Total:                   $108.00',
        '',
        'Shipping to:',
        '  Grace Hopper',
        '  2 King Street',
        '  Unit 5',
        '  Toronto, ON M5V 2T6',
        '  Canada',
        '  +1 416 555 0100',
      ]);
      const euro = await run('show', '1', '--site', 'other');
      expect(euro.code).toBe(0);
      expect(euro.out).toContain('Status:      awaiting-payment');
      expect(euro.out).toContain('Payment:     manual');
      expect(euro.out.slice(euro.out.indexOf('Items:'))).toEqual([
        'Items:',
        '  Other tee, sku other-tee',
        '    2 × €10.00 = €20.00',
        '',
        'Subtotal:        €20.00',
        'Shipping (DHL):   €4.90',
        'Total:           €24.90',
        'Includes VAT:     €3.19',
        '',
        'Shipping to:',
        '  Karl Muster',
        '  Hauptstraße 1',
        '  10115 Berlin',
        '  Germany',
      ]);
    });

    it('refunds an order through the provider and puts its stock back, once', async () => {
      expect(await stockOf('limited-1')).toBe(5);
      const refunded = await run('refund', '1', '--yes');
      expect(refunded).toEqual({ code: 0, err: [], out: ['Refunded order #1 ($97.98); stock put back for 2 items.'] });
      expect((await orderRow('shop', 1)).status).toBe('refunded');
      expect(await paymentOf('shop', 1)).toBe('refunded');
      expect(await stockOf('limited-1')).toBe(7);

      const again = await run('refund', '1', '--yes');
      expect(again).toEqual({ code: 1, out: [], err: ['vitrine: order #1 is already refunded'] });
      expect(await stockOf('limited-1')).toBe(7);
      expect(await run('refund', '99', '--yes')).toEqual({
        code: 1,
        out: [],
        err: ["vitrine: site 'shop' has no order #99"],
      });
      expect((await run('--status', 'refunded')).out).toEqual([
        'NUMBER  PLACED (UTC)         STATUS    E-MAIL            TOTAL  SITE',
        '    #1  2026-11-20 09:00:00  refunded  ada@example.com  $97.98  shop',
      ]);
    });

    it('refunds part of an order by line or amount, with a reason, and asks to confirm without --yes', async () => {
      // Order #2 is still paid: refusing without --yes (no terminal here) changes nothing.
      expect(await run('refund', '2', '--amount', '1.00', '--reason', 'Late')).toEqual({
        code: 1,
        out: [],
        err: [
          expect.stringMatching(/^vitrine: nothing refunded: run it again with --yes to refund \$1\.00 of order #2$/),
        ],
      });
      expect(Number((await orderRow('shop', 2)).refunded_total)).toBe(0);
      expect(await run('refund', '2', '--amount', '1.00', '--yes')).toEqual({
        code: 1,
        out: [],
        err: ['vitrine: a partial refund needs --reason TEXT'],
      });
      expect(await run('refund', '2', '--amount', '1.00', '--reason', 'Late', '--yes')).toEqual({
        code: 0,
        err: [],
        out: ['Refunded $1.00 of order #2; payment: Partially refunded.'],
      });
      expect(Number((await orderRow('shop', 2)).refunded_total)).toBe(100);
      expect((await run('refund', '2', '--line', '9:1', '--reason', 'x', '--yes')).err[0]).toMatch(/has no line 9/);
    });

    it('refunds through the provider that took the payment, not the one the site uses now', async () => {
      // As if order #3 had been paid with Stripe before the shop moved to the test provider.
      await getDb()
        .updateTable('orders')
        .set({ payment_provider: 'stripe' })
        .where('site_id', '=', 'shop')
        .where('number', '=', 3)
        .execute();
      try {
        expect(await run('refund', '3', '--yes')).toEqual({
          code: 1,
          out: [],
          err: [
            'vitrine: cannot refund order #3: the site takes payments with Stripe, but STRIPE_SECRET_KEY is not set (its secret key, sk_live_… or sk_test_…)',
          ],
        });
        expect((await orderRow('shop', 3)).status).toBe('paid');
        expect(await stockOf('kit-1')).toBe(4);
      } finally {
        await getDb()
          .updateTable('orders')
          .set({ payment_provider: 'test' })
          .where('site_id', '=', 'shop')
          .where('number', '=', 3)
          .execute();
      }
    });

    it('refunds an order awaiting payment by releasing it (a manual payment), on the site named', async () => {
      expect(await stockOf('other-tee')).toBe(48);
      expect(await run('refund', '--site', 'other', '1', '--yes')).toEqual({
        code: 0,
        err: [],
        out: ['Refunded order #1 (€24.90); stock put back for 2 items.'],
      });
      expect((await orderRow('other', 1)).status).toBe('refunded');
      expect(await paymentOf('other', 1)).toBe('voided');
      expect(await stockOf('other-tee')).toBe(50);
    });
  });

  it('puts the stock back once when the same order is refunded twice at once', { timeout: 60_000 }, async () => {
    const inner = paymentProviderFor({ provider: 'test', manualInstructions: '' }, {});
    let refundCalls = 0;
    const provider: PaymentProvider = {
      ...inner,
      refund: (ref, amount, key) => (refundCalls++, inner.refund(ref, amount, key)),
    };
    const shopper = { email: 'ada@example.com', shippingAddress: NEW_YORK, shippingOptionId: 'standard' };
    // Both runs share the whole-order refund's key: the provider is asked once, whichever run gets there first.
    for (let round = 0; round < 5; round++) {
      refundCalls = 0;
      const before = await stockOf('tee-s-blue');
      const number = await placeOrder(SHOP_HOST, [{ itemId: 'tee', sku: 'tee-s-blue', quantity: 3 }], shopper);
      expect(await stockOf('tee-s-blue')).toBe(before - 3);
      const results = await Promise.all([
        refundOrder(getDb(), 'shop', number, provider),
        refundOrder(getDb(), 'shop', number, provider),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.error.type)).toEqual(['ALREADY_REFUNDED']);
      expect(await stockOf('tee-s-blue')).toBe(before);
      expect((await orderRow('shop', number)).status).toBe('refunded');
      expect(await paymentOf('shop', number)).toBe('refunded');
      expect(refundCalls).toBe(1);
    }
  });

  it('fulfils an order with a carrier and tracking number (the e-mail, the audit entry), and undoes it', async () => {
    const shopper = { email: 'grace@example.com', shippingAddress: NEW_YORK, shippingOptionId: 'standard' };
    const number = await placeOrder(SHOP_HOST, [{ itemId: 'kit', sku: 'kit-1', quantity: 1 }], shopper);
    const fulfilled = await run('fulfil', String(number), '--carrier', 'UPS', '--tracking', '1Z 999 AA1');
    expect(fulfilled).toEqual({
      code: 0,
      out: [
        `Fulfilled order #${number} (UPS 1Z 999 AA1); the shipping e-mail to the customer is in the outbox.`,
        'Tracking: https://www.ups.com/track?tracknum=1Z999AA1',
      ],
      err: [],
    });
    const row = await orderRow('shop', number);
    expect(row.fulfilment).toBe('fulfilled');
    const mail = await getDb()
      .selectFrom('outbox')
      .select(['subject', 'to_address'])
      .where('order_id', '=', row.id)
      .where('kind', '=', 'order-shipped')
      .execute();
    expect(mail).toEqual([
      { subject: expect.stringContaining(`Your order #${number} is on its way`), to_address: 'grace@example.com' },
    ]);
    const audit = await getDb()
      .selectFrom('audit_log')
      .select(['action', 'summary', 'actor'])
      .where('subject_id', '=', row.id)
      .where('action', '=', 'order.fulfilled')
      .execute();
    expect(audit).toEqual([
      {
        action: 'order.fulfilled',
        summary: `Fulfilled order ${number} (UPS 1Z 999 AA1); shipping e-mail sent to the customer`,
        actor: 'vitrine command',
      },
    ]);
    // Again: told, nothing changed.
    expect(await run('fulfil', String(number))).toEqual({
      code: 1,
      out: [],
      err: [`vitrine: Order ${number} is already fulfilled (someone else may have just done it). Nothing was changed.`],
    });

    expect(await run('unfulfil', String(number))).toEqual({
      code: 0,
      out: [`Order #${number} is pending again (its shipment removed; the audit log keeps it).`],
      err: [],
    });
    expect((await orderRow('shop', number)).fulfilment).toBe('pending');
    expect(await run('unfulfil', String(number))).toEqual({
      code: 1,
      out: [],
      err: [`vitrine: Order ${number} is not fulfilled (someone else may have just changed it). Nothing was changed.`],
    });

    // --no-email: fulfilled without a second e-mail.
    expect(await run('fulfil', String(number), '--no-email')).toEqual({
      code: 0,
      out: [`Fulfilled order #${number}; no e-mail sent.`],
      err: [],
    });
    const mails = await getDb()
      .selectFrom('outbox')
      .select('id')
      .where('order_id', '=', row.id)
      .where('kind', '=', 'order-shipped')
      .execute();
    expect(mails).toHaveLength(1);
    expect(await run('fulfil', '9999')).toEqual({ code: 1, out: [], err: ["vitrine: site 'shop' has no order #9999"] });
    expect((await run('fulfil', String(number), '--carrier', 'ups')).code).toBe(2);
  });
});
