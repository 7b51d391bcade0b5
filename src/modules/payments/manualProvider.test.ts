import { describe, expect, it } from 'vitest';
import { manualProvider } from './manualProvider';
import type { AuthorizeRequest } from './provider';

const INSTRUCTIONS = 'We will e-mail you our bank details. Your order ships once payment arrives.';
const request = (overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  amount: 12_000,
  currency: 'EUR',
  idempotencyKey: 'attempt-1',
  method: {},
  email: 'ada@example.com',
  description: 'Shop — order',
  now: new Date('2026-03-15T12:00:00Z'),
  ...overrides,
});

describe('manual provider', () => {
  const provider = manualProvider(INSTRUCTIONS);

  it("shows the site's manual instructions as its notice (none when blank)", () => {
    expect(provider.name).toBe('manual');
    expect(provider.notice).toBe(INSTRUCTIONS);
    expect(manualProvider('  Pay at the counter.  ').notice).toBe('Pay at the counter.');
    expect(manualProvider('   ').notice).toBeNull();
  });

  it('charges nothing: the order awaits payment, under a reference derived from the key', async () => {
    const outcome = await provider.authorize(request());
    expect(outcome).toEqual({ status: 'awaiting-payment', reference: expect.stringMatching(/^manual_[0-9a-f]{24}$/) });
    expect(await manualProvider('other text').authorize(request({ method: { anything: 'x' } }))).toEqual(outcome);
    expect(await provider.authorize(request({ idempotencyKey: 'attempt-2' }))).not.toEqual(outcome);
  });

  it('authorizes a zero amount as paid: there is nothing to wait for', async () => {
    expect(await provider.authorize(request({ amount: 0 }))).toEqual({
      status: 'authorized',
      reference: expect.stringMatching(/^free_[0-9a-f]{24}$/),
    });
  });

  it('captures, voids and refunds its own references (no money moved here)', async () => {
    const outcome = await provider.authorize(request());
    if (outcome.status !== 'awaiting-payment') throw new Error('not awaiting payment');
    expect(await provider.capture(outcome.reference, 12_000, 'k:capture')).toEqual({ ok: true, value: undefined });
    expect(await provider.void(outcome.reference, 'k:void')).toEqual({ ok: true, value: undefined });
    expect(await provider.refund(outcome.reference, 12_000, 'k:refund')).toEqual({ ok: true, value: undefined });
    expect(await provider.void('test_abc', 'k:void')).toEqual({
      ok: false,
      error: "'test_abc' is not a payment of the manual provider",
    });
  });
});
