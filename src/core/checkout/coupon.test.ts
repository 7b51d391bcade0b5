import { describe, expect, it } from 'vitest';
import {
  COUPON_MESSAGES,
  checkCoupon,
  couponDiscount,
  couponMinimumMessage,
  findCoupon,
  normalizeCouponCode,
  type CouponRule,
} from './coupon';

const coupon = (overrides: Partial<CouponRule> = {}): CouponRule => ({
  code: 'Spring15',
  type: 'percent',
  amount: 15,
  minimumSubtotal: 0,
  oncePerEmail: false,
  ...overrides,
});
const now = new Date('2026-06-15T12:00:00Z');
const context = { subtotalCents: 10_000, now, currency: 'USD' };
const refusal = (message: string) => ({ ok: false, error: { message } });

describe('COUPON_MESSAGES', () => {
  it('has these texts', () => {
    expect(COUPON_MESSAGES).toEqual({
      notFound: 'That coupon code is not valid.',
      notStarted: 'This coupon is not active yet.',
      expired: 'This coupon has expired.',
      belowMinimum: 'This coupon needs a subtotal of {amount} or more.',
      usedUp: 'This coupon has been used up.',
      alreadyUsed: 'You have already used this coupon.',
    });
  });

  it('formats the minimum in the site’s currency', () => {
    expect(couponMinimumMessage(5000, 'USD')).toBe('This coupon needs a subtotal of $50.00 or more.');
    expect(couponMinimumMessage(123_456, 'EUR')).toBe('This coupon needs a subtotal of €1,234.56 or more.');
    expect(couponMinimumMessage(5000, 'JPY')).toBe('This coupon needs a subtotal of ¥5,000 or more.');
    expect(couponMinimumMessage(5000, 'NOK')).toBe('This coupon needs a subtotal of NOK\u00a050.00 or more.');
    expect(couponMinimumMessage(5000, 'gbp')).toBe('This coupon needs a subtotal of £50.00 or more.');
    expect(couponMinimumMessage(5000, 'XYZ')).toBe('This coupon needs a subtotal of $50.00 or more.');
  });
});

describe('normalizeCouponCode', () => {
  it.each<[unknown, string]>([
    [' spring15 ', 'SPRING15'],
    ['Spring-15_x', 'SPRING-15_X'],
    ['', ''],
    [15, ''],
    [null, ''],
    [undefined, ''],
  ])('%j → %j', (code, normalized) => expect(normalizeCouponCode(code)).toBe(normalized));
});

describe('findCoupon', () => {
  const coupons = [coupon(), coupon({ code: 'TENOFF', type: 'fixed', amount: 1000 })];

  it('matches the code whatever its case and spaces', () => {
    expect(findCoupon(coupons, 'spring15')).toBe(coupons[0]);
    expect(findCoupon(coupons, ' SPRING15 ')).toBe(coupons[0]);
    expect(findCoupon(coupons, 'tenoff')).toBe(coupons[1]);
  });

  it.each(['', '  ', 'SPRING', 'SPRING155', 42, null, undefined, 'x'.repeat(100_000)])('finds none for %j', (code) => {
    expect(findCoupon(coupons, code)).toBeUndefined();
  });

  it('finds none in an empty list', () => {
    expect(findCoupon([], 'SPRING15')).toBeUndefined();
  });
});

