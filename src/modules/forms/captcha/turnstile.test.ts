/**
 * The Turnstile adapter against a local server playing Cloudflare's siteverify (test/support/captchaProviders.ts):
 * what it sends, its verdict for a valid token, the wrong action or host, an old, spent or invalid token, and the
 * retry with the same idempotency key after a failed call; Cloudflare down, too slow or answering garbage is
 * 'unavailable'.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_TURNSTILE_SECRET,
  fakeToken,
  startFakeCaptchaProviders,
  type FakeCaptchaProviders,
} from '../../../../test/support/captchaProviders';
import { verifyTurnstile, type TurnstileOptions } from './turnstile';

const ACTION = 'NEWSLETTER_BLOCK_SUBMISSION';
const expected = { action: ACTION, hostnames: ['shop.test', 'www.shop.test'] };

describe('Turnstile adapter', () => {
  let cloudflare: FakeCaptchaProviders;
  let options: TurnstileOptions;

  beforeAll(async () => {
    cloudflare = await startFakeCaptchaProviders();
    options = { secretKey: FAKE_TURNSTILE_SECRET, apiUrl: cloudflare.url, timeoutMs: 1500 };
  });
  afterAll(async () => {
    await cloudflare?.close();
  });
  beforeEach(() => cloudflare.reset());

  const verify = (token: string, more: Partial<TurnstileOptions> = {}) =>
    verifyTurnstile({ ...options, ...more }, token, expected, { ip: '198.51.100.4' });

  it('accepts a valid token once, sending the secret, the token, the address and an idempotency key', async () => {
    const token = fakeToken({ action: ACTION, hostname: 'www.shop.test' });
    expect(await verify(token)).toEqual({ check: 'ok', reason: 'verified' });
    const call = cloudflare.calls[0]!;
    expect(call.path).toBe('/turnstile/v0/siteverify');
    expect(call.body).toMatchObject({ secret: FAKE_TURNSTILE_SECRET, response: token, remoteip: '198.51.100.4' });
    expect(call.body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    // Spent: a second verification (another key) is refused by Cloudflare.
    expect((await verify(token)).check).toBe('expired');
  });

  it('retries a failed call once with the same idempotency key, and gets the first verification’s answer', async () => {
    const token = fakeToken({ action: ACTION, hostname: 'shop.test' });
    cloudflare.failNext = 1;
    expect((await verify(token, { idempotencyKey: '4d5f3c0e-0000-4000-8000-000000000001' })).check).toBe('ok');
    expect(cloudflare.calls.map((c) => c.body.idempotency_key)).toEqual([
      '4d5f3c0e-0000-4000-8000-000000000001',
      '4d5f3c0e-0000-4000-8000-000000000001',
    ]);
    // The same verification asked again (its answer was lost, say) is answered again, not refused as a duplicate.
    expect((await verify(token, { idempotencyKey: '4d5f3c0e-0000-4000-8000-000000000001' })).check).toBe('ok');
  });

  it('refuses the wrong action, another host, an old challenge and invalid tokens', async () => {
    expect((await verify(fakeToken({ action: 'FORM_BLOCK_SUBMISSION', hostname: 'shop.test' }))).check).toBe('invalid');
    expect(await verify(fakeToken({ action: ACTION, hostname: 'evil.example' }))).toEqual({
      check: 'invalid',
      reason: 'the token was made on evil.example, not on shop.test, www.shop.test',
    });
    expect((await verify(fakeToken({ action: ACTION, hostname: 'shop.test', ageMs: 6 * 60_000 }))).check).toBe(
      'expired',
    );
    expect((await verify(fakeToken({ errorCodes: ['timeout-or-duplicate'] }))).check).toBe('expired');
    expect((await verify('forged')).check).toBe('invalid');
    expect((await verify('')).check).toBe('invalid');
    expect((await verify('x'.repeat(2049))).check).toBe('invalid');
  });

  it('is unavailable — never a pass — when Cloudflare is down, too slow, answers garbage or refuses the secret', async () => {
    const token = fakeToken({ action: ACTION, hostname: 'shop.test' });
    cloudflare.mode = 'down';
    expect(await verify(token)).toEqual({ check: 'unavailable', reason: 'Turnstile answered 503' });
    expect(cloudflare.calls).toHaveLength(2); // the first try and its retry
    cloudflare.mode = 'hang';
    expect(await verify(token)).toEqual({
      check: 'unavailable',
      reason: 'Turnstile unreachable: no answer within 1500 ms',
    });
    cloudflare.mode = 'not-json';
    expect((await verify(token)).check).toBe('unavailable');
    cloudflare.mode = 'no-assessment';
    expect((await verify(token)).check).toBe('unavailable');
    cloudflare.mode = 'normal';
    const wrongSecret = await verify(token, { secretKey: 'not-the-secret' });
    expect(wrongSecret).toEqual({
      check: 'unavailable',
      reason: 'Turnstile refused the call: invalid-input-secret (check TURNSTILE_SECRET_KEY)',
    });
    expect((await verify(fakeToken({ errorCodes: ['internal-error'] }))).check).toBe('unavailable');
    expect((await verify(token, { apiUrl: 'http://127.0.0.1:9' })).check).toBe('unavailable');
  });
});
