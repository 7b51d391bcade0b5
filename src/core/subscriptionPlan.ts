import type { Money } from './money';
import {
  parseBillingPeriod,
  subscriptionPriceText,
  type BillingPeriod,
  type SubscriptionTemplates,
} from './subscription';

/**
 * A subscription product's plan and options as the page, the subscription cart and the renewals read them (§3):
 * one billing period and number of cycles per product; each option its own price, sale price, form and button text.
 */
export interface SubscriptionPlan {
  billingPeriod: BillingPeriod;
  /** 0 (or absent) = until cancelled. */
  numBillingCycles: number;
}

export interface SubscriptionOption {
  id: string;
  price: Money | null;
  salePrice: Money | null;
  onSale: boolean;
  additionalFieldsFormId?: string | undefined;
  useCustomAddButtonText?: boolean;
  customAddButtonText?: string | null;
}

/** What one period costs with this option: the sale price while on sale, else the price; null when it has none. */
export function optionPrice(option: Pick<SubscriptionOption, 'price' | 'salePrice' | 'onSale'>): Money | null {
  return option.onSale && option.salePrice ? option.salePrice : option.price;
}

/**
 * The price of one period: the chosen option's; without options, the variant's. A product with options needs one
 * chosen (the first is chosen on the page), so no option there is no price.
 */
export function periodPrice(input: {
  options: readonly SubscriptionOption[];
  optionId?: string | null;
  variantPrice: Money | null;
}): Money | null {
  if (input.options.length === 0) return input.variantPrice;
  const option = input.options.find((o) => o.id === input.optionId);
  return option ? optionPrice(option) : null;
}

/** '$13.00 every 2 weeks', '$10.00 every month for 1 year', or 'Unavailable' (§3, §8). */
export function planPriceText(
  plan: { billingPeriod: unknown; numBillingCycles?: unknown },
  price: Money | null,
  templates?: Partial<SubscriptionTemplates>,
): string {
  return subscriptionPriceText({
    price,
    billingPeriod: plan.billingPeriod,
    numBillingCycles: plan.numBillingCycles,
    ...(templates ? { templates } : {}),
  });
}

/** The plan of a stored subscription (unit and value columns); null when they cannot be read. */
export const storedPlan = (unit: string, value: number, numBillingCycles: number): SubscriptionPlan | null => {
  const billingPeriod = parseBillingPeriod({ unit, value });
  return billingPeriod ? { billingPeriod, numBillingCycles: numBillingCycles > 0 ? numBillingCycles : 0 } : null;
};
