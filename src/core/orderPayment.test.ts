import { describe, expect, it } from 'vitest';
import { PAYMENT_STATE_LABELS, paymentState } from './orderPayment';

describe('paymentState', () => {
  it('is Paid until something is refunded, Partially refunded, then Refunded at the total', () => {
    expect(paymentState('paid', 0, 5000)).toBe('paid');
    expect(paymentState('paid', 1, 5000)).toBe('partially-refunded');
    expect(paymentState('paid', 4999, 5000)).toBe('partially-refunded');
    expect(paymentState('paid', 5000, 5000)).toBe('refunded');
    expect(paymentState('refunded', 5000, 5000)).toBe('refunded');
  });

  it('says an order refunded before refunds were counted is refunded, and one awaiting payment so', () => {
    expect(paymentState('refunded', 0, 5000)).toBe('refunded');
    expect(paymentState('awaiting-payment', 0, 5000)).toBe('awaiting-payment');
    expect(paymentState('paid', 0, 0)).toBe('paid');
  });

  it('has a label for each state', () => {
    expect(PAYMENT_STATE_LABELS[paymentState('paid', 100, 5000)]).toBe('Partially refunded');
  });
});
