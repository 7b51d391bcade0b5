/**
 * An order's e-mails written as render data in the order's transaction and rendered when the outbox sends or shows
 * them (src/modules/orders/mail.tsx), on both engines: what is sent is byte for byte what rendering them at placement
 * gave (gift cards, manual-payment instructions, a site title and instructions to escape), even once the order was
 * paid or refunded since; an order rolled back writes nothing; a message whose order is gone or whose data is
 * unreadable is marked failed with the reason (the rest of the drain goes on); a database error while rendering is
 * retried later like a failed send. Migration 014 leaves the messages already in the outbox as they were.
 */
import { Migrator, sql } from 'kysely';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { migrations, migrateToLatest } from '../../src/platform/db/migrations';
import { err, ok } from '../../src/core/result';
import { inTransaction } from '../../src/platform/db/transaction';
import { giftCardPaymentsOfOrder, spendGiftCards } from '../../src/modules/giftCards/giftCards';
import { drainOutbox, getOutboxMessage, listOutbox } from '../../src/platform/mail/outbox';
import { registerModuleMailKinds } from '../../src/modules/mailKinds';
import { enqueueOrderEmails, newOrderEmail, orderConfirmationEmail } from '../../src/modules/orders/mail';
import type { RenderedEmail } from '../../src/platform/mail/render';
import type { MailMessage, MailTransport } from '../../src/platform/mail/transport';
import { createOrder, markOrderRefunded, setOrderStatus } from '../../src/modules/orders/orders';
import type { Order } from '../../src/modules/orders/orderTypes';
import { getSite, type Site } from '../../src/modules/site/sites';
import { checkoutSite, NEW_YORK, seedSite } from '../support/checkoutSite';
import { createFreshDb, describeEachEngine, forEachEngine } from '../support/engines';

/** A transport that keeps every message as handed to it (the exact strings SMTP would get). */
function capturingTransport(): MailTransport & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (message) => void sent.push(message) };
}

const ORDER_URL = 'http://shop.test/checkout/order/';

// The server and the CLI register the modules' kinds of mail at their start; this file drives the outbox itself.
registerModuleMailKinds();

