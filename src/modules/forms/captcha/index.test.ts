/**
 * Choosing the CAPTCHA by the site's `captcha` setting (on SQLite and PostgreSQL: an accepted token is spent in the
 * database): the third-party adapters get the secrets of the environment and the site's keys; a token is accepted
 * once, even by two submissions at the same moment; a site this process cannot verify for is 'unavailable' (and the
 * log says why); the host names a token may come from; the RECAPTCHA_ENTERPRISE_* / TURNSTILE_* settings and the
 * site file's `captcha`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_RECAPTCHA_API_KEY,
  FAKE_TURNSTILE_SECRET,
  fakeToken,
  startFakeCaptchaProviders,
  type FakeCaptchaProviders,
} from '../../../../test/support/captchaProviders';
import { seedSite, shopSite } from '../../../../test/support/cartSite';
import { forEachEngine } from '../../../../test/support/engines';
import { ConfigError, loadConfig } from '../../../config';
import { websiteSchema } from '../../site/schema';
import { validateSite } from '../../site/validate';
import type { Site } from '../../site/sites';
import { captchaEnvOf, captchaVerifier, expectedHostnames } from './index';

const siteWith = (captcha: Record<string, unknown>, domains: string[] = ['shop.test:3000']): Site => {
  const settings = websiteSchema.parse({ id: 'shop', title: 'Shop', domains, captcha });
  return {
    id: 'shop',
    title: 'Shop',
    domains,
    isDefault: true,
    currency: 'USD',
    settings,
    version: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
};
forEachEngine((_engine, getDb) => {
  let providers: FakeCaptchaProviders;
  const warnings: string[] = [];
  const log = { warn: (message: string) => warnings.push(message) };

  beforeAll(async () => {
    providers = await startFakeCaptchaProviders();
    await seedSite(getDb(), shopSite);
  });
  afterAll(async () => {
    await providers?.close();
  });
  beforeEach(async () => {
    providers.reset();
    warnings.length = 0;
    await getDb().deleteFrom('captcha_solutions').execute();
  });

  const env = () => ({
    recaptchaEnterpriseApiKey: FAKE_RECAPTCHA_API_KEY,
    recaptchaEnterpriseApiUrl: providers.url,
    turnstileSecretKey: FAKE_TURNSTILE_SECRET,
    turnstileApiUrl: providers.url,
    timeoutMs: 2000,
  });
  const recaptchaSite = siteWith({
    provider: 'recaptcha-enterprise',
    siteKey: '6LcKey',
    projectId: 'vitrine-shop',
    scoreThreshold: 0.7,
  });

  it('verifies with the site’s provider, keys and threshold, on the site’s domains', async () => {
    const verify = captchaVerifier(env(), log);
    const good = fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: 'shop.test', score: 0.8 });
    expect(await verify(getDb(), recaptchaSite, good, 'FORM_BLOCK_SUBMISSION', { hostname: 'shop.test' })).toBe('ok');
    expect(providers.calls[0]!.path).toBe('/v1/projects/vitrine-shop/assessments');
    expect((providers.calls[0]!.body.event as { siteKey: string }).siteKey).toBe('6LcKey');
    // The site's threshold (0.7), not the default.
    const middling = fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: 'shop.test', score: 0.6 });
    expect(await verify(getDb(), recaptchaSite, middling, 'FORM_BLOCK_SUBMISSION')).toBe('invalid');
    // The Host header cannot make another host's token pass on a site with domains.
    const elsewhere = fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: 'evil.example', score: 0.9 });
    expect(await verify(getDb(), recaptchaSite, elsewhere, 'FORM_BLOCK_SUBMISSION', { hostname: 'evil.example' })).toBe(
      'invalid',
    );
    // Accepted once: Google would assess it again (this stand-in does), the database refuses it.
    expect(await verify(getDb(), recaptchaSite, good, 'FORM_BLOCK_SUBMISSION')).toBe('replayed');

    const turnstileSite = siteWith({ provider: 'turnstile', siteKey: '0x4AAAAAAAkey' });
    const ts = fakeToken({ action: 'NEWSLETTER_BLOCK_SUBMISSION', hostname: 'shop.test' });
    expect(await verify(getDb(), turnstileSite, ts, 'NEWSLETTER_BLOCK_SUBMISSION')).toBe('ok');
    expect(await verify(getDb(), siteWith({ provider: 'none' }), 'anything', 'FORM_BLOCK_SUBMISSION')).toBe('ok');
    expect(warnings).toEqual([]);
  });

  it('accepts a token once when two submissions send it at the same moment', async () => {
    const verify = captchaVerifier(env(), log);
    const token = fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: 'shop.test', score: 0.9 });
    const checks = await Promise.all(
      Array.from({ length: 4 }, () => verify(getDb(), recaptchaSite, token, 'FORM_BLOCK_SUBMISSION')),
    );
    expect(checks.sort()).toEqual(['ok', 'replayed', 'replayed', 'replayed']);
  });

  it('is unavailable, and logs why, when this process or the site lacks what the provider needs', async () => {
    const token = fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: 'shop.test' });
    expect(await captchaVerifier({}, log)(getDb(), recaptchaSite, token, 'FORM_BLOCK_SUBMISSION')).toBe('unavailable');
    expect(
      await captchaVerifier(env(), log)(
        getDb(),
        siteWith({ provider: 'recaptcha-enterprise', projectId: 'vitrine-shop' }),
        token,
        'FORM_BLOCK_SUBMISSION',
      ),
    ).toBe('unavailable');
    expect(
      await captchaVerifier({ ...env(), turnstileSecretKey: ' ' }, log)(
        getDb(),
        siteWith({ provider: 'turnstile' }),
        token,
        'FORM_BLOCK_SUBMISSION',
      ),
    ).toBe('unavailable');
    providers.mode = 'down';
    expect(await captchaVerifier(env(), log)(getDb(), recaptchaSite, token, 'FORM_BLOCK_SUBMISSION')).toBe(
      'unavailable',
    );
    expect(warnings).toEqual([
      'CAPTCHA (recaptcha-enterprise) of site shop could not be checked: RECAPTCHA_ENTERPRISE_API_KEY is not set',
      "CAPTCHA (recaptcha-enterprise) of site shop could not be checked: the site's captcha.siteKey is not set",
      'CAPTCHA (turnstile) of site shop could not be checked: TURNSTILE_SECRET_KEY is not set',
      'CAPTCHA (recaptcha-enterprise) of site shop could not be checked: reCAPTCHA Enterprise answered 503: The service is currently unavailable.',
    ]);
  });

  it('expects the site’s domains (without port), else the host the form was sent to', () => {
    expect(
      expectedHostnames({ domains: ['Shop.test:3000', 'www.shop.test', 'shop.test'] }, { hostname: 'x.test' }),
    ).toEqual(['shop.test', 'www.shop.test']);
    expect(expectedHostnames({ domains: [] }, { hostname: 'Localhost' })).toEqual(['localhost']);
    expect(expectedHostnames({ domains: [] }, {})).toEqual([]);
  });
});

describe('RECAPTCHA_ENTERPRISE_* and TURNSTILE_* settings (loadConfig)', () => {
  it('are absent when none is set, and handed to the verifier by captchaEnvOf', () => {
    expect(loadConfig({})).not.toHaveProperty('captcha');
    const config = loadConfig({
      RECAPTCHA_ENTERPRISE_API_KEY: 'AIzaSyA-test_key.123',
      RECAPTCHA_ENTERPRISE_API_URL: 'http://127.0.0.1:4000',
      TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret',
      TURNSTILE_API_URL: 'https://turnstile-proxy.example',
    });
    expect(captchaEnvOf(config)).toEqual({
      recaptchaEnterpriseApiKey: 'AIzaSyA-test_key.123',
      recaptchaEnterpriseApiUrl: 'http://127.0.0.1:4000',
      turnstileSecretKey: '0x4AAAAAAAsecret',
      turnstileApiUrl: 'https://turnstile-proxy.example',
    });
  });

  it('refuses malformed values, naming the setting and never showing a secret', () => {
    let error: unknown;
    try {
      loadConfig({
        TURNSTILE_SECRET_KEY: '0x4AAA secret"',
        RECAPTCHA_ENTERPRISE_API_URL: 'https://x.example/v1/projects',
        TURNSTILE_API_URL: 'ftp://x',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^RECAPTCHA_ENTERPRISE_API_URL must be an http:\/\/ or https:\/\/ URL with a host and no path/,
    );
    expect(problems[1]).toMatch(/^TURNSTILE_SECRET_KEY must be a Turnstile secret key/);
    expect(problems[2]).toMatch(/^TURNSTILE_API_URL must be/);
    expect(problems.join('\n')).not.toContain('0x4AAA secret');
  });
});

describe('website.captcha in the site file', () => {
  const problemsOf = (captcha: unknown) => {
    const result = validateSite({ version: 1, website: { id: 'shop', title: 'Shop', captcha } });
    return result.ok ? [] : result.problems;
  };

  it('takes a provider with its site key, project and threshold', () => {
    expect(
      problemsOf({
        provider: 'recaptcha-enterprise',
        siteKey: '6LcAbc_-1',
        projectId: 'my-shop-123',
        scoreThreshold: 0.7,
      }),
    ).toEqual([]);
    expect(problemsOf({ provider: 'recaptcha-enterprise', projectId: '123456789012' })).toEqual([]);
    expect(problemsOf({ provider: 'turnstile', siteKey: '0x4AAAAAAAkey' })).toEqual([]);
    expect(problemsOf({ provider: 'altcha' })).toEqual([]);
  });

  it('names what is wrong: no project for reCAPTCHA, a key or project of the wrong shape, a threshold outside 0–1', () => {
    expect(problemsOf({ provider: 'recaptcha-enterprise', siteKey: 'k' })).toEqual([
      'website.captcha.projectId: is needed with provider recaptcha-enterprise: the Google Cloud project of the site key',
    ]);
    expect(problemsOf({ provider: 'turnstile', siteKey: 'has space"<' })).toEqual([
      "website.captcha.siteKey: must be the provider's site key: letters, digits, - and _",
    ]);
    expect(problemsOf({ provider: 'recaptcha-enterprise', projectId: 'Bad_Project' })[0]).toMatch(
      /^website\.captcha\.projectId: must be a Google Cloud project id/,
    );
    expect(problemsOf({ provider: 'recaptcha-enterprise', projectId: 'my-shop', scoreThreshold: 1.5 })).toEqual([
      'website.captcha.scoreThreshold: must be from 0 to 1',
    ]);
    expect(problemsOf({ provider: 'hcaptcha' })[0]).toMatch(/^website\.captcha\.provider: /);
  });
});
