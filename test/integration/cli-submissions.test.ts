/**
 * `vitrine submissions` and `vitrine subscribers` on SQLite and PostgreSQL: submissions and sign-ups made through the
 * form API, then the commands run in this process against the same database (DATABASE_URL): the table, the filter
 * by form, the CSV export (no formula injection), and wrong usage (exit 2, a clear message, the database untouched).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { confirmSubscription } from '../../src/modules/forms/newsletter';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { formSite, seedSite, SHOP_HOST } from '../support/formSite';
import { vitrine, type CliRun } from '../support/cli';

/** The lines of a CSV text (CRLF-separated; a quoted cell may hold a bare LF). */
const csvLines = (run: CliRun) => run.out.join('\n').split('\r\n');

describe('vitrine submissions / subscribers: usage', () => {
  it('is in the help', async () => {
    const help = (await vitrine(['help'], 'sqlite::memory:')).out.join('\n');
    expect(help).toContain('submissions [--form ID] [--site ID] [--format table|csv]');
    expect(help).toContain('subscribers [--site ID] [--status pending|confirmed] [--format table|csv]');
  });

  it('refuses wrong usage with exit code 2 and a hint, before touching the database', async () => {
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const cases: [string[], string][] = [
      [['submissions', '--format', 'xml'], "option '--format' must be table or csv, not 'xml'"],
      [['submissions', '--form'], "option '--form' needs a value"],
      [['submissions', '--form', 'a', '--form', 'b'], "option '--form' is given twice"],
      [['submissions', '--force'], "unknown option '--force' for 'submissions'"],
      [['submissions', 'contact'], "unexpected argument 'contact' for 'submissions'"],
      [['subscribers', '--status', 'gone'], "option '--status' must be pending or confirmed, not 'gone'"],
      [['subscribers', '--format=json'], "option '--format' must be table or csv, not 'json'"],
      [['subscribers', '--form', 'newsletter'], "unknown option '--form' for 'subscribers'"],
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
  const run = (...args: string[]) => vitrine(args, getFresh().url);

  beforeAll(async () => {
    await seedSite(getDb(), formSite);
    app = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        formRoutes: { submissionsPerMinute: 1_000_000, submissionsPerFormPerMinute: 1_000_000 },
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = (url: string, payload?: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const submit = async (formId: string, form: unknown, pagePath: string) => {
    const key = (await post('/api/form/FormSubmissionKey')).json() as { key: string };
    const saved = await post('/api/form/SaveFormSubmission', {
      key: key.key,
      formId,
      form: JSON.stringify(form),
      pagePath,
    });
    expect(saved.statusCode, saved.body).toBe(200);
  };

  it('says so when there is nothing yet', async () => {
    expect(await run('submissions')).toEqual({ code: 0, out: ['No form submissions yet.'], err: [] });
    expect(await run('subscribers')).toEqual({ code: 0, out: ['No subscribers yet.'], err: [] });
  });

  it('lists submissions, filters by form, and exports CSV a spreadsheet cannot run', async () => {
    await submit('plain', { note: '=HYPERLINK("http://evil.example","click")' }, '/plain');
    await submit('quick', { question: 'Open on Sunday?' }, '/quick');
    await submit('plain', { note: 'Second, with a comma' }, '/plain');

    const all = await run('submissions');
    expect(all.code).toBe(0);
    expect(all.out[0]).toMatch(/^SUBMITTED \(UTC\)\s+SITE\s+FORM\s+ANSWERS$/);
    expect(all.out).toHaveLength(1 + 3);
    expect(all.out[1]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+shop\s+plain\s+Note: =HYPERLINK\("http:\/\/evil.example","click"\)$/,
    );
    expect(all.out[2]).toMatch(/\s+shop\s+quick\s+Question: Open on Sunday\?; Source: quick-page$/);
    expect(all.out[3]).toMatch(/\s+plain\s+Note: Second, with a comma$/);

    const plain = await run('submissions', '--form', 'plain');
    expect(plain.out.slice(1).map((l) => l.split(/\s{2,}/)[2])).toEqual(['plain', 'plain']);
    expect((await run('submissions', '--form', 'nope')).out).toEqual(['No form submissions yet.']);
    expect((await run('submissions', '--site', 'other')).out).toEqual(['No form submissions yet.']);

    const csv = await run('submissions', '--form=plain', '--format', 'csv');
    expect(csv.code).toBe(0);
    const lines = csvLines(csv);
    expect(lines[0]).toBe('Submitted (UTC),Site,Form,Page,Note');
    expect(lines).toHaveLength(3);
    // The answer starting with '=' is prefixed with an apostrophe (and quoted: it holds quotes and a comma).
    expect(lines[1]).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z,shop,plain,\/plain,"'=HYPERLINK\(""http:\/\/evil.example"",""click""\)"$/,
    );
    expect(lines[2]).toMatch(/,shop,plain,\/plain,"Second, with a comma"$/);
    const both = csvLines(await run('submissions', '--format', 'csv'));
    expect(both[0]).toBe('Submitted (UTC),Site,Form,Page,Note,Question,Source');
    expect(both[2]).toMatch(/,shop,quick,\/quick,,Open on Sunday\?,quick-page$/);
  });

  it('lists the mailing list: pending until confirmed, by status, as CSV', async () => {
    await submit('newsletter', { email: 'Fan@Example.com' }, '/plain');
    await submit('newsletter', { email: '-2+3@example.com' }, '/plain');
    // The link of the confirmation e-mail (in the outbox) confirms the first address.
    const mail = await getDb()
      .selectFrom('outbox')
      .select('text_body')
      .where('to_address', '=', 'fan@example.com')
      .executeTakeFirstOrThrow();
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
    expect(await confirmSubscription(getDb(), 'shop', token)).toBe('fan@example.com');

    const table = await run('subscribers');
    expect(table.code).toBe(0);
    expect(table.out[0]).toMatch(/^E-MAIL\s+STATUS\s+SITE\s+SIGNED UP\s+CONFIRMED$/);
    expect(table.out.slice(1).map((l) => l.split(/\s{2,}/).slice(0, 3))).toEqual([
      ['fan@example.com', 'confirmed', 'shop'],
      ['-2+3@example.com', 'pending', 'shop'],
    ]);
    const pending = await run('subscribers', '--status', 'pending');
    expect(pending.out.slice(1).map((l) => l.split(/\s{2,}/)[0])).toEqual(['-2+3@example.com']);
    const csv = csvLines(await run('subscribers', '--format', 'csv', '--status', 'confirmed'));
    expect(csv[0]).toBe('E-mail,Status,Site,Signed up (UTC),Confirmed (UTC)');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(/^fan@example\.com,confirmed,shop,\d{4}-[\d\-T:.]+Z,\d{4}-[\d\-T:.]+Z$/);
    const all = csvLines(await run('subscribers', '--format', 'csv'));
    expect(all.find((l) => l.includes('2+3@'))).toMatch(/^'-2\+3@example\.com,pending,shop,/);
  });
});