forEachEngine((_engine, getDb) => {
  let site: Site;

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    site = (await getSite(getDb(), 'shop'))!;
  });
  beforeEach(async () => {
    for (const table of ['outbox', 'gift_card_transactions', 'gift_cards', 'order_lines', 'orders'] as const)
      await getDb().deleteFrom(table).execute();
  });

  /** An active card with this balance and last four. */
  const card = async (lastFour: string, balance: number): Promise<string> => {
    const id = `card-${lastFour}`;
    const now = new Date().toISOString();
    await getDb()
      .insertInto('gift_cards')
      .values({
        id,
        site_id: 'shop',
        code_hash: `hash-${lastFour}`,
        last_four: lastFour,
        currency: 'USD',
        initial_balance: balance,
        balance,
        status: 'active',
        order_id: null,
        purchaser_email: null,
        recipient_name: '',
        recipient_email: 'x@example.com',
        message: '',
        delivery_date: '2031-01-01',
        send_after: null,
        outbox_id: null,
        codes_made: 1,
        delivered_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  };

  /**
   * Places an order as the checkout does (createOrder, the gift cards spent, enqueueOrderEmails, in one transaction)
   * and answers what the e-mails were when they were rendered right there, as before render data.
   */
  const place = async (
    options: { site?: Site; status?: Order['status']; cards?: { id: string; amountCents: number }[] } = {},
  ) => {
    const on = options.site ?? site;
    const placed = await inTransaction<{ order: Order; confirmation: RenderedEmail; notice: RenderedEmail }, never>(
      getDb(),
      async (trx) => {
        const order = await createOrder(trx, {
          siteId: 'shop',
          cartId: `cart-${Math.random()}`,
          email: 'ada@example.com',
          status: options.status ?? 'paid',
          currency: 'USD',
          totals: {
            subtotalCents: 9000,
            shippingCents: 600,
            taxCents: 852,
            discountCents: 0,
            grandTotalCents: 10452,
            pricesIncludeTax: false,
            taxName: 'Sales tax',
          },
          shippingAddress: NEW_YORK,
          shippingOption: { id: 'standard', name: 'Standard', amount: 600 },
          couponCode: null,
          paymentProvider: options.status === 'awaiting-payment' ? 'manual' : 'test',
          lines: [
            {
              itemId: 'tee',
              sku: 'tee-m',
              title: 'Tee <b>"bold"</b> & co',
              productType: 1,
              attributes: { Size: 'M', Colour: 'Red' },
              additionalFields: '{"f":"x"}',
              additionalFieldsSummary: [{ title: 'Engraving', lines: ['Happy birthday', 'Ada'] }],
              image: null,
              quantity: 2,
              unitPrice: 2500,
              lineTotal: 5000,
            },
            {
              itemId: 'mug',
              sku: 'mug-1',
              title: 'Crème mug',
              productType: 1,
              attributes: {},
              additionalFields: '',
              additionalFieldsSummary: [],
              image: null,
              quantity: 1,
              unitPrice: 4000,
              lineTotal: 4000,
            },
          ],
          now: new Date(),
        });
        expect(await spendGiftCards(trx, order.id, options.cards ?? [], new Date())).toBe(true);
        const orderUrl = ORDER_URL + order.id;
        await enqueueOrderEmails(trx, on, order, orderUrl);
        // What enqueueOrderEmails wrote before render data: rendered here, in the order's transaction.
        const checkout = on.settings.store.checkout;
        const giftCards = await giftCardPaymentsOfOrder(trx, order.id);
        const manualInstructions =
          order.status === 'awaiting-payment' ? checkout.payments.manualInstructions : undefined;
        return ok({
          order,
          confirmation: orderConfirmationEmail(order, {
            siteTitle: on.title,
            orderUrl,
            giftCards,
            ...(manualInstructions ? { manualInstructions } : {}),
          }),
          notice: newOrderEmail(order, { siteTitle: on.title, orderUrl, giftCards }),
        });
      },
    );
    if (!placed.ok) throw new Error('not placed');
    return placed.value;
  };

  const asSent = (to: string, email: RenderedEmail): MailMessage => ({
    to,
    subject: email.subject,
    text: email.text,
    html: email.html,
  });

  it('writes render data, not bodies, and sends what rendering at placement gave, byte for byte', async () => {
    const a = await card('AAAA', 2000);
    const b = await card('BBBB', 500);
    const { order, confirmation, notice } = await place({
      cards: [
        { id: a, amountCents: 2000 },
        { id: b, amountCents: 500 },
      ],
    });
    expect(confirmation.text).toContain('Gift card •••• AAAA');
    expect(confirmation.text).toContain('Gift card •••• BBBB');

    const rows = await getDb().selectFrom('outbox').selectAll().orderBy('kind').execute();
    expect(
      rows.map((r) => ({
        kind: r.kind,
        to: r.to_address,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
        order: r.order_id,
        status: r.status,
      })),
    ).toEqual([
      {
        kind: 'new-order',
        to: 'orders@shop.test',
        subject: notice.subject,
        text: '',
        html: '',
        order: order.id,
        status: 'pending',
      },
      {
        kind: 'order-confirmation',
        to: 'ada@example.com',
        subject: confirmation.subject,
        text: '',
        html: '',
        order: order.id,
        status: 'pending',
      },
    ]);
    expect(JSON.parse(rows[1]!.render_data!)).toEqual({
      siteTitle: site.title,
      orderUrl: ORDER_URL + order.id,
      status: 'paid',
    });

    // Shown (`vitrine outbox show`, listings) as it is sent.
    const shown = await getOutboxMessage(getDb(), rows[1]!.id);
    expect({ subject: shown?.subject, text: shown?.text, html: shown?.html }).toEqual({
      subject: confirmation.subject,
      text: confirmation.text,
      html: confirmation.html,
    });
    expect(shown?.renderError).toBeUndefined();
    expect((await listOutbox(getDb())).map((m) => m.text).sort()).toEqual([confirmation.text, notice.text].sort());

    // Refunded before the e-mails went out (the cards get their money back): they still tell of the order as placed.
    await inTransaction<boolean, never>(getDb(), async (trx) => ok(await markOrderRefunded(trx, order.id, new Date())));
    const transport = capturingTransport();
    expect(await drainOutbox(getDb(), transport)).toEqual({ sent: 2, failed: 0, retried: 0, errors: [] });
    expect(transport.sent.sort((x, y) => x.to.localeCompare(y.to))).toEqual([
      asSent('ada@example.com', confirmation),
      asSent('orders@shop.test', notice),
    ]);
  });

  it('renders an order awaiting payment as placed, with the instructions of then, after it was paid', async () => {
    const manual = structuredClone(site);
    manual.title = 'Crème & <Co>';
    manual.settings.store.checkout.payments.manualInstructions =
      'Pay to IBAN DE00 1234\n<b>Reference</b>: your order number & name';
    const { order, confirmation, notice } = await place({ site: manual, status: 'awaiting-payment' });
    expect(confirmation.subject).toContain('awaiting payment');
    expect(confirmation.html).toContain('&lt;b&gt;Reference&lt;/b&gt;');

    await setOrderStatus(getDb(), order.id, 'paid', new Date());
    const transport = capturingTransport();
    expect(await drainOutbox(getDb(), transport)).toMatchObject({ sent: 2, failed: 0 });
    expect(transport.sent.sort((x, y) => x.to.localeCompare(y.to))).toEqual([
      asSent('ada@example.com', confirmation),
      asSent('orders@shop.test', notice),
    ]);
  });

  it('writes nothing for an order that rolls back', async () => {
    const rolledBack = await inTransaction<never, string>(getDb(), async (trx) => {
      const order = await createOrder(trx, {
        siteId: 'shop',
        cartId: 'cart-rb',
        email: 'ada@example.com',
        status: 'paid',
        currency: 'USD',
        totals: {
          subtotalCents: 100,
          shippingCents: 0,
          taxCents: 0,
          discountCents: 0,
          grandTotalCents: 100,
          pricesIncludeTax: false,
          taxName: 'Tax',
        },
        shippingAddress: null,
        shippingOption: null,
        couponCode: null,
        paymentProvider: 'test',
        lines: [],
        now: new Date(),
      });
      await enqueueOrderEmails(trx, site, order, ORDER_URL + order.id);
      return err('sold out');
    });
    expect(rolledBack.ok).toBe(false);
    expect(await getDb().selectFrom('outbox').select('id').execute()).toEqual([]);
  });

  it('marks failed, with the reason, a message whose order is gone or whose data is unreadable, and sends the rest', async () => {
    const gone = await place();
    const kept = await place();
    await getDb().deleteFrom('order_lines').where('order_id', '=', gone.order.id).execute();
    await getDb().deleteFrom('orders').where('id', '=', gone.order.id).execute();
    const keptNotice = await getDb()
      .selectFrom('outbox')
      .select('id')
      .where('order_id', '=', kept.order.id)
      .where('kind', '=', 'new-order')
      .executeTakeFirstOrThrow();
    await getDb().updateTable('outbox').set({ render_data: '{"siteTitle":' }).where('id', '=', keptNotice.id).execute();

    const goneMail = await getDb()
      .selectFrom('outbox')
      .select('id')
      .where('order_id', '=', gone.order.id)
      .where('kind', '=', 'order-confirmation')
      .executeTakeFirstOrThrow();
    const shown = await getOutboxMessage(getDb(), goneMail.id);
    expect(shown).toMatchObject({
      text: '',
      html: '',
      renderError: `cannot render the order-confirmation e-mail: order ${gone.order.id} of site 'shop' is not in the database`,
    });

    const transport = capturingTransport();
    const result = await drainOutbox(getDb(), transport);
    expect(result).toMatchObject({ sent: 1, failed: 3, retried: 0 });
    expect(transport.sent).toEqual([asSent('ada@example.com', kept.confirmation)]);
    const failed = await getDb()
      .selectFrom('outbox')
      .select(['id', 'kind', 'order_id', 'status', 'attempts', 'last_error'])
      .where('status', '=', 'failed')
      .execute();
    expect(failed).toHaveLength(3);
    for (const row of failed) {
      expect(row.attempts).toBe(1);
      expect(row.last_error).toBe(
        row.order_id === gone.order.id
          ? `cannot render the ${row.kind} e-mail: order ${gone.order.id} of site 'shop' is not in the database`
          : 'cannot render the new-order e-mail: its render data is not readable ("{\\"siteTitle\\":")',
      );
    }
    // Given up: not tried again.
    expect(await drainOutbox(getDb(), transport, { includeWaiting: true })).toMatchObject({
      sent: 0,
      failed: 0,
      retried: 0,
    });
  });

  it('retries later a message the database could not render, like a failed send', async () => {
    const { confirmation, notice } = await place();
    await sql`alter table order_lines rename to order_lines_away`.execute(getDb());
    let result;
    try {
      result = await drainOutbox(getDb(), capturingTransport());
    } finally {
      await sql`alter table order_lines_away rename to order_lines`.execute(getDb());
    }
    expect(result).toMatchObject({ sent: 0, failed: 0, retried: 2 });
    expect(result.errors[0]?.error).toMatch(/^could not render the e-mail: .*order_lines/);
    const transport = capturingTransport();
    expect(await drainOutbox(getDb(), transport, { includeWaiting: true })).toMatchObject({
      sent: 2,
      failed: 0,
      retried: 0,
    });
    expect(transport.sent.sort((x, y) => x.to.localeCompare(y.to))).toEqual([
      asSent('ada@example.com', confirmation),
      asSent('orders@shop.test', notice),
    ]);
  });
});

