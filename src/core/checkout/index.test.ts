import { describe, expect, it } from 'vitest';
import * as checkout from './index';

describe('the checkout core’s entry', () => {
  it('exports the rules', () => {
    const functions = [
      'addressFormFor',
      'checkShippingAddress',
      'formatAddressLines',
      'countryName',
      'checkPostalCode',
      'shippingOptionsFor',
      'chooseShippingOption',
      'normalizeCouponCode',
      'findCoupon',
      'checkCoupon',
      'couponDiscount',
      'couponMinimumMessage',
      'taxRateFor',
      'taxOn',
      'checkoutTotals',
      'checkCardInput',
      'isLuhnValid',
    ] as const;
    for (const name of functions) expect(typeof checkout[name], name).toBe('function');
    expect(checkout.ADDRESS_FIELDS).toHaveLength(9);
    expect(Object.keys(checkout.COUNTRY_NAMES)).toHaveLength(12);
    expect(checkout.COUPON_MESSAGES.notFound).toBe('That coupon code is not valid.');
    expect(checkout.TEST_CARDS.approved).toBe('4242 4242 4242 4242');
  });
});
