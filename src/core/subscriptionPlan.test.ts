import { describe, expect, it } from 'vitest';
import { optionPrice, periodPrice, planPriceText, storedPlan } from './subscriptionPlan';

const usd = (minorUnits: number) => ({ minorUnits, currency: 'USD' as const });

describe('subscription plan', () => {
  it('an option costs its sale price while on sale', () => {
    expect(optionPrice({ price: usd(1500), salePrice: usd(1300), onSale: true })).toEqual(usd(1300));
    expect(optionPrice({ price: usd(1500), salePrice: usd(1300), onSale: false })).toEqual(usd(1500));
    expect(optionPrice({ price: null, salePrice: null, onSale: false })).toBeNull();
  });

  it('the period price is the chosen option’s, or the variant’s without options', () => {
    const options = [{ id: 'a', price: usd(1300), salePrice: null, onSale: false }];
    expect(periodPrice({ options, optionId: 'a', variantPrice: usd(2400) })).toEqual(usd(1300));
    expect(periodPrice({ options, optionId: 'nope', variantPrice: usd(2400) })).toBeNull();
    expect(periodPrice({ options: [], variantPrice: usd(2400) })).toEqual(usd(2400));
  });

  it('reads in the spec wording', () => {
    const plan = { billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 0 };
    expect(planPriceText(plan, usd(1300))).toBe('$13.00 every 2 weeks');
    expect(planPriceText({ billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 12 }, usd(1000))).toBe(
      '$10.00 every month for 1 year',
    );
    expect(planPriceText(plan, null)).toBe('Unavailable');
  });

  it('stored plans', () => {
    expect(storedPlan('MONTH', 1, 0)).toEqual({ billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 });
    expect(storedPlan('DECADE', 1, 0)).toBeNull();
  });
});