describeEachEngine(
  (engine) => `migration 014 on ${engine}`,
  (engine) => {
    it('keeps the messages already in the outbox as they are stored, and goes down again', async () => {
      const fresh = await createFreshDb(engine);
      try {
        const migrator = new Migrator({ db: fresh.db, provider: { getMigrations: async () => migrations(engine) } });
        // The site is stored by today's code (its tables as they are now), then the schema goes down to 013 with it.
        await migrateToLatest(fresh.db);
        await seedSite(fresh.db, checkoutSite);
        expect((await migrator.migrateTo('013_post_likes')).error).toBeUndefined();
        const time = new Date().toISOString();
        // A message written before render data, with the columns of then.
        await sql`insert into outbox (id, site_id, kind, to_address, subject, text_body, html_body, order_id, status, attempts, next_attempt_at, created_at)
        values ('old', 'shop', 'order-confirmation', 'ada@example.com', 'Order #1 confirmed — Shop', 'Thank you.', '<p>Thank you.</p>', 'gone', 'pending', 0, ${time}, ${time})`.execute(
          fresh.db,
        );
        expect((await migrateToLatest(fresh.db)).applied[0]).toBe('014_outbox_render_data');
        expect(await getOutboxMessage(fresh.db, 'old')).toMatchObject({
          text: 'Thank you.',
          html: '<p>Thank you.</p>',
          renderData: null,
        });
        const transport = capturingTransport();
        expect(await drainOutbox(fresh.db, transport)).toMatchObject({ sent: 1, failed: 0 });
        expect(transport.sent).toEqual([
          {
            to: 'ada@example.com',
            subject: 'Order #1 confirmed — Shop',
            text: 'Thank you.',
            html: '<p>Thank you.</p>',
          },
        ]);
        expect((await migrator.migrateTo('013_post_likes')).error).toBeUndefined();
        expect(
          (await fresh.db.introspection.getTables()).find((t) => t.name === 'outbox')?.columns.map((c) => c.name),
        ).not.toContain('render_data');
      } finally {
        await fresh.dispose();
      }
    });
  },
);
