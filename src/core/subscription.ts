import { formatMoney, type Money } from './money';

/** Subscription wording of spec §3 and §9. */

export const BILLING_UNITS = ['WEEK', 'MONTH', 'YEAR'] as const;
export type BillingUnit = (typeof BILLING_UNITS)[number];

export interface BillingPeriod {
  value: number;
  unit: BillingUnit;
}

/** §9 unit conversion. */
export const WEEKS_PER_YEAR = 52;
export const MONTHS_PER_YEAR = 12;

export const UNAVAILABLE_PRICE_TEXT = 'Unavailable';

/**
 * The spec names the placeholders but not the default templates. These read '$10.00 every month' and
 * '$10.00 every 2 weeks for 6 months'; a site may supply its own.
 */
export const DEFAULT_SUBSCRIPTION_TEMPLATES = {
  recurring: '{priceString} {billingPeriodValue}',
  withDuration: '{priceString} {billingPeriodValue} for {durationValue}',
} as const;
export interface SubscriptionTemplates {
  recurring: string;
  withDuration: string;
}

const NOUNS: Record<BillingUnit, [singular: string, plural: string]> = {
  WEEK: ['week', 'weeks'],
  MONTH: ['month', 'months'],
  YEAR: ['year', 'years'],
};

const positiveInteger = (raw: unknown): number | null => {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
};

/** Reads { value, unit } leniently as to case and plural ('month', 'MONTHS'); anything else is null. */
export function parseBillingPeriod(raw: unknown): BillingPeriod | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { value, unit } = raw as { value?: unknown; unit?: unknown };
  const count = positiveInteger(value);
  const name = typeof unit === 'string' ? unit.trim().toUpperCase().replace(/S$/, '') : '';
  return count !== null && (BILLING_UNITS as readonly string[]).includes(name)
    ? { value: count, unit: name as BillingUnit }
    : null;
}

const quantityOf = (count: number, unit: BillingUnit): string => {
  const [singular, plural] = NOUNS[unit];
  return `${count} ${count === 1 ? singular : plural}`;
};

/** 'every month', 'every 2 weeks'. */
export function billingPeriodText(period: BillingPeriod): string {
  const [singular] = NOUNS[period.unit];
  return period.value === 1 ? `every ${singular}` : `every ${quantityOf(period.value, period.unit)}`;
}

/**
 * How long a subscription with a fixed number of billing cycles lasts: '6 months', '8 weeks', or in years when it
 * comes out even (52 weeks or 12 months to the year), so 26 fortnightly payments read '1 year'.
 * No, zero or invalid cycles mean "until cancelled": no duration (null).
 */
export function durationText(period: BillingPeriod, numBillingCycles: unknown): string | null {
  const cycles = positiveInteger(numBillingCycles);
  if (cycles === null) return null;
  const total = period.value * cycles;
  if (period.unit === 'WEEK' && total % WEEKS_PER_YEAR === 0) return quantityOf(total / WEEKS_PER_YEAR, 'YEAR');
  if (period.unit === 'MONTH' && total % MONTHS_PER_YEAR === 0) return quantityOf(total / MONTHS_PER_YEAR, 'YEAR');
  return quantityOf(total, period.unit);
}

/** Replaces {name} placeholders; unknown placeholders stay as written so a typo in a template is visible. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? whole) : whole,
  );
}

export interface SubscriptionPriceInput {
  /** The price per billing period; null when the plan has none. */
  price: Money | null;
  billingPeriod: unknown;
  numBillingCycles?: unknown;
  templates?: Partial<SubscriptionTemplates>;
}

/** '$10.00 every month for 1 year', or 'Unavailable' when the price or period cannot be shown (§8). */
export function subscriptionPriceText(input: SubscriptionPriceInput): string {
  const period = parseBillingPeriod(input.billingPeriod);
  if (!input.price || !period) return UNAVAILABLE_PRICE_TEXT;
  const duration = durationText(period, input.numBillingCycles);
  const template =
    duration === null
      ? (input.templates?.recurring ?? DEFAULT_SUBSCRIPTION_TEMPLATES.recurring)
      : (input.templates?.withDuration ?? DEFAULT_SUBSCRIPTION_TEMPLATES.withDuration);
  return fillTemplate(template, {
    priceString: formatMoney(input.price),
    billingPeriodValue: billingPeriodText(period),
    durationValue: duration ?? '',
  });
}

/** What adding a subscription to a cart answers when it cannot be added (shown by the cart notice too). */
export const SUBSCRIPTION_CART_MESSAGES = {
  productNotFound: 'Sorry, that item is no longer available.',
  notSubscribable: 'This product is not sold as a subscription.',
  optionNotFound: 'Sorry, that subscription option is no longer available. Please choose another.',
  unavailable: 'This subscription is unavailable at the moment.',
} as const;
