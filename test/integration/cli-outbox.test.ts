/**
 * `vitrine outbox` (list, show, send) and the outbox job of `vitrine serve`, as a user runs them: with only the given
 * settings, on both engines, a real SMTP server in this process.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../src/core/result';
import { inTransaction } from '../../src/platform/db/transaction';
import { enqueueEmail, getOutboxMessage, type NewEmail } from '../../src/platform/mail/outbox';
import { enqueueOrderEmails, orderConfirmationEmail } from '../../src/modules/orders/mail';
import { createOrder } from '../../src/modules/orders/orders';
import type { Order } from '../../src/modules/orders/orderTypes';
import { getSite } from '../../src/modules/site/sites';
import { seedSite, shopSite } from '../support/cartSite';
import { serveProcess, vitrineProcess, vitrineWith, type CliOutput } from '../support/cli';
import { forEachEngine } from '../support/engines';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

// The commands run in this process, each with only its given settings in the environment (../support/cli.ts): a
// `vitrine` process costs seconds of CPU to start. Exit codes and stdout apart from stderr are checked on a real process
// once here, and `serve` (its background job, SIGTERM) is one.
const vitrine = vitrineWith;

// A `vitrine serve` process loads the app through tsx (seconds of CPU): on a machine busy with the other test files, a
// test that starts one can take longer than vitest's default 30 s without anything hanging.
vi.setConfig({ testTimeout: 120_000 });

/** stdout without the database line every command that opens the database prints first. */
const output = (run: CliOutput) => run.stdout.replace(/^Database .*\n/, '');

const email = (over: Partial<NewEmail> = {}): NewEmail => ({
  siteId: 'shop',
  kind: 'order-confirmation',
  to: 'ada@example.com',
  subject: 'Order #1 confirmed — Shop',
  text: 'Thank you for your order at Shop.\n\nTotal: $80.16\n',
  html: '<p>Thank you</p>',
  ...over,
});

