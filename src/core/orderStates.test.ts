import { describe, expect, it } from 'vitest';
import { ProductType } from './enums';
import {
  CARRIERS,
  fulfilsItself,
  normalTrackingNumber,
  paymentLabel,
  paymentState,
  trackingNumberProblem,
  trackingUrl,
} from './orderStates';

describe('paymentState / paymentLabel', () => {
  it('derives the payment from the status, the refunded amount and the total', () => {
    expect(paymentLabel('paid', 0, 1000)).toBe('Paid');
    expect(paymentLabel('awaiting-payment', 0, 1000)).toBe('Awaiting payment');
    expect(paymentLabel('refunded', 0, 1000)).toBe('Refunded');
    expect(paymentLabel('refunded', 1000, 1000)).toBe('Refunded');
    expect(paymentLabel('paid', 300, 1000)).toBe('Partially refunded');
    expect(paymentState('paid', 1000, 1000)).toBe('refunded');
    expect(paymentState('paid', 1200, 1000)).toBe('refunded');
    expect(paymentState('paid', 1, 5000)).toBe('partially-refunded');
    expect(paymentState('paid', 4999, 5000)).toBe('partially-refunded');
    expect(paymentState('paid', 0, 0)).toBe('paid');
  });
});

describe('fulfilsItself', () => {
  it('is true only for orders of digital products, gift cards and paywall access', () => {
    expect(fulfilsItself([ProductType.DIGITAL])).toBe(true);
    expect(fulfilsItself([ProductType.GIFT_CARD, ProductType.DIGITAL, ProductType.PAYWALL])).toBe(true);
    expect(fulfilsItself([ProductType.DIGITAL, ProductType.PHYSICAL])).toBe(false);
    expect(fulfilsItself([ProductType.SERVICE])).toBe(false);
    expect(fulfilsItself([])).toBe(false);
  });
});

describe('tracking', () => {
  it('links the known carriers, with the number encoded and its spaces removed', () => {
    expect(trackingUrl('UPS', '1Z 999 AA1')).toBe('https://www.ups.com/track?tracknum=1Z999AA1');
    expect(trackingUrl('USPS', '9400')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400');
    expect(trackingUrl('FedEx', '1234')).toBe('https://www.fedex.com/fedextrack/?trknbr=1234');
    for (const carrier of CARRIERS.filter((c) => c !== 'Other')) {
      expect(trackingUrl(carrier, 'AB-12')).toMatch(/^https:\/\/[^ ]+AB-12/);
    }
  });

  it('has no link for Other, an unknown carrier or no number', () => {
    expect(trackingUrl('Other', '1234')).toBeNull();
    expect(trackingUrl('Pigeon', '1234')).toBeNull();
    expect(trackingUrl('UPS', null)).toBeNull();
    expect(trackingUrl(null, '1234')).toBeNull();
  });

  it('normalises and checks the number', () => {
    expect(normalTrackingNumber('  1Z  999 ')).toBe('1Z 999');
    expect(normalTrackingNumber('   ')).toBeNull();
    expect(trackingNumberProblem(null)).toBeNull();
    expect(trackingNumberProblem('1Z999AA10123456784')).toBeNull();
    expect(trackingNumberProblem('<script>')).toMatch(/only letters, digits/);
    expect(trackingNumberProblem('A'.repeat(65))).toMatch(/too long/);
  });
});
