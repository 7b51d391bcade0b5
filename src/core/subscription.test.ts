import { describe, expect, it } from 'vitest';
import { usd } from './commerceTestFixtures';
import {
  billingPeriodText,
  durationText,
  fillTemplate,
  MONTHS_PER_YEAR,
  parseBillingPeriod,
  subscriptionPriceText,
  UNAVAILABLE_PRICE_TEXT,
  WEEKS_PER_YEAR,
  type BillingPeriod,
} from './subscription';

const p = (value: number, unit: BillingPeriod['unit']): BillingPeriod => ({ value, unit });

describe('subscription wording (§3, §9)', () => {
  it('converts 52 weeks and 12 months to a year', () => {
    expect([WEEKS_PER_YEAR, MONTHS_PER_YEAR]).toEqual([52, 12]);
  });

  it.each<[unknown, BillingPeriod | null]>([
    [{ value: 1, unit: 'MONTH' }, p(1, 'MONTH')],
    [{ value: '2', unit: 'weeks' }, p(2, 'WEEK')],
    [{ value: 1, unit: ' Year ' }, p(1, 'YEAR')],
    [{ value: 0, unit: 'MONTH' }, null],
    [{ value: 1.5, unit: 'MONTH' }, null],
    [{ value: 1, unit: 'DAY' }, null],
    [{ value: 1 }, null],
    [null, null],
    ['monthly', null],
  ])('parseBillingPeriod(%j)', (raw, expected) => {
    expect(parseBillingPeriod(raw)).toEqual(expected);
  });

  it.each<[BillingPeriod, string]>([
    [p(1, 'WEEK'), 'every week'],
    [p(1, 'MONTH'), 'every month'],
    [p(1, 'YEAR'), 'every year'],
    [p(2, 'WEEK'), 'every 2 weeks'],
    [p(3, 'MONTH'), 'every 3 months'],
    [p(2, 'YEAR'), 'every 2 years'],
  ])('billingPeriodText(%j) = %s', (period, expected) => {
    expect(billingPeriodText(period)).toBe(expected);
  });

  it.each<[BillingPeriod, unknown, string | null]>([
    [p(1, 'MONTH'), 6, '6 months'],
    [p(1, 'MONTH'), 12, '1 year'],
    [p(1, 'MONTH'), 24, '2 years'],
    [p(2, 'WEEK'), 26, '1 year'],
    [p(1, 'WEEK'), 8, '8 weeks'],
    [p(1, 'WEEK'), 1, '1 week'],
    [p(1, 'YEAR'), 3, '3 years'],
    [p(1, 'YEAR'), 1, '1 year'],
    [p(1, 'MONTH'), 0, null],
    [p(1, 'MONTH'), undefined, null],
    [p(1, 'MONTH'), -2, null],
    [p(1, 'MONTH'), '4', '4 months'],
  ])('durationText(%j, %j) = %s', (period, cycles, expected) => {
    expect(durationText(period, cycles)).toBe(expected);
  });

  it('fills templates, leaving unknown placeholders visible', () => {
    expect(
      fillTemplate('{priceString} / {billingPeriodValue} {oops}', {
        priceString: '$5.00',
        billingPeriodValue: 'every week',
      }),
    ).toBe('$5.00 / every week {oops}');
    expect(fillTemplate('{toString}', {})).toBe('{toString}');
  });

  it.each<[Parameters<typeof subscriptionPriceText>[0], string]>([
    [{ price: usd(1000), billingPeriod: { value: 1, unit: 'MONTH' } }, '$10.00 every month'],
    [
      { price: usd(1000), billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 3 },
      '$10.00 every 2 weeks for 6 weeks',
    ],
    [
      { price: usd(999), billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 12 },
      '$9.99 every month for 1 year',
    ],
    [
      {
        price: usd(1000),
        billingPeriod: { value: 1, unit: 'MONTH' },
        numBillingCycles: 6,
        templates: { withDuration: '{durationValue} of {priceString} {billingPeriodValue}' },
      },
      '6 months of $10.00 every month',
    ],
    [
      { price: usd(1000), billingPeriod: { value: 1, unit: 'MONTH' }, templates: { recurring: 'Only {priceString}' } },
      'Only $10.00',
    ],
    [{ price: null, billingPeriod: { value: 1, unit: 'MONTH' } }, 'Unavailable'],
    [{ price: usd(1000), billingPeriod: { value: 0, unit: 'MONTH' } }, 'Unavailable'],
  ])('subscriptionPriceText → %s', (input, expected) => {
    expect(subscriptionPriceText(input)).toBe(expected);
  });

  it('unavailable text is verbatim', () => {
    expect(UNAVAILABLE_PRICE_TEXT).toBe('Unavailable');
  });
});