describe('checkCoupon: applies', () => {
  it('gives the normalised code and the discount', () => {
    expect(checkCoupon(coupon(), context)).toEqual({ ok: true, value: { code: 'SPRING15', discountCents: 1500 } });
  });

  it('applies from startsAt (included) until endsAt (excluded)', () => {
    const bounded = coupon({ startsAt: '2026-06-01T00:00:00Z', endsAt: '2026-07-01T00:00:00Z' });
    expect(checkCoupon(bounded, { ...context, now: new Date('2026-06-01T00:00:00Z') }).ok).toBe(true);
    expect(checkCoupon(bounded, { ...context, now: new Date('2026-06-30T23:59:59.999Z') }).ok).toBe(true);
  });

  it('reads offsets in the bounds', () => {
    const bounded = coupon({ startsAt: '2026-06-15T14:00:00+02:00' }); // 12:00Z
    expect(checkCoupon(bounded, context).ok).toBe(true);
    expect(checkCoupon(bounded, { ...context, now: new Date('2026-06-15T11:59:59Z') })).toEqual(
      refusal('This coupon is not active yet.'),
    );
  });

  it('applies while uses are below the limit', () => {
    expect(checkCoupon(coupon({ usageLimit: 3 }), { ...context, usesSoFar: 2 }).ok).toBe(true);
    expect(checkCoupon(coupon({ usageLimit: 1 }), context).ok).toBe(true); // no uses so far
  });

  it('applies once per e-mail when this e-mail has not used it', () => {
    expect(checkCoupon(coupon({ oncePerEmail: true }), { ...context, usedByEmail: false }).ok).toBe(true);
    expect(checkCoupon(coupon({ oncePerEmail: true }), context).ok).toBe(true);
    expect(checkCoupon(coupon({ oncePerEmail: false }), { ...context, usedByEmail: true }).ok).toBe(true);
  });

  it('applies at exactly the minimum subtotal', () => {
    expect(checkCoupon(coupon({ minimumSubtotal: 10_000 }), context).ok).toBe(true);
  });
});

describe('checkCoupon: refused', () => {
  it.each<
    [string, CouponRule | undefined, Partial<typeof context> & { usesSoFar?: number; usedByEmail?: boolean }, string]
  >([
    ['no such coupon', undefined, {}, 'That coupon code is not valid.'],
    ['before startsAt', coupon({ startsAt: '2026-06-15T12:00:00.001Z' }), {}, 'This coupon is not active yet.'],
    ['at endsAt', coupon({ endsAt: '2026-06-15T12:00:00Z' }), {}, 'This coupon has expired.'],
    ['after endsAt', coupon({ endsAt: '2026-01-01T00:00:00Z' }), {}, 'This coupon has expired.'],
    ['uses reached the limit', coupon({ usageLimit: 3 }), { usesSoFar: 3 }, 'This coupon has been used up.'],
    ['uses beyond the limit', coupon({ usageLimit: 3 }), { usesSoFar: 7 }, 'This coupon has been used up.'],
    [
      'this e-mail used it',
      coupon({ oncePerEmail: true }),
      { usedByEmail: true },
      'You have already used this coupon.',
    ],
    [
      'subtotal below the minimum',
      coupon({ minimumSubtotal: 10_001 }),
      {},
      'This coupon needs a subtotal of $100.01 or more.',
    ],
    [
      'minimum in euros',
      coupon({ minimumSubtotal: 250_000 }),
      { currency: 'EUR' },
      'This coupon needs a subtotal of €2,500.00 or more.',
    ],
  ])('%s', (_name, rule, overrides, message) => {
    expect(checkCoupon(rule, { ...context, ...overrides })).toEqual(refusal(message));
  });

  it('checks in order: dates, uses, e-mail, then the subtotal the shopper can still change', () => {
    const everything = coupon({
      startsAt: '2027-01-01T00:00:00Z',
      usageLimit: 1,
      oncePerEmail: true,
      minimumSubtotal: 1_000_000,
    });
    const worst = { ...context, usesSoFar: 1, usedByEmail: true };
    expect(checkCoupon(everything, worst)).toEqual(refusal('This coupon is not active yet.'));
    expect(checkCoupon({ ...everything, startsAt: undefined, endsAt: '2026-01-01T00:00:00Z' }, worst)).toEqual(
      refusal('This coupon has expired.'),
    );
    expect(checkCoupon({ ...everything, startsAt: undefined }, worst)).toEqual(
      refusal('This coupon has been used up.'),
    );
    expect(checkCoupon({ ...everything, startsAt: undefined, usageLimit: undefined }, worst)).toEqual(
      refusal('You have already used this coupon.'),
    );
    expect(
      checkCoupon({ ...everything, startsAt: undefined, usageLimit: undefined, oncePerEmail: false }, worst),
    ).toEqual(refusal('This coupon needs a subtotal of $10,000.00 or more.'));
  });

  it('refuses rather than grants when a date or the clock cannot be read', () => {
    expect(checkCoupon(coupon({ startsAt: 'soon' }), context)).toEqual(refusal('This coupon is not active yet.'));
    expect(checkCoupon(coupon({ endsAt: 'later' }), context)).toEqual(refusal('This coupon has expired.'));
    expect(checkCoupon(coupon({ startsAt: '2026-01-01T00:00:00Z' }), { ...context, now: new Date('nope') })).toEqual(
      refusal('This coupon is not active yet.'),
    );
    expect(
      checkCoupon(coupon({ endsAt: '2027-01-01T00:00:00Z' }), { ...context, now: '2026-06-15' as unknown as Date }),
    ).toEqual(refusal('This coupon has expired.'));
    expect(checkCoupon(coupon({ usageLimit: 5 }), { ...context, usesSoFar: Number.NaN })).toEqual(
      refusal('This coupon has been used up.'),
    );
  });

  it('without bounds the clock does not matter', () => {
    expect(checkCoupon(coupon(), { ...context, now: new Date('nope') }).ok).toBe(true);
  });
});

