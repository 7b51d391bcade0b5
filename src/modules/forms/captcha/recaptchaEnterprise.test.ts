/**
 * The reCAPTCHA Enterprise adapter against a local server playing Google's assessments API (test/support/
 * captchaProviders.ts): what it sends, and its verdict for a valid token, the wrong action, a low score, an expired or
 * replayed token, another host, Google down, too slow, or answering something that is not an assessment.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_RECAPTCHA_API_KEY,
  fakeToken,
  startFakeCaptchaProviders,
  type FakeCaptchaProviders,
} from '../../../../test/support/captchaProviders';
import { verifyRecaptchaEnterprise, type RecaptchaEnterpriseOptions } from './recaptchaEnterprise';

const ACTION = 'FORM_BLOCK_SUBMISSION';
const expected = { action: ACTION, hostnames: ['shop.test'] };

describe('reCAPTCHA Enterprise adapter', () => {
  let google: FakeCaptchaProviders;
  let options: RecaptchaEnterpriseOptions;

  beforeAll(async () => {
    google = await startFakeCaptchaProviders();
    options = {
      apiKey: FAKE_RECAPTCHA_API_KEY,
      projectId: 'vitrine-shop',
      siteKey: '6LcSiteKey',
      apiUrl: google.url,
      timeoutMs: 1500,
    };
  });
  afterAll(async () => {
    await google?.close();
  });
  beforeEach(() => google.reset());

  const verify = (token: string, more: Partial<RecaptchaEnterpriseOptions> = {}) =>
    verifyRecaptchaEnterprise({ ...options, ...more }, token, expected, {
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 Test',
    });

  it('accepts a valid token for the expected action and host, sending the assessment Google expects', async () => {
    const token = fakeToken({ action: ACTION, hostname: 'shop.test', score: 0.9 });
    expect(await verify(token)).toEqual({ check: 'ok', reason: 'score 0.9' });
    expect(google.calls).toHaveLength(1);
    const call = google.calls[0]!;
    expect(call.path).toBe('/v1/projects/vitrine-shop/assessments');
    expect(call.headers['x-goog-api-key']).toBe(FAKE_RECAPTCHA_API_KEY);
    expect(call.body).toEqual({
      event: {
        token,
        siteKey: '6LcSiteKey',
        expectedAction: ACTION,
        userIpAddress: '203.0.113.7',
        userAgent: 'Mozilla/5.0 Test',
      },
    });
  });

  it('refuses a token made for another action', async () => {
    const verdict = await verify(fakeToken({ action: 'NEWSLETTER_BLOCK_SUBMISSION', hostname: 'shop.test' }));
    expect(verdict.check).toBe('invalid');
    expect(verdict.reason).toContain('NEWSLETTER_BLOCK_SUBMISSION');
  });

  it('refuses a score below the threshold (0.5 by default, or the site’s)', async () => {
    expect((await verify(fakeToken({ action: ACTION, hostname: 'shop.test', score: 0.3 }))).check).toBe('invalid');
    expect((await verify(fakeToken({ action: ACTION, hostname: 'shop.test', score: 0.5 }))).check).toBe('ok');
    expect(
      (await verify(fakeToken({ action: ACTION, hostname: 'shop.test', score: 0.7 }), { scoreThreshold: 0.8 })).check,
    ).toBe('invalid');
    expect(
      (await verify(fakeToken({ action: ACTION, hostname: 'shop.test', score: 0.1 }), { scoreThreshold: 0 })).check,
    ).toBe('ok');
  });

  it('refuses expired tokens (Google’s EXPIRED, or made more than two minutes ago), replays (DUPE) and invalid ones', async () => {
    expect((await verify(fakeToken({ invalidReason: 'EXPIRED' }))).check).toBe('expired');
    expect((await verify(fakeToken({ action: ACTION, hostname: 'shop.test', ageMs: 3 * 60_000 }))).check).toBe(
      'expired',
    );
    expect((await verify(fakeToken({ action: ACTION, hostname: 'shop.test', ageMs: 100_000 }))).check).toBe('ok');
    expect((await verify(fakeToken({ invalidReason: 'DUPE' }))).check).toBe('replayed');
    expect((await verify(fakeToken({ invalidReason: 'MALFORMED' }))).check).toBe('invalid');
    expect((await verify('not-a-token-at-all')).check).toBe('invalid');
  });

  it('refuses a token made on another host', async () => {
    const verdict = await verify(fakeToken({ action: ACTION, hostname: 'evil.example' }));
    expect(verdict).toEqual({ check: 'invalid', reason: 'the token was made on evil.example, not on shop.test' });
  });

  it('refuses an empty or oversized token without asking Google', async () => {
    expect((await verify('')).check).toBe('invalid');
    expect((await verify('x'.repeat(10_001))).check).toBe('invalid');
    expect(google.calls).toHaveLength(0);
  });

  it('is unavailable — never a pass — when Google is down, too slow, refuses the key or answers garbage', async () => {
    const token = fakeToken({ action: ACTION, hostname: 'shop.test' });
    google.mode = 'down';
    expect(await verify(token)).toEqual({
      check: 'unavailable',
      reason: 'reCAPTCHA Enterprise answered 503: The service is currently unavailable.',
    });
    google.mode = 'hang';
    const started = Date.now();
    expect(await verify(token)).toEqual({
      check: 'unavailable',
      reason: 'reCAPTCHA Enterprise unreachable: no answer within 1500 ms',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    google.mode = 'not-json';
    expect((await verify(token)).check).toBe('unavailable');
    google.mode = 'no-assessment';
    expect((await verify(token)).check).toBe('unavailable');
    google.mode = 'normal';
    const wrongKey = await verify(token, { apiKey: 'AIzaWrongKey123' });
    expect(wrongKey.check).toBe('unavailable');
    expect(wrongKey.reason).toContain('403');
    expect(wrongKey.reason).toContain('RECAPTCHA_ENTERPRISE_API_KEY');
    // Nothing listening there.
    expect((await verify(token, { apiUrl: 'http://127.0.0.1:9' })).check).toBe('unavailable');
  });
});
