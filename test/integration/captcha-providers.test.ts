/**
 * Forms on sites whose CAPTCHA is reCAPTCHA Enterprise or Turnstile, on SQLite and PostgreSQL, with a local server
 * playing Google and Cloudflare (test/support/captchaProviders.ts): a good token is accepted and the submission
 * stored; the wrong action, a low score, another host, a replay are refused with 'Complete CAPTCHA before
 * submitting.'; the provider down, too slow or answering garbage is a 503 with §8's 'Unable to send form. Please
 * try again later.' and nothing stored. The pages give the browser the provider, the site key and the §7 action, and
 * their Content-Security-Policy allows exactly the provider's hosts (an ALTCHA site's: none).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { CRUMB_COOKIE } from '../../src/core/crumb';
import { buildApp } from '../../src/server/app';
import { listSubmissions } from '../../src/modules/forms/submissions';
import { listSubscribers } from '../../src/modules/forms/newsletter';
import type { SiteFileInput } from '../../src/modules/site/schema';
import {
  FAKE_RECAPTCHA_API_KEY,
  FAKE_TURNSTILE_SECRET,
  fakeToken,
  startFakeCaptchaProviders,
  type FakeCaptchaProviders,
} from '../support/captchaProviders';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { formSite, seedSite, SHOP_HOST } from '../support/formSite';

const RC_HOST = 'rc.test';
const TS_HOST = 'ts.test';
const BARE_HOST = 'bare.test';

/** The form tests' shop on another host and provider; its newsletter asks for a CAPTCHA too. */
function siteOn(id: string, host: string, captcha: Record<string, unknown>): SiteFileInput {
  return {
    ...formSite,
    website: {
      ...formSite.website,
      id,
      title: `Shop ${id}`,
      domains: [host],
      default: false,
      captcha,
    } as SiteFileInput['website'],
    forms: (formSite.forms ?? []).map((form) => (form.id === 'newsletter' ? { ...form, captcha: true } : form)),
  };
}

