/**
 * `vitrine giftcards` (list, issue) on SQLite and PostgreSQL: the command run in this process against the test
 * database (DATABASE_URL), its printed lines and exit codes checked.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { runCli } from '../../src/cli/run';
import { normalizeGiftCardCode } from '../../src/core/giftCard';
import { hashGiftCardCode } from '../../src/modules/giftCards/giftCards';
import { checkoutSite, seedSite } from '../support/checkoutSite';
import { forEachEngine } from '../support/engines';
import { startSmtpServer } from '../support/smtpServer';

async function vitrine(args: string[], databaseUrl: string, smtpUrl?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const previous = { DATABASE_URL: process.env.DATABASE_URL, SMTP_URL: process.env.SMTP_URL };
  process.env.DATABASE_URL = databaseUrl;
  if (smtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = smtpUrl;
  try {
    const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.filter((l, i) => !(i === 0 && l.startsWith('Database '))), err };
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('vitrine giftcards: usage', () => {
  it('is in the help', async () => {
    const help = (await vitrine(['help'], 'sqlite::memory:')).out.join('\n');
    expect(help).toContain('giftcards [--site ID] [--limit N]');
    expect(help).toContain('giftcards issue --amount 25.00 --email E [--name N] [--message M] [--site ID]');
  });

  it('refuses wrong usage with exit code 2 and a clear message, before touching the database', async () => {
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const cases: [string[], string][] = [
      [['giftcards', 'void'], "unknown giftcards command 'void'"],
      [['giftcards', '--limit', '0'], "option '--limit' must be a whole number from 1 to 10000, not '0'"],
      [['giftcards', 'issue'], "'giftcards issue' needs the amount"],
      [['giftcards', 'issue', '--amount', '25'], "'giftcards issue' needs the recipient's e-mail"],
      [['giftcards', 'issue', '--amount', '-5', '--email', 'a@b.co'], "option '--amount' must be an amount above 0"],
      [['giftcards', 'issue', '--amount', 'ten', '--email', 'a@b.co'], "option '--amount' must be an amount above 0"],
      [['giftcards', 'issue', '--amount', '0', '--email', 'a@b.co'], "option '--amount' must be an amount above 0"],
      [
        ['giftcards', 'issue', '--amount', '25.001', '--email', 'a@b.co'],
        "option '--amount' must be an amount above 0",
      ],
      [
        ['giftcards', 'issue', '--amount', '99999', '--email', 'a@b.co'],
        "option '--amount' must be an amount above 0 and at most 10000",
      ],
      [
        ['giftcards', 'issue', '--amount', '25', '--email', 'nope'],
        "option '--email' must be an e-mail address, not 'nope'",
      ],
      [
        ['giftcards', 'issue', '--amount', '25', '--email', 'a@b.co', '--colour', 'red'],
        "unknown option '--colour' for 'giftcards issue'",
      ],
    ];
    for (const [args, message] of cases) {
      const run = await vitrine(args, unreachable);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err.join('\n'), args.join(' ')).toContain(message);
      expect(run.err.join('\n')).not.toMatch(/\n\s+at /);
    }
  });
});

forEachEngine((_engine, getDb, getFresh) => {
  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
  });

  it('issues a card by hand: the code e-mailed at once and printed once, stored nowhere; then lists it', async () => {
    const url = getFresh().url;
    const smtp = await startSmtpServer();
    try {
      const empty = await vitrine(['giftcards'], url);
      expect(empty).toMatchObject({ code: 0, out: ['No gift cards yet.'] });

      const issued = await vitrine(
        [
          'giftcards',
          'issue',
          '--amount',
          '25.00',
          '--email',
          'grace@example.com',
          '--name',
          'Grace',
          '--message',
          'Thanks!',
        ],
        url,
        smtp.url,
      );
      expect(issued.code, issued.err.join('\n')).toBe(0);
      expect(issued.out[0]).toBe("Issued a $25.00 gift card for grace@example.com on site 'shop'.");
      const code = /^Code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})$/.exec(issued.out[1]!)![1]!;
      expect(issued.out[2]).toBe('The code is shown only now (it is stored hashed); it was e-mailed to the recipient.');
      const mail = smtp.received.find((m) => m.envelopeTo.includes('grace@example.com'))!;
      expect(mail.text).toContain(`Your gift card code: ${code}`);
      expect(mail.text).toContain('Thanks!');
      const card = await getDb().selectFrom('gift_cards').selectAll().executeTakeFirstOrThrow();
      expect(card).toMatchObject({
        initial_balance: 2500,
        balance: 2500,
        order_id: null,
        recipient_name: 'Grace',
        status: 'active',
        code_hash: hashGiftCardCode(code),
      });
      // Nothing in the database holds the code: the card, nor the sent e-mail (which names it by its last four).
      const kept = await getDb()
        .selectFrom('outbox')
        .selectAll()
        .where('kind', '=', 'gift-card')
        .executeTakeFirstOrThrow();
      expect(kept).toMatchObject({ status: 'sent', to_address: 'grace@example.com' });
      expect(kept.text_body).toContain(`Your gift card code: •••• ${code.slice(-4)}`);
      for (const table of ['gift_cards', 'outbox', 'gift_card_transactions'] as const) {
        const stored = JSON.stringify(await getDb().selectFrom(table).selectAll().execute()).toUpperCase();
        expect(stored, table).not.toContain(code);
        expect(stored, table).not.toContain(normalizeGiftCardCode(code));
      }

      const listed = await vitrine(['giftcards', '--site', 'shop'], url);
      expect(listed.code).toBe(0);
      expect(listed.out[0]).toMatch(/^CODE\s+INITIAL\s+BALANCE\s+RECIPIENT\s+STATE\s+DELIVERY\s+SITE$/);
      expect(listed.out[1]).toContain(`…${code.slice(-4)}`);
      expect(listed.out[1]).toContain('$25.00');
      expect(listed.out[1]).toContain('Grace <grace@example.com>');
      expect(listed.out[1]).toContain('active');
      expect(listed.out.join('\n')).not.toContain(code);

      // Without SMTP_URL: the card waits for the outbox, which makes its code when it sends it; nothing is printed.
      const later = await vitrine(['giftcards', 'issue', '--amount', '10', '--email', 'ada@example.com'], url);
      expect(later.code).toBe(0);
      expect(later.out).toEqual([
        "Issued a $10.00 gift card for ada@example.com on site 'shop'.",
        'Its code will be made and e-mailed to the recipient when the outbox sends it (SMTP_URL is not set here:',
        "'vitrine outbox send' or 'vitrine serve' with SMTP_URL sends it). The code is never stored, so it is not shown.",
      ]);
      const waiting = await vitrine(['giftcards'], url);
      expect(waiting.out[1]).toMatch(/^\(not sent\)\s+\$10\.00\s+\$10\.00\s+ada@example\.com\s+sending\s/);
      const sent = await vitrine(['outbox', 'send'], url, smtp.url);
      expect(sent.code, sent.err.join('\n')).toBe(0);
      const toAda = smtp.received.find((m) => m.envelopeTo.includes('ada@example.com'))!;
      const adaCode = /code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(toAda.text)![1]!;
      expect((await vitrine(['giftcards'], url)).out[1]).toContain(`…${adaCode.slice(-4)}`);

      const unknownSite = await vitrine(
        ['giftcards', 'issue', '--amount', '5', '--email', 'a@b.co', '--site', 'nope'],
        url,
      );
      expect(unknownSite.code).toBe(1);
      expect(unknownSite.err.join('\n')).toContain("there is no site 'nope' in the database");
    } finally {
      await smtp.close();
    }
  });
});
