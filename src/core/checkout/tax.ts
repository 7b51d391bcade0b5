/** Sales tax and VAT: which rate applies to an address, and how much tax an amount carries. */
import { includedPartOf, percentOf, thousandthsOfPercent } from './percent';

/** A tax rate of the site's checkout settings (`website.store.checkout.tax.rates`). */
export interface TaxRateRule {
  country: string;
  /** A region code of the country's list (e.g. 'NY'); absent = the whole country. */
  region?: string;
  /** Percent, at most 3 decimals (8.875 = 8.875 %). */
  rate: number;
  /** Shown on the totals' row, e.g. 'VAT' or 'Sales tax'. */
  name: string;
}

const upper = (value: unknown): string => (typeof value === 'string' ? value.trim().toUpperCase() : '');

/** A region as its bare code: the site file may write 'ny' or the ISO form 'US-NY' for 'NY'. */
const regionKey = (country: string, region: unknown): string => {
  const code = upper(region);
  return code.startsWith(`${country}-`) ? code.slice(country.length + 1) : code;
};

/**
 * A rate's place as one text, its identity among the settings' rates (two rates for one place are refused):
 * 'US/NY', 'DE/' for the whole country.
 */
export const taxRatePlace = (rate: { country: string; region?: string | undefined }): string =>
  `${rate.country}/${rate.region ?? ''}`;

/** The rate for an address: the region's own rate wins over the country's; undefined when none applies (no tax). */
export const taxRateFor = <R extends TaxRateRule>(
  rates: readonly R[],
  country: string | undefined,
  region?: string,
): R | undefined => {
  const place = upper(country);
  if (place === '') return undefined;
  const inCountry = rates.filter((rule) => upper(rule.country) === place);
  const here = regionKey(place, region);
  return (
    (here === '' ? undefined : inCountry.find((rule) => regionKey(place, rule.region) === here)) ??
    inCountry.find((rule) => regionKey(place, rule.region) === '')
  );
};

/**
 * The tax on an amount at a rate in percent. Prices without tax: the tax added on top, round-half-up(amount × rate / 100).
 * Prices with tax: the part of the amount that is tax, round-half-up(amount × rate / (100 + rate)). An unusable rate
 * (negative, above 100, not a number) or amount gives 0.
 */
export const taxOn = (amountCents: number, ratePercent: number, pricesIncludeTax: boolean): number => {
  const thousandths = thousandthsOfPercent(ratePercent);
  if (thousandths === null) return 0;
  return pricesIncludeTax ? includedPartOf(amountCents, thousandths) : percentOf(amountCents, thousandths);
};
