import { describe, expect, it } from 'vitest';
import { TEST_STORE_NOTICE, testProvider } from './testProvider';
import type { AuthorizeRequest } from './provider';

const now = new Date('2026-03-15T12:00:00Z');
const card = (cardNumber: string, cardExpiry = '12 / 30', cardCvc = '123') => ({ cardNumber, cardExpiry, cardCvc });
const request = (method: Record<string, string>, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  amount: 4250,
  currency: 'USD',
  idempotencyKey: 'attempt-1',
  method,
  email: 'ada@example.com',
  description: 'Shop — order',
  now,
  ...overrides,
});

describe('test provider', () => {
  const provider = testProvider();

  it('is the demo store: named test, with the notice the checkout page shows', () => {
    expect(provider.name).toBe('test');
    expect(provider.notice).toBe(TEST_STORE_NOTICE);
    expect(provider.notice).toBe(
      'This is a test store. No real payment is taken: pay with the test card 4242 4242 4242 4242, any future expiry date and any CVC.',
    );
  });

  it('authorizes 4242 4242 4242 4242 with a reference derived from the idempotency key', async () => {
    const first = await provider.authorize(request(card('4242 4242 4242 4242')));
    expect(first).toEqual({ status: 'authorized', reference: expect.stringMatching(/^test_[0-9a-f]{24}$/) });
    // A retried call (same key) is the same payment; another attempt is another one.
    expect(await provider.authorize(request(card('4242424242424242')))).toEqual(first);
    expect(await testProvider().authorize(request(card('4242 4242 4242 4242')))).toEqual(first);
    const other = await provider.authorize(request(card('4242 4242 4242 4242'), { idempotencyKey: 'attempt-2' }));
    expect(other.status === 'authorized' && first.status === 'authorized' && other.reference !== first.reference).toBe(
      true,
    );
  });

  it('declines 4000 0000 0000 0002 on the card number', async () => {
    expect(await provider.authorize(request(card('4000 0000 0000 0002')))).toEqual({
      status: 'declined',
      message: 'Your card was declined.',
      field: 'cardNumber',
    });
  });

  it('refuses any other valid card with the test card hint', async () => {
    for (const number of ['5555 5555 5555 4444', '4000 0566 5566 5556', '3782 822463 10005']) {
      expect(await provider.authorize(request(card(number)))).toEqual({
        status: 'declined',
        message: 'This is a test store: use the test card 4242 4242 4242 4242.',
        field: 'cardNumber',
      });
    }
  });

  it("declines a card form the core's card check refuses, on the first wrong field", async () => {
    expect(await provider.authorize(request({}))).toEqual({
      status: 'declined',
      message: 'Your card number is incomplete.',
      field: 'cardNumber',
    });
    expect(await provider.authorize(request(card('4242 4242 4242 4241')))).toEqual({
      status: 'declined',
      message: 'Your card number is invalid.',
      field: 'cardNumber',
    });
    expect(await provider.authorize(request(card('4242 4242 4242 4242', '01 / 26')))).toEqual({
      status: 'declined',
      message: 'Your card’s expiration date is in the past.',
      field: 'cardExpiry',
    });
    expect(await provider.authorize(request(card('4242 4242 4242 4242', '12 / 30', '12')))).toEqual({
      status: 'declined',
      message: 'Your card’s security code is incomplete.',
      field: 'cardCvc',
    });
    expect(await provider.authorize(request(card('4242 4242 4242 4242', '', '')))).toMatchObject({
      field: 'cardExpiry',
    });
  });

  it('authorizes a zero amount (a fully discounted order) without a card', async () => {
    const free = await provider.authorize(request({}, { amount: 0 }));
    expect(free).toEqual({ status: 'authorized', reference: expect.stringMatching(/^free_[0-9a-f]{24}$/) });
    expect(await provider.authorize(request({}, { amount: 0 }))).toEqual(free);
    if (free.status !== 'authorized') throw new Error('not authorized');
    expect(await provider.capture(free.reference, 0, 'attempt-1:capture')).toEqual({ ok: true, value: undefined });
    expect(await provider.void(free.reference, 'attempt-1:void')).toEqual({ ok: true, value: undefined });
    expect(await provider.refund(free.reference, 0, 'attempt-1:refund')).toEqual({ ok: true, value: undefined });
  });

  it('captures, voids and refunds its own payments, and refuses references it never gave', async () => {
    const authorized = await provider.authorize(request(card('4242 4242 4242 4242')));
    if (authorized.status !== 'authorized') throw new Error('not authorized');
    for (let i = 0; i < 2; i++) {
      expect(await provider.capture(authorized.reference, 4250, 'attempt-1:capture')).toEqual({
        ok: true,
        value: undefined,
      });
      expect(await provider.void(authorized.reference, 'attempt-1:void')).toEqual({ ok: true, value: undefined });
      expect(await provider.refund(authorized.reference, 4250, 'attempt-1:refund')).toEqual({
        ok: true,
        value: undefined,
      });
    }
    expect(await provider.capture('pi_123', 4250, 'k')).toEqual({
      ok: false,
      error: "'pi_123' is not a payment of the test provider",
    });
    expect((await provider.void('manual_abc', 'k')).ok).toBe(false);
    expect((await provider.refund('', 1, 'k')).ok).toBe(false);
  });

  it('treats a negative or fractional amount, or an empty key, as a caller bug', async () => {
    await expect(provider.authorize(request(card('4242 4242 4242 4242'), { amount: -1 }))).rejects.toThrow(RangeError);
    await expect(provider.authorize(request(card('4242 4242 4242 4242'), { amount: 10.5 }))).rejects.toThrow(
      'whole number of minor units',
    );
    await expect(provider.authorize(request(card('4242 4242 4242 4242'), { idempotencyKey: ' ' }))).rejects.toThrow(
      'idempotency key',
    );
    await expect(provider.capture('test_abc', Number.NaN, 'k')).rejects.toThrow(RangeError);
  });
});