describe('vitrine outbox: usage', () => {
  it('is in the help', async () => {
    const run = await vitrine(['help'], {});
    expect(run.stdout).toContain('outbox [--status pending|sent|failed] [--site ID] [--limit N]');
    expect(run.stdout).toContain('outbox show ID');
    expect(run.stdout).toContain('outbox send');
    expect(run.stdout).toContain('SMTP_URL');
    expect(run.stdout).toContain('MAIL_FROM');
  });

  it('refuses wrong usage with exit code 2 and a hint, before touching the database', async () => {
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const cases: [string[], string][] = [
      [
        ['outbox', 'purge'],
        "unknown outbox command 'purge' (use 'vitrine outbox', 'vitrine outbox show ID' or 'vitrine outbox send')",
      ],
      [['outbox', '--status', 'queued'], "option '--status' must be pending, sent or failed, not 'queued'"],
      [['outbox', '--limit', '0'], "option '--limit' must be a whole number from 1 to 10000, not '0'"],
      [['outbox', '--limit=abc'], "option '--limit' must be a whole number from 1 to 10000, not 'abc'"],
      [['outbox', '--site'], "option '--site' needs a value"],
      [['outbox', '--force'], "unknown option '--force' for 'outbox'"],
      [['outbox', 'show'], "'outbox show' needs the message id: vitrine outbox show ID"],
      [['outbox', 'show', 'a', 'b'], "'outbox show' takes one message id, got 2"],
      [['outbox', 'send', 'now'], "'outbox send' takes no arguments, got 'now'"],
    ];
    const runs = await Promise.all(cases.map(([args]) => vitrine(args, env)));
    runs.forEach((run, i) => {
      expect(run.stderr).toBe(`vitrine: ${cases[i]![1]}. Run 'vitrine help' for usage.\n`);
      expect(run.code).toBe(2);
    });
    // A process of its own ends with that code, the message on stderr alone.
    expect(await vitrineProcess(cases[0]![0], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: `vitrine: ${cases[0]![1]}. Run 'vitrine help' for usage.\n`,
    });
  });

  it('says SMTP_URL is needed to send, and names bad mail settings', async () => {
    const send = await vitrine(['outbox', 'send'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(send.code).toBe(1);
    expect(send.stderr).toBe(
      'vitrine: SMTP_URL is needed to send e-mail (e.g. SMTP_URL=smtp://user:password@mail.example.com:587); until it is set, messages wait in the outbox\n',
    );
    const bad = await vitrine(['outbox'], { SMTP_URL: 'http://me:secret@mail.x.com', MAIL_FROM: 'nobody' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'vitrine: invalid settings:\n' +
        "  SMTP_URL must be an smtp:// or smtps:// URL with a host (smtp://user:password@mail.example.com:587), not 'http://me:***@mail.x.com/'\n" +
        "  MAIL_FROM must be an e-mail address, as shop@example.com or Shop <shop@example.com>, not 'nobody'\n",
    );
  });
});

forEachEngine((engine, getDb, getFresh) => {
  let smtp: TestSmtpServer;
  const env = (more: Record<string, string> = {}) => ({ DATABASE_URL: getFresh().url, ...more });

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    smtp = await startSmtpServer({ user: 'shop@shop.test', pass: 'p@ss word' });
  });
  afterAll(async () => {
    await smtp?.close();
  });
  beforeEach(async () => {
    await getDb().deleteFrom('outbox').execute();
    smtp.reset();
  });

  it('lists the outbox newest first, filtered by status, site and limit', async () => {
    const empty = await vitrine(['outbox'], env());
    expect(empty.code).toBe(0);
    expect(output(empty)).toBe('No messages in the outbox.\n');

    const ids: string[] = [];
    for (const [i, at] of [
      '2031-03-01T10:00:00.000Z',
      '2031-03-01T11:00:00.000Z',
      '2031-03-01T12:00:00.000Z',
    ].entries()) {
      ids.push(
        await enqueueEmail(
          getDb(),
          email({ subject: `Order #${i + 1} confirmed — Shop`, to: `shopper${i + 1}@example.com` }),
          new Date(at),
        ),
      );
    }
    await getDb().updateTable('outbox').set({ status: 'sent', attempts: 1 }).where('id', '=', ids[0]!).execute();
    // A hostile address shows as text, never as terminal control sequences.
    await getDb()
      .updateTable('outbox')
      .set({ to_address: 'eve\u001b[2J@evil.test' })
      .where('id', '=', ids[1]!)
      .execute();

    const all = await vitrine(['outbox'], env());
    expect(all.code).toBe(0);
    const lines = output(all).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +CREATED \(UTC\) +STATUS +ATTEMPTS +TO +SUBJECT$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/))).toEqual([
      [ids[2], '2031-03-01 12:00:00', 'pending', '0', 'shopper3@example.com', 'Order #3 confirmed — Shop'],
      [ids[1], '2031-03-01 11:00:00', 'pending', '0', 'eve?[2J@evil.test', 'Order #2 confirmed — Shop'],
      [ids[0], '2031-03-01 10:00:00', 'sent', '1', 'shopper1@example.com', 'Order #1 confirmed — Shop'],
    ]);
    expect(all.stdout).not.toContain('\u001b');

    const [sent, limited, site, noSite, noneFailed] = await Promise.all([
      vitrine(['outbox', '--status', 'sent'], env()),
      vitrine(['outbox', '--limit=2'], env()),
      vitrine(['outbox', '--site', 'shop', '--status=pending'], env()),
      vitrine(['outbox', '--site', 'nope'], env()),
      vitrine(['outbox', '--status', 'failed', '--site', 'shop'], env()),
    ]);
    expect(
      output(sent)
        .split('\n')
        .slice(1, -1)
        .map((l) => l.split(/ {2,}/)[0]),
    ).toEqual([ids[0]]);
    expect(
      output(limited)
        .split('\n')
        .slice(1, -1)
        .map((l) => l.split(/ {2,}/)[0]),
    ).toEqual([ids[2], ids[1], '(the newest 2; --limit N shows more)']);
    expect(
      output(site)
        .split('\n')
        .slice(1, -1)
        .map((l) => l.split(/ {2,}/)[0]),
    ).toEqual([ids[2], ids[1]]);
    expect(noSite.code).toBe(1);
    expect(noSite.stderr).toBe("vitrine: there is no site 'nope' in the database\n");
    expect(output(noneFailed)).toBe("No failed messages in the outbox for site 'shop'.\n");
  });

  it('shows one message: its headers and its text', async () => {
    // Ids are random base64url: one in 64 starts with '-', which must still read as the id, not as an option.
    const queued = await enqueueEmail(getDb(), email({ orderId: 'ord_1' }), new Date('2031-03-01T10:00:00.000Z'));
    const id = `-${queued.slice(1)}`;
    await getDb().updateTable('outbox').set({ id }).where('id', '=', queued).execute();
    const run = await vitrine(['outbox', 'show', id], env({ MAIL_FROM: 'Shop <shop@shop.test>' }));
    expect(run.code).toBe(0);
    expect(output(run)).toBe(
      [
        `Id:         ${id}`,
        'Site:       shop',
        'Kind:       order-confirmation',
        'Order:      ord_1',
        'Status:     pending, 0 attempts, next attempt 2031-03-01 10:00:00 UTC',
        'Created:    2031-03-01 10:00:00 UTC',
        'From:       Shop <shop@shop.test>',
        'To:         ada@example.com',
        'Subject:    Order #1 confirmed — Shop',
        '',
        'Thank you for your order at Shop.',
        '',
        'Total: $80.16',
        '',
      ].join('\n'),
    );
    const unknown = await vitrine(['outbox', 'show', 'nope'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("vitrine: there is no outbox message 'nope'\n");
  });

  it("shows and sends an order's e-mail rendered from the stored order, and says why one whose order is gone cannot be", async () => {
    const site = (await getSite(getDb(), 'shop'))!;
    const placed = await inTransaction<Order, never>(getDb(), async (trx) => {
      const order = await createOrder(trx, {
        siteId: 'shop',
        cartId: `cart-${randomUUID()}`,
        email: 'ada@example.com',
        status: 'paid',
        currency: 'USD',
        totals: {
          subtotalCents: 2500,
          shippingCents: 0,
          taxCents: 0,
          discountCents: 0,
          grandTotalCents: 2500,
          pricesIncludeTax: false,
          taxName: 'Tax',
        },
        shippingAddress: null,
        shippingOption: null,
        couponCode: null,
        paymentProvider: 'test',
        now: new Date('2031-03-01T10:00:00.000Z'),
        lines: [
          {
            itemId: 'tee',
            sku: 'tee-m',
            title: 'Tee',
            productType: 1,
            attributes: {},
            additionalFields: '',
            additionalFieldsSummary: [],
            image: null,
            quantity: 1,
            unitPrice: 2500,
            lineTotal: 2500,
          },
        ],
      });
      await enqueueOrderEmails(trx, site, order, `http://shop.test/checkout/order/${order.id}`);
      return ok(order);
    });
    const order = (placed as { ok: true; value: Order }).value;
    const expected = orderConfirmationEmail(order, {
      siteTitle: site.title,
      orderUrl: `http://shop.test/checkout/order/${order.id}`,
      giftCards: [],
    });
    const { id } = await getDb()
      .selectFrom('outbox')
      .select('id')
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();

    const shown = await vitrine(['outbox', 'show', id], env());
    expect(shown.code).toBe(0);
    expect(output(shown)).toContain(`Subject:    ${expected.subject}\n\n${expected.text}`);
    const listed = await vitrine(['outbox'], env());
    expect(output(listed)).toContain(expected.subject);

    const sent = await vitrine(['outbox', 'send'], env({ SMTP_URL: smtp.url, MAIL_FROM: 'shop@shop.test' }));
    expect(sent.stderr).toBe('');
    expect(smtp.received.map((m) => m.headers.get('subject'))).toEqual([expected.subject]);
    expect(smtp.received[0]!.text).toContain(`View your order: http://shop.test/checkout/order/${order.id}`);

    // Its order gone (it never is, but say it were): shown without text, and never sent.
    await getDb().updateTable('outbox').set({ status: 'pending', attempts: 0 }).where('id', '=', id).execute();
    await getDb().deleteFrom('order_lines').where('order_id', '=', order.id).execute();
    await getDb().deleteFrom('orders').where('id', '=', order.id).execute();
    const reason = `cannot render the order-confirmation e-mail: order ${order.id} of site 'shop' is not in the database`;
    const gone = await vitrine(['outbox', 'show', id], env());
    expect(output(gone)).toMatch(
      new RegExp(`Subject: +${expected.subject}\n\n\\(no text: ${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)\n$`),
    );
    const refused = await vitrine(['outbox', 'send'], env({ SMTP_URL: smtp.url }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`vitrine: ${id} to ada@example.com not sent: ${reason}\n`);
    expect(output(refused)).toContain('Sent 0 of 1; 0 will be retried, 1 failed for good.\n');
    expect(await getOutboxMessage(getDb(), id)).toMatchObject({ status: 'failed', attempts: 1, lastError: reason });
  });

  it('sends the pending messages now through SMTP_URL, the ones waiting for a retry too', async () => {
    const fresh = await enqueueEmail(getDb(), email({ subject: 'Fresh' }));
    const waiting = await enqueueEmail(getDb(), email({ subject: 'Waiting' }));
    await getDb()
      .updateTable('outbox')
      .set({ attempts: 2, next_attempt_at: '2999-01-01T00:00:00.000Z', last_error: '421 busy' })
      .where('id', '=', waiting)
      .execute();
    const settings = env({ SMTP_URL: smtp.url, MAIL_FROM: 'Shop <shop@shop.test>' });
    const run = await vitrine(['outbox', 'send'], settings);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(output(run)).toBe(
      `Sending through ${smtp.url.replace(':p%40ss%20word@', ':***@')} from Shop <shop@shop.test>…\nSent 2 of 2; 0 will be retried, 0 failed for good.\n`,
    );
    expect(run.stdout).not.toContain('p%40ss');
    expect(smtp.received.map((m) => m.headers.get('subject')).sort()).toEqual(['Fresh', 'Waiting']);
    expect(
      smtp.received.every((m) => m.user === 'shop@shop.test' && m.headers.get('from') === 'Shop <shop@shop.test>'),
    ).toBe(true);
    expect((await getOutboxMessage(getDb(), fresh))?.status).toBe('sent');
    expect(await getOutboxMessage(getDb(), waiting)).toMatchObject({ status: 'sent', attempts: 3, lastError: null });

    const again = await vitrine(['outbox', 'send'], settings);
    expect(again.code).toBe(0);
    expect(output(again)).toContain('Nothing to send: no message is pending.\n');
  });

  it('says which messages could not be sent, exit code 1', async () => {
    const id = await enqueueEmail(getDb(), email());
    smtp.refuse('550 No such mailbox');
    const run = await vitrine(['outbox', 'send'], env({ SMTP_URL: smtp.url }));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `vitrine: ${id} to ada@example.com not sent: EENVELOPE: Can't send mail - all recipients were rejected: 550 No such mailbox\n`,
    );
    expect(output(run)).toContain('Sent 0 of 1; 1 will be retried, 0 failed for good.\n');
    expect(await getOutboxMessage(getDb(), id)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('serve sends the outbox in the background when SMTP_URL is set, and says so', async () => {
    const id = await enqueueEmail(getDb(), email({ subject: 'From the job' }));
    const server = await serve(env({ SMTP_URL: smtp.url, MAIL_FROM: 'shop@shop.test' }));
    try {
      expect(server.output()).toContain(
        `E-mail is sent through ${smtp.url.replace(':p%40ss%20word@', ':***@')} from shop@shop.test\n`,
      );
      const deadline = Date.now() + 20_000;
      while (smtp.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(smtp.received.map((m) => m.headers.get('subject'))).toEqual(['From the job']);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect((await getOutboxMessage(getDb(), id))?.status).toBe('sent');
  });

  it.skipIf(engine !== 'sqlite')('serve keeps e-mail in the outbox without SMTP_URL, and says so', async () => {
    const server = await serve(env());
    try {
      expect(server.output()).toContain(
        "E-mail is kept in the outbox (SMTP_URL is not set): 'vitrine outbox' lists it\n",
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

/** Starts `vitrine serve` and waits for its e-mail line (printed after "listening"). */
function serve(env: Record<string, string>): Promise<{ output: () => string; stop: () => Promise<number | null> }> {
  return serveProcess(env, /^E-mail is .*\n/m);
}
