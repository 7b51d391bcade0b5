/**
 * `vitrine restock` on SQLite and PostgreSQL: the list (by product and variant, every page; with --product each
 * sign-up), and `restock send` (nothing while sold out, as many as units with progress, the units spoken for, --all,
 * unknown names refused, sent at once to a real SMTP server when SMTP_URL is set; each send's audit entry, by 'vitrine
 * command'); wrong usage is exit 2 with a hint
 * before the database is touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/modules/admin';
import { signUpForRestock } from '../../src/modules/restock/signUps';
import { getSite, type Site } from '../../src/modules/site/sites';
import { vitrine } from '../support/cli';
import { forEachEngine } from '../support/engines';
import { restockSite, seedSite, withStock } from '../support/restockSite';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('vitrine restock: usage', () => {
  it('is in the help', async () => {
    const help = (await vitrine(['help'], 'sqlite::memory:')).out.join('\n');
    expect(help).toContain('restock [list] [--site ID] [--product ID]');
    expect(help).toContain('restock send --product ID --variant ID [--site ID] [--all]');
  });

  it('refuses wrong usage with exit code 2 and a hint, before touching the database', async () => {
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const cases: [string[], string][] = [
      [['restock', 'frob'], "unknown restock command 'frob' (use 'vitrine restock list' or 'vitrine restock send')"],
      [['restock', '--force'], "unknown option '--force' for 'restock list'"],
      [['restock', 'list', 'mug'], "unexpected argument 'mug' for 'restock list'"],
      [['restock', 'list', '--product'], "option '--product' needs a value"],
      [
        ['restock', 'send'],
        "'restock send' needs the variant: vitrine restock send --product ID --variant ID [--site ID] [--all]",
      ],
      [
        ['restock', 'send', '--product', 'mug'],
        "'restock send' needs the variant: vitrine restock send --product ID --variant ID [--site ID] [--all]",
      ],
      [
        ['restock', 'send', '--product', 'mug', '--variant', 'A', '--variant', 'B'],
        "option '--variant' is given twice",
      ],
      [['restock', 'send', '--product', 'mug', '--variant', 'A', '--now'], "unknown option '--now' for 'restock send'"],
    ];
    for (const [args, message] of cases) {
      const run = await vitrine(args, unreachable);
      expect(run.err, args.join(' ')).toEqual([`vitrine: ${message}. Run 'vitrine help' for usage.`]);
      expect(run.code).toBe(2);
      expect(run.out).toEqual([]);
    }
  });
});

forEachEngine((_engine, getDb, getFresh) => {
  let shop: Site;
  let smtp: TestSmtpServer;
  const run = (...args: string[]) => vitrine(['restock', ...args], getFresh().url);
  const signUp = async (email: string, variantId: string, productId = 'mug') => {
    const done = await signUpForRestock(
      getDb(),
      shop,
      { productId, variantId, siteVisitorEmail: email, isJoinMailingList: productId === 'mug' },
      { baseUrl: 'http://shop.test' },
    );
    expect(done.ok).toBe(true);
    await pause(3);
  };

  beforeAll(async () => {
    await seedSite(getDb(), restockSite);
    shop = (await getSite(getDb(), 'shop'))!;
    smtp = await startSmtpServer();
    delete process.env.SMTP_URL;
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('lists nothing, then the groups, then with --product each sign-up; an unknown site is named', async () => {
    expect(await run()).toEqual({ code: 0, out: ['No restock sign-ups yet.'], err: [] });
    for (const email of ['ada@example.com', 'bo@example.com', 'cy@example.com']) await signUp(email, 'MUG-SAGE');
    await signUp('dee@example.com', 'PRINT', 'print');
    const listed = await run('list');
    expect(listed.code).toBe(0);
    expect(listed.out).toEqual([
      'SITE  PRODUCT                VARIANT          WAITING  E-MAILED  STOCK  RESTOCKED (UTC)',
      'shop  Speckled mug [mug]     Sage [MUG-SAGE]        3         0      0',
      'shop  Harbour print [print]  PRINT                  1         0      0',
    ]);
    const mug = await run('--product', 'mug', '--site', 'shop');
    expect(mug.out.slice(0, 2)).toEqual([
      'SITE  PRODUCT             VARIANT          WAITING  E-MAILED  STOCK  RESTOCKED (UTC)',
      'shop  Speckled mug [mug]  Sage [MUG-SAGE]        3         0      0',
    ]);
    expect(mug.out[3]).toBe('Sage [MUG-SAGE]:');
    expect(mug.out[4]).toMatch(/^ {2}E-MAIL +SIGNED UP \(UTC\) +E-MAILED \(UTC\) +MAILING LIST$/);
    expect(mug.out.slice(5).map((l) => l.trim().split(/ {2,}/)[0])).toEqual([
      'ada@example.com',
      'bo@example.com',
      'cy@example.com',
    ]);
    expect(mug.out[5]).toMatch(/ada@example\.com +\d{4}-\d\d-\d\d \d\d:\d\d +yes$/);
    expect(await run('--product', 'nothing')).toEqual({
      code: 0,
      out: ["No restock sign-ups for product 'nothing'."],
      err: [],
    });
    expect(await run('--site', 'nope')).toEqual({
      code: 1,
      out: [],
      err: ["vitrine: there is no site 'nope' in the database"],
    });
  });

  it('sends nothing while sold out, then as many as units (with progress), then nothing more, then --all the rest', async () => {
    const send = (...more: string[]) => run('send', '--product', 'mug', '--variant', 'MUG-SAGE', ...more);
    expect(await send()).toEqual({
      code: 0,
      out: [
        "Sending the restock e-mails of mug / MUG-SAGE on site 'shop'…",
        'Nothing to send: Speckled mug (Sage) has no units in stock (3 waiting). Restock it first, or use --all to e-mail every waiting shopper.',
      ],
      err: [],
    });
    await seedSite(getDb(), withStock(restockSite, { 'MUG-SAGE': 2 }));
    expect(await send()).toEqual({
      code: 0,
      out: [
        "Sending the restock e-mails of mug / MUG-SAGE on site 'shop'…",
        '  2 e-mails queued…',
        'Queued 2 restock e-mails for Speckled mug (Sage) (2 in stock); 1 still waiting.',
        "They wait in the outbox (SMTP_URL is not set here): 'vitrine serve' with SMTP_URL sends them, or 'vitrine outbox send'.",
      ],
      err: [],
    });
    const outbox = await getDb()
      .selectFrom('outbox')
      .select('to_address')
      .where('kind', '=', 'restock-notification')
      .orderBy('to_address')
      .execute();
    expect(outbox.map((m) => m.to_address)).toEqual(['ada@example.com', 'bo@example.com']);
    // Its audit entry, by the command (as /admin's 'Send now' writes one by its staff member).
    const audit = await listAudit(getDb(), shop.id, { subject: { type: 'variant', id: 'MUG-SAGE' } });
    expect(audit.records.map((r) => ({ actor: r.actor, action: r.action, summary: r.summary }))).toEqual([
      {
        actor: 'vitrine command',
        action: 'restock.sent',
        summary: 'Sent the restock e-mail of MUG-SAGE to 2 waiting shoppers',
      },
    ]);
    expect((await send()).out[1]).toBe(
      'Nothing to send: the 2 in stock of Speckled mug (Sage) are spoken for by the shoppers e-mailed since it came back (1 waiting; --all e-mails them all).',
    );

    // --all, with SMTP_URL: sent at once, and it arrives.
    process.env.SMTP_URL = smtp.url;
    try {
      const all = await send('--all');
      expect(all.code).toBe(0);
      expect(all.out).toEqual([
        "Sending the restock e-mails of mug / MUG-SAGE on site 'shop' to every waiting shopper…",
        '  1 e-mail queued…',
        'Queued 1 restock e-mail for Speckled mug (Sage) (2 in stock); 0 still waiting.',
        `Sent 1 of 1 through ${smtp.url}.`,
      ]);
    } finally {
      delete process.env.SMTP_URL;
    }
    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([['cy@example.com']]);
    expect(smtp.received[0]!.headers.get('subject')).toBe('Back in stock: Speckled mug (Sage) — Shop');
    expect(smtp.received[0]!.text).toContain('http://shop.test/shop/p/mug');

    expect((await send()).out[1]).toBe('Nothing to send: nobody is waiting for Speckled mug (Sage).');
    // One entry per send that e-mailed someone (nothing sent, nothing written).
    const entries = (await listAudit(getDb(), shop.id, { subject: { type: 'variant', id: 'MUG-SAGE' } })).records;
    expect(entries.map((r) => r.summary)).toEqual([
      'Sent the restock e-mail of MUG-SAGE to 1 waiting shopper',
      'Sent the restock e-mail of MUG-SAGE to 2 waiting shoppers',
    ]);
    const listed = await run('--product', 'mug');
    expect(listed.out[1]).toMatch(
      /^shop {2}Speckled mug \[mug\] {2}Sage \[MUG-SAGE\] +0 +3 +2 {2}\d{4}-\d\d-\d\d \d\d:\d\d \(import\)$/,
    );
  });

  it('names an unknown product or variant (exit 1)', async () => {
    expect(await run('send', '--product', 'mug', '--variant', 'MUG-GOLD')).toMatchObject({
      code: 1,
      err: ["vitrine: The product 'mug' has no variant 'MUG-GOLD'."],
    });
    expect(await run('send', '--product', 'cup', '--variant', 'X', '--site', 'shop')).toMatchObject({
      code: 1,
      err: ["vitrine: There is no product 'cup' in site 'shop'."],
    });
    expect(await run('send', '--product', 'mug', '--variant', 'X', '--site', 'nope')).toMatchObject({
      code: 1,
      err: ["vitrine: there is no site 'nope' in the database"],
    });
  });
});
