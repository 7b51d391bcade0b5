import { describe, expect, it } from 'vitest';
import { taxOn, taxRateFor, type TaxRateRule } from './tax';

const usNy: TaxRateRule = { country: 'US', region: 'NY', rate: 8.875, name: 'Sales tax' };
const usCa: TaxRateRule = { country: 'US', region: 'ca', rate: 7.25, name: 'Sales tax' };
const usTx: TaxRateRule = { country: 'US', region: 'US-TX', rate: 6.25, name: 'Sales tax' };
const us: TaxRateRule = { country: 'US', rate: 5, name: 'Tax' };
const gb: TaxRateRule = { country: 'GB', rate: 20, name: 'VAT' };
const de: TaxRateRule = { country: 'DE', region: '', rate: 19, name: 'MwSt.' };
const ieCork: TaxRateRule = { country: 'IE', region: 'CO', rate: 23, name: 'VAT' };
const rates = [usNy, usCa, usTx, us, gb, de, ieCork];

describe('taxRateFor', () => {
  it('a region’s rate wins over the country’s', () => {
    expect(taxRateFor(rates, 'US', 'NY')).toBe(usNy);
    expect(taxRateFor([us, usNy], 'US', 'NY')).toBe(usNy);
  });

  it('falls back to the country’s rate', () => {
    expect(taxRateFor(rates, 'US', 'NJ')).toBe(us);
    expect(taxRateFor(rates, 'US', '')).toBe(us);
    expect(taxRateFor(rates, 'US')).toBe(us);
    expect(taxRateFor(rates, 'GB', 'SCT')).toBe(gb);
    expect(taxRateFor(rates, 'DE', 'BE')).toBe(de); // region '' is the whole country
  });

  it('reads codes in any case and the ISO region form', () => {
    expect(taxRateFor(rates, ' us ', 'ny')).toBe(usNy);
    expect(taxRateFor(rates, 'US', 'CA')).toBe(usCa);
    expect(taxRateFor(rates, 'US', 'TX')).toBe(usTx);
    expect(taxRateFor(rates, 'US', 'US-NY')).toBe(usNy);
  });

  it('gives undefined where no rate applies', () => {
    expect(taxRateFor(rates, 'IE', 'D')).toBeUndefined(); // only Cork has a rate
    expect(taxRateFor(rates, 'FR', '')).toBeUndefined();
    expect(taxRateFor(rates, undefined, 'NY')).toBeUndefined();
    expect(taxRateFor(rates, '', '')).toBeUndefined();
    expect(taxRateFor([], 'US', 'NY')).toBeUndefined();
  });

  it('keeps the caller’s rate type', () => {
    const withId = [{ ...gb, id: 'uk-vat' }];
    expect(taxRateFor(withId, 'GB')?.id).toBe('uk-vat');
  });
});

describe('taxOn: prices without tax (tax added, rounded half up)', () => {
  it.each<[number, number, number]>([
    [1000, 8.875, 89], // 88.75
    [1000, 20, 200],
    [999, 7.25, 72], // 72.4275
    [1000, 7.25, 73], // 72.5 goes up
    [1, 8.875, 0],
    [6, 8.875, 1], // 0.5325
    [0, 20, 0],
    [1000, 0, 0],
    [1000, 100, 1000],
    [1000, 0.001, 0],
    [100_000, 0.001, 1],
    [999_999_999_999_999, 8.875, 88_750_000_000_000],
  ])('%s at %s %% → %s', (amount, rate, tax) => expect(taxOn(amount, rate, false)).toBe(tax));
});

describe('taxOn: prices with tax (the part that is tax, rounded half up)', () => {
  it.each<[number, number, number]>([
    [1200, 20, 200],
    [1000, 20, 167], // 166.67
    [1190, 19, 190],
    [1000, 8.875, 82], // 81.51
    [3, 20, 1], // 0.5 goes up
    [0, 20, 0],
    [1000, 0, 0],
    [1000, 100, 500],
  ])('%s at %s %% → %s', (amount, rate, tax) => expect(taxOn(amount, rate, true)).toBe(tax));
});

describe('taxOn: bad input gives 0, never throws', () => {
  it.each<[number, number]>([
    [1000, -5],
    [1000, 100.5],
    [1000, Number.NaN],
    [1000, '20' as unknown as number],
    [-1000, 20],
    [10.5, 20],
    [Number.POSITIVE_INFINITY, 20],
  ])('%s at %s', (amount, rate) => {
    expect(taxOn(amount, rate, false)).toBe(0);
    expect(taxOn(amount, rate, true)).toBe(0);
  });
});