describe('couponDiscount', () => {
  it.each<[string, Pick<CouponRule, 'type' | 'amount'>, number, number]>([
    ['15 % of 333 = 49.95 → 50', { type: 'percent', amount: 15 }, 333, 50],
    ['15 % of 10000', { type: 'percent', amount: 15 }, 10_000, 1500],
    ['10 % of 5 = 0.5 → 1 (half up)', { type: 'percent', amount: 10 }, 5, 1],
    ['10 % of 4 = 0.4 → 0', { type: 'percent', amount: 10 }, 4, 0],
    ['33 % of 1001 = 330.33 → 330', { type: 'percent', amount: 33 }, 1001, 330],
    ['100 % is the whole subtotal', { type: 'percent', amount: 100 }, 12_345, 12_345],
    ['1 % of the largest amount, exactly', { type: 'percent', amount: 1 }, 999_999_999_999_999, 10_000_000_000_000],
    ['percent of nothing', { type: 'percent', amount: 50 }, 0, 0],
    ['a percent above 100 gives nothing', { type: 'percent', amount: 150 }, 1000, 0],
    ['a negative percent gives nothing', { type: 'percent', amount: -10 }, 1000, 0],
    ['fixed below the subtotal', { type: 'fixed', amount: 1000 }, 5000, 1000],
    ['fixed equal to the subtotal', { type: 'fixed', amount: 5000 }, 5000, 5000],
    ['fixed capped at the subtotal', { type: 'fixed', amount: 7500 }, 5000, 5000],
    ['fixed on nothing', { type: 'fixed', amount: 1000 }, 0, 0],
    ['fixed negative gives nothing', { type: 'fixed', amount: -1000 }, 5000, 0],
    ['fixed fraction gives nothing', { type: 'fixed', amount: 10.5 }, 5000, 0],
    ['a bad subtotal counts as 0', { type: 'fixed', amount: 1000 }, Number.NaN, 0],
    ['any type but percent is a fixed amount', { type: 'other' as 'fixed', amount: 300 }, 1000, 300],
  ])('%s', (_name, rule, subtotal, discount) => expect(couponDiscount(rule, subtotal)).toBe(discount));

  it('is what checkCoupon applies', () => {
    expect(checkCoupon(coupon({ type: 'fixed', amount: 7500 }), { ...context, subtotalCents: 5000 })).toEqual({
      ok: true,
      value: { code: 'SPRING15', discountCents: 5000 },
    });
    expect(checkCoupon(coupon(), { ...context, subtotalCents: 333 })).toEqual({
      ok: true,
      value: { code: 'SPRING15', discountCents: 50 },
    });
  });
});
