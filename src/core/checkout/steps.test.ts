import { describe, expect, it } from 'vitest';
import { detailErrors, readStep, stepFor } from './steps';

describe('the no-JavaScript checkout steps', () => {
  it('goes on to payment once the e-mail, address and shipping method are right', () => {
    expect(stepFor({})).toBe('payment');
    expect(stepFor({ cardNumber: 'Required', payment: 'Declined' })).toBe('payment');
  });

  it('stays on the details while any of them is wrong, or below the minimum subtotal', () => {
    expect(stepFor({ email: 'Required' })).toBe('details');
    expect(stepFor({ postalCode: 'Enter a ZIP code.', cardCvc: 'Required' })).toBe('details');
    expect(stepFor({ shippingOptionId: 'Choose a shipping option.' })).toBe('details');
    expect(stepFor({}, { belowMinimum: true })).toBe('details');
  });

  it('a code that does not apply keeps the shopper on the details only when leaving them', () => {
    expect(stepFor({ couponCode: 'No such coupon.' }, { leaving: true })).toBe('details');
    expect(stepFor({ couponCode: 'No such coupon.' })).toBe('payment');
    expect(stepFor({ giftCardCode: 'Unknown card.' }, { leaving: true })).toBe('details');
  });

  it('keeps only the details’ messages', () => {
    expect(detailErrors({ email: 'Required', cardCvc: 'Required', couponCode: 'x', payment: 'y' })).toEqual({
      email: 'Required',
    });
  });

  it('reads a posted step', () => {
    expect(readStep('payment')).toBe('payment');
    expect(readStep(['payment'])).toBe('details');
    expect(readStep(undefined)).toBe('details');
  });
});
