/** A product's subscription (site file) as the core's plan and options. */
import type { CurrencyCode } from '../../core/currency';
import type { SubscriptionOption, SubscriptionPlan } from '../../core/subscriptionPlan';
import type { Product } from '../site';

export interface ProductSubscription {
  plan: SubscriptionPlan;
  options: SubscriptionOption[];
}

export function productSubscription(
  product: Pick<Product, 'subscription'>,
  currency: CurrencyCode,
): ProductSubscription | null {
  const sub = product.subscription;
  if (!sub) return null;
  return {
    plan: { billingPeriod: sub.billingPeriod, numBillingCycles: sub.numBillingCycles },
    options: sub.options.map((o) => ({
      id: o.id,
      price: { minorUnits: o.price, currency },
      salePrice: o.salePrice === undefined ? null : { minorUnits: o.salePrice, currency },
      onSale: o.onSale,
      additionalFieldsFormId: o.additionalFieldsFormId,
      useCustomAddButtonText: o.customAddButtonText !== undefined,
      customAddButtonText: o.customAddButtonText ?? null,
    })),
  };
}

/** The form a subscription's answers belong to: the option's, else the product's. */
export const subscriptionFormId = (
  product: Pick<Product, 'additionalFieldsFormId'>,
  option: Pick<SubscriptionOption, 'additionalFieldsFormId'> | undefined,
): string | undefined => option?.additionalFieldsFormId ?? product.additionalFieldsFormId;