const contact = { name: ['Ada', 'Lovelace'], email: 'ada@example.com', message: 'Hello there' };
const CAPTCHA_TEXT = 'Complete CAPTCHA before submitting.';
const UNAVAILABLE_TEXT = 'Unable to send form. Please try again later.';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let providers: FakeCaptchaProviders;
  const warnings: string[] = [];

  beforeAll(async () => {
    providers = await startFakeCaptchaProviders();
    await seedSite(getDb(), formSite);
    await seedSite(
      getDb(),
      siteOn('rc', RC_HOST, { provider: 'recaptcha-enterprise', siteKey: '6LcTestSiteKey', projectId: 'vitrine-test' }),
    );
    await seedSite(getDb(), siteOn('ts', TS_HOST, { provider: 'turnstile', siteKey: '0x4AAAAAAATestKey' }));
    await seedSite(getDb(), siteOn('bare', BARE_HOST, { provider: 'recaptcha-enterprise', projectId: 'vitrine-test' }));
    app = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        formRoutes: { submissionsPerMinute: 1_000_000, submissionsPerFormPerMinute: 1_000_000 },
        captchaEnv: {
          recaptchaEnterpriseApiKey: FAKE_RECAPTCHA_API_KEY,
          recaptchaEnterpriseApiUrl: providers.url,
          turnstileSecretKey: FAKE_TURNSTILE_SECRET,
          turnstileApiUrl: providers.url,
          timeoutMs: 1500,
        },
      }),
    );
    app.log.warn = ((message: string) => void warnings.push(String(message))) as typeof app.log.warn;
  });
  afterAll(async () => {
    await app?.close();
    await providers?.close();
  });
  beforeEach(async () => {
    for (const table of ['form_submissions', 'form_keys', 'mailing_list', 'outbox', 'captcha_solutions'] as const)
      await getDb().deleteFrom(table).execute();
    providers.reset();
    warnings.length = 0;
  });

  const post = (host: string, url: string, payload?: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const save = async (host: string, formId: string, form: unknown, extra: Record<string, unknown>) => {
    const key = (await post(host, '/api/form/FormSubmissionKey')).json() as { key: string };
    return post(host, '/api/form/SaveFormSubmission', {
      key: key.key,
      formId,
      form: JSON.stringify(form),
      pagePath: '/contact',
      ...extra,
    });
  };
  const stored = async (siteId: string) => (await listSubmissions(getDb(), { siteId })).length;

  it('reCAPTCHA Enterprise: a good token for FORM_BLOCK_SUBMISSION is accepted; wrong action, low score, another host, expired, replayed refused', async () => {
    const good = fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: RC_HOST, score: 0.9 });
    const ok = await save(RC_HOST, 'contact', contact, { recaptchaEnterpriseV3Token: good });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ ok: true });
    expect(providers.calls[0]!.path).toBe('/v1/projects/vitrine-test/assessments');
    expect(providers.calls[0]!.body.event).toMatchObject({
      token: good,
      siteKey: '6LcTestSiteKey',
      expectedAction: 'FORM_BLOCK_SUBMISSION',
      userIpAddress: '127.0.0.1',
    });
    expect(await stored('rc')).toBe(1);
    // The same token again: this stand-in would assess it again (Google says DUPE), the shop refuses it itself.
    const replay = await save(RC_HOST, 'contact', contact, { recaptchaEnterpriseV3Token: good });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ error: CAPTCHA_TEXT });

    for (const token of [
      fakeToken({ action: 'NEWSLETTER_BLOCK_SUBMISSION', hostname: RC_HOST, score: 0.9 }),
      fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: RC_HOST, score: 0.2 }),
      fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: 'evil.example', score: 0.9 }),
      fakeToken({ invalidReason: 'EXPIRED' }),
      fakeToken({ invalidReason: 'DUPE' }),
    ]) {
      const refused = await save(RC_HOST, 'contact', contact, { recaptchaEnterpriseV3Token: token });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: CAPTCHA_TEXT });
    }
    // No token at all: refused without asking Google.
    const before = providers.calls.length;
    expect((await save(RC_HOST, 'contact', contact, {})).json()).toEqual({ error: CAPTCHA_TEXT });
    expect(providers.calls.length).toBe(before);
    expect(await stored('rc')).toBe(1);
  });

  it('reCAPTCHA Enterprise: a newsletter form is checked for NEWSLETTER_BLOCK_SUBMISSION', async () => {
    const form = { email: 'reader@example.com' };
    const asForm = await save(RC_HOST, 'newsletter', form, {
      captchaKey: fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: RC_HOST }),
    });
    expect(asForm.json()).toEqual({ error: CAPTCHA_TEXT });
    const ok = await save(RC_HOST, 'newsletter', form, {
      recaptchaEnterpriseV3Token: fakeToken({ action: 'NEWSLETTER_BLOCK_SUBMISSION', hostname: RC_HOST }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((providers.calls.at(-1)!.body.event as { expectedAction: string }).expectedAction).toBe(
      'NEWSLETTER_BLOCK_SUBMISSION',
    );
    expect((await listSubscribers(getDb(), { siteId: 'rc' })).map((s) => s.email)).toEqual(['reader@example.com']);
  });

  it('Turnstile: a good token is accepted once; the wrong action or host, a forged token refused', async () => {
    const token = fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: TS_HOST });
    const ok = await save(TS_HOST, 'contact', contact, { captchaKey: token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(providers.calls[0]!.body).toMatchObject({
      secret: FAKE_TURNSTILE_SECRET,
      response: token,
      remoteip: '127.0.0.1',
    });
    const replay = await save(TS_HOST, 'contact', contact, { captchaKey: token });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ error: CAPTCHA_TEXT });
    for (const bad of [
      fakeToken({ action: 'PROMO_POPUP_SUBMISSION', hostname: TS_HOST }),
      fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: RC_HOST }),
      'forged',
    ]) {
      expect((await save(TS_HOST, 'contact', contact, { captchaKey: bad })).json()).toEqual({ error: CAPTCHA_TEXT });
    }
    expect(await stored('ts')).toBe(1);
  });

  it('the provider down, too slow or answering garbage: 503 with the §8 text, nothing stored, never a pass', async () => {
    const rcToken = () => fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: RC_HOST, score: 0.9 });
    const tsToken = () => fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: TS_HOST });
    for (const mode of ['down', 'hang', 'not-json'] as const) {
      providers.mode = mode;
      const rc = await save(RC_HOST, 'contact', contact, { recaptchaEnterpriseV3Token: rcToken() });
      expect([mode, rc.statusCode]).toEqual([mode, 503]);
      expect(rc.json()).toEqual({ error: UNAVAILABLE_TEXT });
      const ts = await save(TS_HOST, 'contact', contact, { captchaKey: tsToken() });
      expect([mode, ts.statusCode]).toEqual([mode, 503]);
      expect(ts.json()).toEqual({ error: UNAVAILABLE_TEXT });
    }
    expect(await stored('rc')).toBe(0);
    expect(await stored('ts')).toBe(0);
    expect(
      warnings.some((w) =>
        w.startsWith(
          'CAPTCHA (recaptcha-enterprise) of site rc could not be checked: reCAPTCHA Enterprise answered 503',
        ),
      ),
    ).toBe(true);
    // Cloudflare failing once is retried with the same idempotency key: the visitor does not notice.
    providers.mode = 'normal';
    providers.failNext = 1;
    const retried = await save(TS_HOST, 'contact', contact, { captchaKey: tsToken() });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(new Set(providers.calls.slice(-2).map((c) => c.body.idempotency_key)).size).toBe(1);
  });

  it('a site without its reCAPTCHA site key cannot verify: 503, and the log names the setting', async () => {
    const answer = await save(BARE_HOST, 'contact', contact, {
      recaptchaEnterpriseV3Token: fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: BARE_HOST }),
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ error: UNAVAILABLE_TEXT });
    expect(warnings).toContain(
      "CAPTCHA (recaptcha-enterprise) of site bare could not be checked: the site's captcha.siteKey is not set",
    );
    expect(providers.calls).toHaveLength(0);
  });

  /** The FormBlockForm island's props on a page. */
  const formProps = (html: string) => {
    const match =
      /data-island="FormBlockForm"[^>]*data-props="([^"]*)"/.exec(html) ??
      /data-props="([^"]*)"[^>]*data-island="FormBlockForm"/.exec(html);
    expect(match, 'a FormBlockForm island').not.toBeNull();
    const decoded = match![1]!.replace(
      /&(quot|#x27|#39|lt|gt|amp);/g,
      (_, e: string) => ({ quot: '"', '#x27': "'", '#39': "'", lt: '<', gt: '>', amp: '&' })[e] ?? '',
    );
    return JSON.parse(decoded) as { captcha: unknown };
  };
  const directives = (policy: string) =>
    new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

  it('pages: the island gets provider, site key and action; the CSP allows exactly the provider hosts, and none on an ALTCHA site', async () => {
    const rc = await app.inject({ method: 'GET', url: '/contact', headers: { host: RC_HOST } });
    expect(rc.statusCode).toBe(200);
    expect(formProps(rc.body).captcha).toEqual({
      provider: 'recaptcha-enterprise',
      action: 'FORM_BLOCK_SUBMISSION',
      siteKey: '6LcTestSiteKey',
      scriptUrl: 'https://www.google.com/recaptcha/enterprise.js',
    });
    const rcPolicy = directives(String(rc.headers['content-security-policy']));
    expect(rcPolicy.get('script-src')).toEqual([
      "'self'",
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]);
    expect(rcPolicy.get('frame-src')).toEqual(["'self'", 'https://www.google.com/recaptcha/']);
    expect(rcPolicy.get('connect-src')).toEqual(["'self'", 'https://www.google.com/recaptcha/']);
    expect(rcPolicy.get('default-src')).toEqual(["'self'"]);
    expect(rcPolicy.get('style-src')?.[0]).toBe("'self'");
    expect(String(rc.headers['content-security-policy'])).not.toContain('cloudflare');

    const ts = await app.inject({ method: 'GET', url: '/contact', headers: { host: TS_HOST } });
    expect(formProps(ts.body).captcha).toMatchObject({
      provider: 'turnstile',
      siteKey: '0x4AAAAAAATestKey',
      action: 'FORM_BLOCK_SUBMISSION',
    });
    const tsPolicy = directives(String(ts.headers['content-security-policy']));
    for (const directive of ['script-src', 'frame-src', 'connect-src'])
      expect(tsPolicy.get(directive)).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(String(ts.headers['content-security-policy'])).not.toContain('google');

    const bare = await app.inject({ method: 'GET', url: '/contact', headers: { host: BARE_HOST } });
    expect(formProps(bare.body).captcha).toMatchObject({ provider: 'recaptcha-enterprise', siteKey: null });

    for (const path of ['/contact', '/plain', '/shop']) {
      const altcha = await app.inject({ method: 'GET', url: path, headers: { host: SHOP_HOST } });
      expect(altcha.statusCode).toBe(200);
      const policy = String(altcha.headers['content-security-policy']);
      expect(policy).not.toMatch(/https?:\/\//);
      expect(policy).not.toContain('frame-src');
      expect(directives(policy).get('script-src')).toEqual(["'self'"]);
    }
    expect(
      formProps((await app.inject({ method: 'GET', url: '/contact', headers: { host: SHOP_HOST } })).body).captcha,
    ).toEqual({
      provider: 'altcha',
      action: 'FORM_BLOCK_SUBMISSION',
    });
  });

  it('a CAPTCHA form posted without JavaScript on a reCAPTCHA site: the page again with the §5 text, under the same policy', async () => {
    const page = await app.inject({
      method: 'POST',
      url: '/contact',
      headers: {
        host: RC_HOST,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
      },
      payload: new URLSearchParams({
        crumb: TEST_CRUMB,
        formId: 'contact',
        'name.first': 'Ada',
        'name.last': 'L',
        email: 'ada@example.com',
        message: 'Hi',
      }).toString(),
    });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain(CAPTCHA_TEXT);
    expect(directives(String(page.headers['content-security-policy'])).get('script-src')).toEqual([
      "'self'",
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]);
    expect(await stored('rc')).toBe(0);
  });
});
