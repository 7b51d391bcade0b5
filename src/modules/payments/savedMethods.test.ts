import { describe, expect, it } from 'vitest';
import { manualProvider } from './manualProvider';
import { TEST_CARD_DECLINES_LATER, testProvider } from './testProvider';

const now = new Date('2026-01-01T00:00:00Z');
const card = (cardNumber: string) => ({ cardNumber, cardExpiry: '12 / 34', cardCvc: '123' });
const charge = (token: string, amount = 1200) => ({
  amount,
  currency: 'USD' as const,
  idempotencyKey: 'renewal:1',
  token,
  email: 'a@b.c',
  description: 'renewal',
  now,
});

describe('saved payment methods (subscriptions)', () => {
  it('test provider: keeps the test card and charges it later', async () => {
    const provider = testProvider();
    const saved = await provider.savePaymentMethod!({
      method: card('4242 4242 4242 4242'),
      email: 'a@b.c',
      idempotencyKey: 'k1',
      now,
    });
    expect(saved).toMatchObject({ status: 'saved', firstPayment: card('4242 4242 4242 4242') });
    if (saved.status !== 'saved') throw new Error('not saved');
    expect(saved.token).toMatch(/^testpm_4242_[0-9a-f]{24}$/);
    expect(saved.token).not.toContain('424242424242');
    expect(await provider.chargeSavedMethod!(charge(saved.token))).toMatchObject({ status: 'authorized' });
    // The same key names the same payment.
    expect(await provider.chargeSavedMethod!(charge(saved.token))).toEqual(
      await provider.chargeSavedMethod!(charge(saved.token)),
    );
  });

  it('test provider: 0341 pays at checkout, is kept, and declines later; 0002 is never kept', async () => {
    const provider = testProvider();
    const first = await provider.authorize({
      amount: 1200,
      currency: 'USD',
      idempotencyKey: 'k2',
      method: card(TEST_CARD_DECLINES_LATER),
      email: 'a@b.c',
      description: 'x',
      now,
    });
    expect(first.status).toBe('authorized');
    const saved = await provider.savePaymentMethod!({
      method: card(TEST_CARD_DECLINES_LATER),
      email: 'a@b.c',
      idempotencyKey: 'k2',
      now,
    });
    if (saved.status !== 'saved') throw new Error('not saved');
    expect(await provider.chargeSavedMethod!(charge(saved.token))).toEqual({
      status: 'declined',
      message: 'Your card was declined.',
      field: 'payment',
    });
    expect(
      await provider.savePaymentMethod!({
        method: card('4000 0000 0000 0002'),
        email: 'a@b.c',
        idempotencyKey: 'k3',
        now,
      }),
    ).toMatchObject({ status: 'declined' });
    expect(
      await provider.savePaymentMethod!({ method: card('4242'), email: 'a@b.c', idempotencyKey: 'k4', now }),
    ).toMatchObject({ status: 'declined', field: 'cardNumber' });
    expect(await provider.chargeSavedMethod!(charge('forged'))).toMatchObject({ status: 'declined' });
  });

  it('manual provider: every renewal awaits payment', async () => {
    const provider = manualProvider('Pay by transfer');
    const saved = await provider.savePaymentMethod!({ method: {}, email: 'a@b.c', idempotencyKey: 'k', now });
    expect(saved).toEqual({ status: 'saved', token: 'manual', firstPayment: {} });
    expect(await provider.chargeSavedMethod!(charge('manual'))).toMatchObject({ status: 'awaiting-payment' });
  });
});
