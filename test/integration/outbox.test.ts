/**
 * The e-mail outbox against a real SMTP server (smtp-server on 127.0.0.1), on both engines: what drainOutbox sends
 * through smtpTransport arrives as written; a rolled-back transaction sends nothing; a refusing or unreachable
 * server leaves the message pending for a later attempt with growing delays, up to MAX_ATTEMPTS; three drains at once
 * (two of them other processes) send each message once; header injection is refused; each kind of mail is sent as
 * the module that registered it says (rendered from render data, or prepared just before the send).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from '../../src/core/result';
import { inTransaction } from '../../src/platform/db/transaction';
import {
  claimDueMessages,
  drainOutbox,
  enqueueEmail,
  enqueueEmailsToRender,
  getOutboxMessage,
  listOutbox,
  MAX_ATTEMPTS,
  type NewEmail,
} from '../../src/platform/mail/outbox';
import { registerMailKinds, type MailKind } from '../../src/platform/mail/kinds';
import { MailHeaderError, smtpTransport, type MailTransport } from '../../src/platform/mail/transport';
import { seedSite, shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const tmp = mkdtempSync(join(tmpdir(), 'vitrine-outbox-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MINUTE = 60_000;
const T0 = new Date('2031-03-01T10:00:00.000Z');
const later = (ms: number, from = T0) => new Date(from.getTime() + ms);

const email = (over: Partial<NewEmail> = {}): NewEmail => ({
  siteId: 'shop',
  kind: 'test',
  to: 'ada@example.com',
  subject: 'Hello',
  text: 'Hi Ada',
  html: '<p>Hi Ada</p>',
  ...over,
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  return typeof address === 'object' && address ? address.port : 1;
}

// Another process that drains the same database: connects, says 'ready', drains when told to, prints the result.
const DRAIN_SCRIPT = join(tmp, 'drain.mts');
writeFileSync(
  DRAIN_SCRIPT,
  `import { connect } from ${JSON.stringify(join(ROOT, 'src/platform/db/connect.ts'))};
import { drainOutbox } from ${JSON.stringify(join(ROOT, 'src/platform/mail/outbox.ts'))};
import { smtpTransport } from ${JSON.stringify(join(ROOT, 'src/platform/mail/transport.ts'))};
const [url, smtpUrl] = process.argv.slice(2);
const handle = connect(url);
await handle.db.selectFrom('outbox').select('id').limit(1).execute();
process.stdout.write('ready\\n');
process.stdin.once('data', async () => {
  const result = await drainOutbox(handle.db, smtpTransport(smtpUrl, 'shop@shop.test'));
  process.stdout.write(JSON.stringify(result) + '\\n');
  await handle.close();
  process.exit(0);
});
`,
);

function drainProcess(url: string, smtpUrl: string) {
  const child = spawn(TSX, [DRAIN_SCRIPT, url, smtpUrl], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const ready = new Promise<void>((r, fail) => {
    const timer = setInterval(() => output.includes('ready\n') && (clearInterval(timer), r()), 20);
    void exited.then((code) => (clearInterval(timer), fail(new Error(`drain process exited with ${code}: ${output}`))));
  });
  return {
    ready,
    go: () => child.stdin.write('go\n'),
    result: async () => {
      expect(await exited, output).toBe(0);
      return JSON.parse(output.trim().split('\n').pop() as string) as { sent: number; retried: number; failed: number };
    },
  };
}

/** Kinds of mail as a module registers them: one rendered from render data, one prepared just before the send. */
// Made once per drain: what it reads, it reads once for every message of the drain.
let renderersMade = 0;
const rendered: MailKind = {
  kind: 'test-rendered',
  renderer: () => {
    renderersMade += 1;
    return async (message) =>
      message.renderData === 'gone'
        ? err('cannot render the test-rendered e-mail: it is gone')
        : ok({ text: `Text of ${message.renderData}`, html: `<p>HTML of ${message.renderData}</p>` });
  },
};
const confirmed: string[] = [];
const prepared: MailKind = {
  kind: 'test-prepared',
  prepare: async (_db, message) =>
    message.subject === 'Busy'
      ? err({ reason: 'busy', message: 'another sender has it' })
      : message.subject === 'Gone'
        ? err({ reason: 'gone', message: 'it was withdrawn' })
        : ok({
            text: message.text.replace('[code]', 'SECRET'),
            html: message.html.replace('[code]', 'SECRET'),
            detail: 'SECRET',
            confirm: async (trx) => {
              confirmed.push(message.id);
              await trx.updateTable('outbox').set({ text_body: 'masked' }).where('id', '=', message.id).execute();
            },
          }),
};
forEachEngine((engine, getDb, getFresh) => {
  let smtp: TestSmtpServer;
  const transport = (): MailTransport => smtpTransport(smtp.url, 'Crème Shop <shop@shop.test>');
  const row = async (id: string) => (await getOutboxMessage(getDb(), id))!;

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  beforeEach(async () => {
    await getDb().deleteFrom('outbox').execute();
    smtp.reset();
  });

  it('sends a due message through a real SMTP server, with only from, to, subject and the two bodies', async () => {
    const text = 'Order #7\nTotal: NOK\u00a01,234.50\nCrème brûlée × 2';
    const html = '<p>Crème brûlée &amp; co — <strong>NOK&nbsp;1,234.50</strong></p>';
    const id = await enqueueEmail(
      getDb(),
      email({ subject: 'Order #7 confirmed — Crème & Co', text, html, orderId: 'order-7' }),
      T0,
    );
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: T0.toISOString(),
      lockedUntil: null,
      orderId: 'order-7',
    });

    expect(await drainOutbox(getDb(), transport(), { now: T0 })).toEqual({
      sent: 1,
      failed: 0,
      retried: 0,
      errors: [],
    });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeFrom).toBe('shop@shop.test');
    expect(mail.envelopeTo).toEqual(['ada@example.com']);
    expect(mail.headers.get('from')).toBe('Crème Shop <shop@shop.test>');
    expect(mail.headers.get('to')).toBe('ada@example.com');
    expect(mail.headers.get('subject')).toBe('Order #7 confirmed — Crème & Co');
    expect([...mail.headers.keys()].sort()).toEqual([
      'content-type',
      'date',
      'from',
      'message-id',
      'mime-version',
      'subject',
      'to',
    ]);
    expect(mail.text).toBe(text);
    expect(mail.html).toBe(html);

    expect(await row(id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      sentAt: T0.toISOString(),
      lockedUntil: null,
      lastError: null,
    });
    // Sent is sent: a second drain has nothing to do.
    expect(await drainOutbox(getDb(), transport(), { now: later(MINUTE) })).toMatchObject({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    expect(smtp.received).toHaveLength(1);
  });

  it('never sends a message whose transaction rolled back', async () => {
    await expect(
      getDb()
        .transaction()
        .execute(async (trx) => {
          await enqueueEmail(trx, email({ subject: 'Thrown away' }), T0);
          throw new Error('order refused');
        }),
    ).rejects.toThrow('order refused');
    // The checkout's way: a refused Result rolls back the transaction (BEGIN IMMEDIATE on SQLite).
    const refused = await inTransaction(getDb(), async (trx) => {
      await enqueueEmail(trx, email({ subject: 'Refused' }), T0);
      return err('sold out');
    });
    expect(refused).toEqual({ ok: false, error: 'sold out' });
    const kept = await inTransaction(getDb(), async (trx) =>
      ok(await enqueueEmail(trx, email({ subject: 'Committed' }), T0)),
    );

    expect((await listOutbox(getDb())).map((m) => m.subject)).toEqual(['Committed']);
    expect(await drainOutbox(getDb(), transport(), { now: T0 })).toMatchObject({ sent: 1 });
    expect(smtp.received.map((m) => m.headers.get('subject'))).toEqual(['Committed']);
    expect(kept.ok && (await row(kept.value)).status).toBe('sent');
  });

  it('keeps a message the server refuses pending, waits, then sends it on a later drain', async () => {
    const id = await enqueueEmail(getDb(), email(), T0);
    smtp.refuse('451 Try again later');
    const first = await drainOutbox(getDb(), transport(), { now: T0 });
    expect(first).toMatchObject({ sent: 0, retried: 1, failed: 0 });
    expect(first.errors[0]?.error).toContain('451 Try again later');
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: later(MINUTE).toISOString(),
      lockedUntil: null,
    });
    expect((await row(id)).lastError).toContain('451 Try again later');

    smtp.refuse(null);
    // Not due yet: nothing is tried.
    expect(await drainOutbox(getDb(), transport(), { now: later(30_000) })).toMatchObject({ sent: 0, retried: 0 });
    expect(smtp.received).toHaveLength(0);

    expect(await drainOutbox(getDb(), transport(), { now: later(MINUTE) })).toMatchObject({ sent: 1, retried: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('keeps messages pending while the server cannot be reached', async () => {
    const ids = [
      await enqueueEmail(getDb(), email({ subject: 'One' }), T0),
      await enqueueEmail(getDb(), email({ subject: 'Two' }), T0),
    ];
    const down = smtpTransport(`smtp://127.0.0.1:${await closedPort()}`, 'shop@shop.test');
    const result = await drainOutbox(getDb(), down, { now: T0 });
    expect(result).toMatchObject({ sent: 0, retried: 2, failed: 0 });
    expect(result.errors[0]?.error).toMatch(/ECONNREFUSED/);
    for (const id of ids)
      expect(await row(id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        nextAttemptAt: later(MINUTE).toISOString(),
      });

    expect(await drainOutbox(getDb(), transport(), { now: later(MINUTE) })).toMatchObject({ sent: 2 });
    expect(smtp.received.map((m) => m.headers.get('subject')).sort()).toEqual(['One', 'Two']);
  });

  it('waits 1 min, 5 min, 30 min, 2 h, then 6 h between attempts, and gives up after the 8th', async () => {
    const id = await enqueueEmail(getDb(), email(), T0);
    const failing: MailTransport = { send: () => Promise.reject(new Error('421 Service not available')) };
    const waits: number[] = [];
    let now = T0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await drainOutbox(getDb(), failing, { now });
      const message = await row(id);
      expect(message.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(result).toMatchObject({ retried: 1, failed: 0 });
        expect(message.status).toBe('pending');
        const next = new Date(message.nextAttemptAt);
        waits.push((next.getTime() - now.getTime()) / MINUTE);
        now = next;
      } else {
        expect(result).toMatchObject({ retried: 0, failed: 1 });
        expect(message).toMatchObject({ status: 'failed', lastError: '421 Service not available' });
      }
    }
    expect(waits).toEqual([1, 5, 30, 120, 360, 360, 360]);
    // Given up means given up, even a year later.
    expect(await drainOutbox(getDb(), transport(), { now: later(365 * 24 * 60 * MINUTE) })).toMatchObject({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    expect(smtp.received).toHaveLength(0);
  });

  it('leases what it claims: a claimed message is not claimed again until the lease ends', async () => {
    const id = await enqueueEmail(getDb(), email(), T0);
    const first = await claimDueMessages(getDb(), { now: T0, limit: 10, leaseMs: MINUTE });
    expect(first.map((m) => m.id)).toEqual([id]);
    expect(first[0]?.lockedUntil).toBe(later(MINUTE).toISOString());
    expect(await claimDueMessages(getDb(), { now: later(59_000), limit: 10, leaseMs: MINUTE })).toEqual([]);
    expect(await drainOutbox(getDb(), transport(), { now: later(59_000) })).toMatchObject({ sent: 0 });
    // The sender that claimed it died: once its lease is over, another one sends it.
    expect(await drainOutbox(getDb(), transport(), { now: later(MINUTE) })).toMatchObject({ sent: 1 });
  });

  it('three drains at once, two of them other processes, send each of 20 messages once', async () => {
    const subjects = Array.from({ length: 20 }, (_, i) => `Message ${i + 1}`);
    for (const subject of subjects) await enqueueEmail(getDb(), email({ subject }));
    smtp.setDelay(25);
    const others = [drainProcess(getFresh().url, smtp.url), drainProcess(getFresh().url, smtp.url)];
    await Promise.all(others.map((p) => p.ready));
    for (const p of others) p.go();
    const here = await drainOutbox(getDb(), transport());
    const results = [here, ...(await Promise.all(others.map((p) => p.result())))];

    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(20);
    expect(results.every((r) => r.retried === 0 && r.failed === 0)).toBe(true);
    expect(smtp.received).toHaveLength(20);
    expect(smtp.received.map((m) => m.headers.get('subject')).sort()).toEqual([...subjects].sort());
    const rows = await listOutbox(getDb(), { limit: 100 });
    expect(rows.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
  });

  it('refuses header injection: a recipient or subject with a line break, or more than one recipient', async () => {
    const base = { text: 't', html: '<p>t</p>' };
    const attempts = [
      { to: 'ada@example.com', subject: 'Hi\r\nBcc: eve@evil.test' },
      { to: 'ada@example.com', subject: 'Hi\nBcc: eve@evil.test' },
      { to: 'ada@example.com\r\nBcc: eve@evil.test', subject: 'Hi' },
      { to: 'ada@example.com, eve@evil.test', subject: 'Hi' },
      { to: 'Ada <ada@example.com>', subject: 'Hi' },
    ];
    for (const attempt of attempts)
      await expect(transport().send({ ...base, ...attempt })).rejects.toThrow(MailHeaderError);
    await expect(
      transport().send({ ...base, to: 'ada@example.com', subject: 'Hi', from: 'shop@shop.test\r\nBcc: eve@evil.test' }),
    ).rejects.toThrow(MailHeaderError);
    expect(smtp.received).toHaveLength(0);

    await expect(enqueueEmail(getDb(), email({ subject: 'Hi\r\nBcc: eve@evil.test' }))).rejects.toThrow(
      MailHeaderError,
    );
    await expect(enqueueEmail(getDb(), email({ to: 'ada@example.com\nBcc: eve@evil.test' }))).rejects.toThrow(
      MailHeaderError,
    );
    expect(await listOutbox(getDb())).toEqual([]);

    // An address the checkout's simple check lets through but that is not one plain address: given up at once,
    // never sent, and the other messages still go.
    const bad = await enqueueEmail(getDb(), email({ to: 'ada,eve@example.com' }), T0);
    const good = await enqueueEmail(getDb(), email({ subject: 'Fine' }), T0);
    expect(await drainOutbox(getDb(), transport(), { now: T0 })).toMatchObject({ sent: 1, failed: 1, retried: 0 });
    expect(await row(bad)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await row(bad)).lastError).toContain('must be one e-mail address on one line');
    expect((await row(good)).status).toBe('sent');
    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([['ada@example.com']]);
  });

  it('sends each kind as its module registered it, and never a message of a kind nobody renders', async () => {
    renderersMade = 0;
    confirmed.length = 0;
    registerMailKinds([rendered, prepared]);
    registerMailKinds([rendered]); // again at another entry point: nothing changes
    expect(() => registerMailKinds([{ kind: 'test-rendered' }])).toThrow(
      "the mail kind 'test-rendered' is registered twice",
    );

    const [one, two, gone, unknown] = await enqueueEmailsToRender(
      getDb(),
      [
        { siteId: 'shop', kind: 'test-rendered', to: 'ada@example.com', subject: 'One', renderData: 'one' },
        { siteId: 'shop', kind: 'test-rendered', to: 'ada@example.com', subject: 'Two', renderData: 'two' },
        { siteId: 'shop', kind: 'test-rendered', to: 'ada@example.com', subject: 'Gone', renderData: 'gone' },
        { siteId: 'shop', kind: 'nobody-renders', to: 'ada@example.com', subject: 'Lost', renderData: '{}' },
      ],
      T0,
    );
    const code = await enqueueEmail(
      getDb(),
      email({ kind: 'test-prepared', text: 'Code: [code]', html: '<p>[code]</p>' }),
      T0,
    );
    const busy = await enqueueEmail(getDb(), email({ kind: 'test-prepared', subject: 'Busy' }), T0);
    const withdrawn = await enqueueEmail(getDb(), email({ kind: 'test-prepared', subject: 'Gone' }), T0);

    expect(await row(two!)).toMatchObject({ text: 'Text of two', html: '<p>HTML of two</p>' });
    expect(await row(unknown!)).toMatchObject({
      text: '',
      renderError: 'cannot render the nobody-renders e-mail: no template renders that kind from render data',
    });

    renderersMade = 0;
    const details: [string, string][] = [];
    const result = await drainOutbox(getDb(), transport(), {
      now: T0,
      onSent: (id, detail) => details.push([id, detail]),
    });
    expect(result).toMatchObject({ sent: 3, failed: 3, retried: 0 });
    expect(renderersMade).toBe(1);
    expect(smtp.received.map((m) => [m.headers.get('subject'), m.text]).sort()).toEqual([
      ['Hello', 'Code: SECRET'],
      ['One', 'Text of one'],
      ['Two', 'Text of two'],
    ]);
    expect(details).toEqual([[code, 'SECRET']]);
    expect(confirmed).toEqual([code]);
    expect(await row(code)).toMatchObject({ status: 'sent', text: 'masked' });
    expect(await row(one!)).toMatchObject({ status: 'sent' });
    for (const [id, error] of [
      [gone!, 'cannot render the test-rendered e-mail: it is gone'],
      [unknown!, 'cannot render the nobody-renders e-mail: no template renders that kind from render data'],
      [withdrawn, 'it was withdrawn'],
    ] as const)
      expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: error });
    // Another sender's: left pending, untouched.
    expect(await row(busy)).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
  });

  it('lists newest first, by site and status', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await enqueueEmail(getDb(), email({ subject: `S${i}` }), later(i * 1000)));
    await drainOutbox(getDb(), transport(), { now: later(1000), limit: 2 });
    expect((await listOutbox(getDb())).map((m) => m.subject)).toEqual(['S3', 'S2', 'S1', 'S0']);
    expect((await listOutbox(getDb(), { status: 'sent' })).map((m) => m.subject)).toEqual(['S1', 'S0']);
    expect((await listOutbox(getDb(), { status: 'pending', limit: 1 })).map((m) => m.subject)).toEqual(['S3']);
    expect(await listOutbox(getDb(), { siteId: 'other' })).toEqual([]);
    expect(await getOutboxMessage(getDb(), 'nope')).toBeUndefined();
    expect(await row(ids[0]!)).toMatchObject({
      siteId: 'shop',
      kind: 'test',
      to: 'ada@example.com',
      text: 'Hi Ada',
      html: '<p>Hi Ada</p>',
    });
  });

  describe.skipIf(engine !== 'postgres')('PostgreSQL', () => {
    it('skips rows another claim holds locked (FOR UPDATE SKIP LOCKED)', async () => {
      for (let i = 0; i < 3; i++) await enqueueEmail(getDb(), email({ subject: `L${i}` }), T0);
      // Hold a row lock on every row in one transaction while another claims: it must not wait, and finds nothing.
      await getDb()
        .transaction()
        .execute(async (trx) => {
          await trx.selectFrom('outbox').select('id').forUpdate().execute();
          const claimed = await claimDueMessages(getDb(), { now: T0, limit: 10, leaseMs: MINUTE });
          expect(claimed).toEqual([]);
        });
      expect(await claimDueMessages(getDb(), { now: T0, limit: 10, leaseMs: MINUTE })).toHaveLength(3);
    });
  });
});
