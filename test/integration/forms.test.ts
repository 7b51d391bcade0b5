/**
 * Form blocks on SQLite and PostgreSQL: submission keys (single use, expiry), the §5/§8 answers, storage, the shop's
 * e-mail through the outbox to a real SMTP server, the newsletter's double opt-in, ALTCHA (unsolved, solved, replayed,
 * expired, forged), forms posted without JavaScript, the template schema, and CSV export without formula injection.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../src/core/csv';
import { sanitizeHtml } from '../../src/core/forms/sanitizeHtml';
import { buildApp } from '../../src/server/app';
import { createAltchaChallenge } from '../../src/modules/forms/captcha/altcha';
import { issueFormKey, spendFormKey, FORM_KEY_LIFETIME_MS } from '../../src/modules/forms/keys';
import { listSubscribers } from '../../src/modules/forms/newsletter';
import { listSubmissions } from '../../src/modules/forms/submissions';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { smtpTransport } from '../../src/platform/mail/transport';
import { CRUMB_COOKIE } from '../../src/core/crumb';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { formSite, seedSite, SHOP_HOST } from '../support/formSite';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

const KEY_API = '/api/form/FormSubmissionKey';
const SAVE_API = '/api/form/SaveFormSubmission';
const EASY = { cost: 1, minCounter: 1, maxCounter: 20 };

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    await seedSite(getDb(), formSite);
    app = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        formRoutes: { submissionsPerMinute: 1_000_000, submissionsPerFormPerMinute: 1_000_000, altchaDifficulty: EASY },
      }),
    );
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    for (const table of ['form_submissions', 'form_keys', 'mailing_list', 'captcha_solutions', 'outbox'] as const)
      await getDb().deleteFrom(table).execute();
    smtp.reset();
  });

  const post = (url: string, payload?: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const key = async () => {
    const answer = await post(KEY_API);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as { key: string }).key;
  };
  const solved = async () => {
    const challenge = (
      await app.inject({ method: 'GET', url: '/api/form/altcha/challenge', headers: { host: SHOP_HOST } })
    ).json() as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };
  const contact = {
    name: ['Ada', 'Lovelace'],
    email: 'ada@example.com',
    message: '=HYPERLINK("http://evil")<b>hi</b>',
    source: 'newsletter-ad',
  };
  const save = async (formId: string, form: unknown, extra: Record<string, unknown> = {}) =>
    post(SAVE_API, { key: await key(), formId, form: JSON.stringify(form), pagePath: '/contact', ...extra });

  it('answers the §8 errors: unknown form 404, missing/spent key 401, per-field 400, unparsable 400', async () => {
    expect((await save('nope', {})).json()).toEqual({ error: 'This form has not been configured yet.' });
    const noKey = await post(SAVE_API, { key: 'x', formId: 'plain', form: '{}' });
    expect(noKey.statusCode).toBe(401);
    expect(noKey.json()).toEqual({ error: 'Unable to submit form. Please try again later.' });
    const empty = await save('contact', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      error: 'One or more fields is invalid, please check your entries.',
      errors: { name: 'Required', email: 'Required', message: 'Required' },
    });
    const badEmail = await save('contact', { ...contact, email: 'nope' });
    expect(badEmail.json().errors).toEqual({
      email: 'Email is not valid. Email addresses should follow the format email@example.com.',
    });
    const unparsable = await post(SAVE_API, { key: await key(), formId: 'plain', form: '{not json' });
    expect(unparsable.statusCode).toBe(400);
    expect(unparsable.json()).toEqual({ error: 'Could not parse the form fields, please check your entries.' });
    expect(await listSubmissions(getDb())).toHaveLength(0);
  });

  it('spends a key once and refuses it after expiry', async () => {
    const db = getDb();
    const k = await issueFormKey(db, 'shop');
    expect(await spendFormKey(db, 'shop', k)).toBe(true);
    expect(await spendFormKey(db, 'shop', k)).toBe(false);
    const old = await issueFormKey(db, 'shop', new Date(Date.now() - FORM_KEY_LIFETIME_MS - 1000));
    expect(await spendFormKey(db, 'shop', old)).toBe(false);
    const twice = await key();
    expect(
      (await post(SAVE_API, { key: twice, formId: 'plain', form: JSON.stringify({ note: 'a' }) })).statusCode,
    ).toBe(200);
    expect(
      (await post(SAVE_API, { key: twice, formId: 'plain', form: JSON.stringify({ note: 'a' }) })).statusCode,
    ).toBe(401);
  });

  it('CAPTCHA: unsolved refused, solved accepted and e-mailed to the shop, replay refused, forged and expired refused', async () => {
    const unsolved = await save('contact', contact);
    expect(unsolved.statusCode).toBe(400);
    expect(unsolved.json()).toEqual({ error: 'Complete CAPTCHA before submitting.' });
    const payload = await solved();
    const ok = await save('contact', contact, { captchaKey: payload });
    expect(ok.statusCode, ok.body).toBe(200);
    const replay = await save('contact', contact, { captchaKey: payload });
    expect(replay.json()).toEqual({ error: 'Complete CAPTCHA before submitting.' });
    // Forged: the same solution under a challenge whose signature is changed.
    const decoded = JSON.parse(Buffer.from(await solved(), 'base64').toString()) as { challenge: Challenge };
    decoded.challenge.signature = '00'.repeat(32);
    expect(
      (await save('contact', contact, { captchaKey: Buffer.from(JSON.stringify(decoded)).toString('base64') }))
        .statusCode,
    ).toBe(400);
    // Expired: made 11 minutes ago.
    const oldChallenge = await createAltchaChallenge(getDb(), 'shop', EASY, new Date(Date.now() - 11 * 60_000));
    const oldSolution = await solveChallenge({ challenge: oldChallenge, deriveKey });
    const expired = Buffer.from(JSON.stringify({ challenge: oldChallenge, solution: oldSolution })).toString('base64');
    expect((await save('contact', contact, { captchaKey: expired })).statusCode).toBe(400);

    const stored = await listSubmissions(getDb(), { formId: 'contact' });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.answers).toContainEqual({ title: 'Source', lines: ['newsletter-ad'] });
    const drained = await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'));
    expect(drained.sent).toBe(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(['orders@shop.test']);
    expect(mail.text).toContain('Ada Lovelace');
    expect(mail.html).toContain('&lt;b&gt;hi&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>hi</b>');
  });

  it('newsletter: a pending row and a confirmation e-mail; the link confirms once (double opt-in)', async () => {
    for (let i = 0; i < 2; i++) expect((await save('newsletter', { email: 'Fan@Example.com' })).statusCode).toBe(200);
    const rows = await listSubscribers(getDb(), { siteId: 'shop' });
    expect(rows).toEqual([expect.objectContaining({ email: 'fan@example.com', status: 'pending' })]);
    await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'));
    expect(smtp.received.map((m) => m.envelopeTo[0])).toEqual(['fan@example.com', 'fan@example.com']);
    const first = /token=([A-Za-z0-9_-]{43})/.exec(smtp.received[0]!.text)![1]!;
    const last = /token=([A-Za-z0-9_-]{43})/.exec(smtp.received[1]!.text)![1]!;
    const page = await app.inject({
      method: 'GET',
      url: `/newsletter/confirm?token=${last}`,
      headers: { host: SHOP_HOST },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Confirm my subscription');
    expect((await listSubscribers(getDb()))[0]!.status).toBe('pending');
    const confirm = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/newsletter/confirm',
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
        },
        payload: new URLSearchParams({ token, crumb: TEST_CRUMB }).toString(),
      });
    expect((await confirm(first)).statusCode).toBe(404);
    const done = await confirm(last);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Subscription confirmed');
    expect((await listSubscribers(getDb()))[0]!.status).toBe('confirmed');
    expect((await confirm(last)).statusCode).toBe(404);
  });

  it('validate call and template schema', async () => {
    const bad = await post('/api/rest/forms/validate/contact', { email: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ name: 'Required', message: 'Required' });
    expect((await post('/api/rest/forms/validate/plain', { note: 'hi' })).json()).toEqual({ errors: {} });
    expect((await post('/api/rest/forms/validate/missing', {})).statusCode).toBe(404);
    const schema = await app.inject({
      method: 'GET',
      url: '/api/template/GetTemplateSchema?type=9',
      headers: { host: SHOP_HOST },
    });
    expect(schema.json()).toMatchObject({ type: 9, messages: { required: 'Required' } });
    expect(
      (await app.inject({ method: 'GET', url: '/api/template/GetTemplateSchema?type=x', headers: { host: SHOP_HOST } }))
        .statusCode,
    ).toBe(400);
  });

  it('no JavaScript: the page comes back with the errors, the success text, or the redirect; hidden fields read the query', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/plain',
      headers: { host: SHOP_HOST, cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}` },
    });
    expect(page.body).toContain(`value="${TEST_CRUMB}"`);
    const form = (url: string, fields: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url,
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
        },
        payload: new URLSearchParams({ crumb: TEST_CRUMB, ...fields }).toString(),
      });
    const empty = await form('/plain', { formId: 'plain', note: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Required');
    expect(empty.body).toContain('Your form has encountered a problem. Please scroll down to review.');
    const sent = await form('/plain', { formId: 'plain', note: 'Hello' });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Got it.');
    // A hidden field reads the query parameter named by the field's name (its id 'source'), not by its title.
    const redirect = await form('/quick?source=flyer', { formId: 'quick', question: 'Open on Sunday?' });
    expect(redirect.statusCode).toBe(303);
    expect(redirect.headers.location).toBe('/thanks');
    expect((await form('/quick?Source=poster', { formId: 'quick', question: 'And Monday?' })).statusCode).toBe(303);
    const quick = await listSubmissions(getDb(), { formId: 'quick' });
    expect(quick.map((q) => q.answers.find((a) => a.title === 'Source')?.lines)).toEqual([['flyer'], ['quick-page']]);
    // A CAPTCHA form without JavaScript cannot be solved: the §5 text says so.
    const captcha = await form('/contact', {
      formId: 'contact',
      'name.first': 'A',
      'name.last': 'B',
      email: 'a@b.co',
      message: 'hi',
    });
    expect(captcha.body).toContain('Complete CAPTCHA before submitting.');
    // A form of another page is not taken here.
    expect((await form('/thanks', { formId: 'plain', note: 'x' })).statusCode).toBe(404);
  });

  it('no JavaScript: a refused form comes back with every answer filled in again, escaped', async () => {
    const typed: [string, string][] = [
      ['subject', '"><script>alert(1)</script>'],
      ['details', 'Line one\nLine <two> & "three"'],
      ['email', 'ada@example.com'],
      ['site', 'https://example.com/a?b=1&c=2'],
      ['count', ''],
      ['day', '2025-03-04'],
      ['at', '13:45'],
      ['who.first', 'Ada'],
      ['who.last', "O'Brien"],
      ['where.line1', '1 Main St'],
      ['where.line2', 'Unit 2'],
      ['where.city', 'Springfield'],
      ['where.region', 'IL'],
      ['where.postcode', '62701'],
      ['where.country', 'United States'],
      ['tel.country', '1'],
      ['tel.area', '416'],
      ['tel.number', '5550100'],
      ['extras', 'Gift wrap'],
      ['extras', 'Card'],
      ['size', 'Large'],
      ['colour', 'Blue'],
      ['mood.1', '-2'],
    ];
    const payload = new URLSearchParams([['crumb', TEST_CRUMB], ['formId', 'survey'], ...typed]);
    const page = await app.inject({
      method: 'POST',
      url: '/survey',
      headers: {
        host: SHOP_HOST,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
      },
      payload: payload.toString(),
    });
    expect(page.statusCode).toBe(400);
    const html = page.body;
    expect(html).toContain('Required');
    expect(html).not.toContain('<script>alert(1)');
    const decode = (text: string) =>
      text.replace(
        /&(quot|#x27|#39|lt|gt|amp);/g,
        (_, e: string) => ({ quot: '"', '#x27': "'", '#39': "'", lt: '<', gt: '>', amp: '&' })[e] ?? '',
      );
    const tagOf = (pattern: RegExp) => {
      const tags = html.match(new RegExp(pattern.source, 'g')) ?? [];
      expect(tags, String(pattern)).toHaveLength(1);
      return tags[0]!;
    };
    const input = (name: string) => tagOf(new RegExp(`<input[^>]*name="${name.replace('.', '\\.')}"[^>]*>`));
    const valueOf = (name: string) => {
      const found = /\svalue="([^"]*)"/.exec(input(name));
      return found ? decode(found[1]!) : null;
    };
    for (const [name, value] of typed) {
      if (['details', 'extras', 'size', 'colour', 'mood.1'].includes(name)) continue;
      expect(valueOf(name), name).toBe(value);
    }
    expect(decode(/<textarea[^>]*name="details"[^>]*>([^<]*)<\/textarea>/.exec(html)![1]!)).toBe(
      'Line one\nLine <two> & "three"',
    );
    const choice = (name: string, value: string) =>
      tagOf(new RegExp(`<input[^>]*name="${name.replace('.', '\\.')}"[^>]*value="${value}"[^>]*>`));
    expect(choice('extras', 'Gift wrap')).toContain('checked');
    expect(choice('extras', 'Receipt')).not.toContain('checked');
    expect(choice('extras', 'Card')).toContain('checked');
    expect(choice('size', 'Large')).toContain('checked');
    expect(choice('size', 'Small')).not.toContain('checked');
    expect(choice('mood.1', '-2')).toContain('checked');
    expect(choice('mood.1', '1')).not.toContain('checked');
    expect(html).not.toMatch(/<input[^>]*name="mood\.0"[^>]*checked/);
    expect(tagOf(/<option[^>]*value="Blue"[^>]*>/)).toContain('selected');
    expect(tagOf(/<option[^>]*value="Red"[^>]*>/)).not.toContain('selected');

    // Filled in again, the answer added: sent.
    payload.set('count', '2');
    const sent = await app.inject({
      method: 'POST',
      url: '/survey?ref=ad',
      headers: {
        host: SHOP_HOST,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
      },
      payload: payload.toString(),
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Thanks for answering.');
    const [stored] = await listSubmissions(getDb(), { formId: 'survey' });
    expect(stored!.answers).toContainEqual({ title: 'Subject', lines: ['"><script>alert(1)</script>'] });
    expect(stored!.answers).toContainEqual({ title: 'Referrer', lines: ['ad'] });
  });

  it('rate limits: per client on each route, and per client and form over a minute, with Retry-After and the §8 text', async () => {
    const limited = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        formRoutes: {
          submissionsPerMinute: 120,
          submissionsPerFormPerMinute: 4,
          challengesPerMinute: 60,
          altchaDifficulty: EASY,
        },
      }),
    );
    try {
      const call = (url: string, payload?: unknown, ip = '203.0.113.7') =>
        limited.inject({
          method: 'POST',
          url,
          remoteAddress: ip,
          headers: { host: SHOP_HOST, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
        });
      const keyOf = async (ip?: string) => ((await call(KEY_API, undefined, ip)).json() as { key: string }).key;
      const send = async (formId: string, form: unknown, ip?: string) =>
        call(SAVE_API, { key: await keyOf(ip), formId, form: JSON.stringify(form) }, ip);
      // 4 a minute to one form, counted over the minute: 4 in a row go through (a refused try and another one are never
      // held back by a 10-second share of the budget); the fifth is refused until the minute is over.
      for (const note of ['one', 'two', 'three', 'four']) expect((await send('plain', { note })).statusCode).toBe(200);
      const fifth = await send('plain', { note: 'five' });
      expect(fifth.statusCode).toBe(429);
      expect(fifth.json()).toEqual({
        error: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
      });
      expect(Number(fifth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(fifth.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Another form of the same client, and the same form from another client, are not held back.
      expect((await send('quick', { question: 'Open?' })).statusCode).toBe(200);
      expect((await send('plain', { note: 'other client' }, '198.51.100.9')).statusCode).toBe(200);
      // Without JavaScript too: the page again, with the §8 text.
      const page = await limited.inject({
        method: 'POST',
        url: '/plain',
        remoteAddress: '203.0.113.7',
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
        },
        payload: new URLSearchParams({ crumb: TEST_CRUMB, formId: 'plain', note: 'six' }).toString(),
      });
      expect(page.statusCode).toBe(429);
      expect(page.headers['retry-after']).toBeDefined();
      expect(page.body).toContain('Unable to submit form. Submission rate limit exceeded. Please try again later.');
      expect(page.body).toContain('value="six"');
      expect((await listSubmissions(getDb(), { formId: 'plain' })).map((s) => s.answers[0]!.lines[0]).sort()).toEqual([
        'four',
        'one',
        'other client',
        'three',
        'two',
      ]);
      // ALTCHA challenges have their own budget (60 a minute: 10 per window), not the submissions' share.
      const challenge = (ip: string) =>
        limited.inject({
          method: 'GET',
          url: '/api/form/altcha/challenge',
          remoteAddress: ip,
          headers: { host: SHOP_HOST },
        });
      for (let i = 0; i < 10; i++) expect((await challenge('192.0.2.7')).statusCode).toBe(200);
      const eleventh = await challenge('192.0.2.7');
      expect(eleventh.statusCode).toBe(429);
      expect(Number(eleventh.headers['retry-after'])).toBeLessThanOrEqual(10);
      // The route's own budget (120 a minute: 20 per window) for one client, whatever the form.
      let last = await call(KEY_API, undefined, '192.0.2.1');
      for (let i = 0; i < 20; i++) last = await call(KEY_API, undefined, '192.0.2.1');
      expect(last.statusCode).toBe(429);
      expect(last.json()).toMatchObject({
        message: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
      });
      expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(10);
    } finally {
      await limited.close();
    }
  });

  it('CSV cells never start a formula; submission HTML is sanitized', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain', 'a,b', 'say "hi"'].map(csvCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      '"\'\rx"',
      'plain',
      '"a,b"',
      '"say ""hi"""',
    ]);
    expect(toCsv(['a'], [['=x']])).toBe("a\r\n'=x\r\n");
    expect(
      sanitizeHtml(
        '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">x</a><a href="/shop">shop</a><img src=x onerror=alert(1)></p>',
      ),
    ).toBe('<p>Hi <a>x</a><a href="/shop">shop</a></p>');
  });
});
