import { useEffect, useRef } from 'react';
import { optionPrice, periodPrice, planPriceText } from '../../core/subscriptionPlan';
import { purchasePriceCents } from '../../core/cartRules';
import type { CoreVariant } from '../../core/product';
import { ADD_FORM_FIELDS } from '../../ui/addToCartForm';
import type { ProductPurchaseProps } from './ProductPurchase';

export interface SubscriptionPriceProps {
  idPrefix: string;
  subscription: NonNullable<ProductPurchaseProps['subscription']>;
  optionId: string;
  onChange: (id: string) => void;
  variant: CoreVariant | null;
}

/**
 * A subscription's price block in the spec's wording ('$13.00 every 2 weeks', 'Unavailable' without a price) and, when
 * it has several options, the choice between them, each in the same wording.
 *
 * Its code loads after the page's (./deferredParts.tsx), so a shopper can choose an option before it is hydrated:
 * React then keeps the radio the shopper checked but not the choice, so once hydrated the part tells the island.
 */
export function SubscriptionPrice({ idPrefix, subscription, optionId, onChange, variant }: SubscriptionPriceProps) {
  const variantPrice = variant ? { minorUnits: purchasePriceCents(variant), currency: variant.price.currency } : null;
  const price = periodPrice({ options: subscription.options, optionId, variantPrice });
  const choices = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    const checked = choices.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked');
    if (checked && checked.value !== optionId) onChange(checked.value);
    // Once, as hydrated: later changes go through the radios' onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <>
      <p className="price-block">
        <span className="price subscription-price">{planPriceText(subscription.plan, price)}</span>
      </p>
      {subscription.options.length > 1 ? (
        <fieldset className="subscription-options" ref={choices}>
          <legend>Subscription</legend>
          {subscription.options.map((o) => (
            <label className="subscription-option" key={o.id} htmlFor={`${idPrefix}-option-${o.id}`}>
              <input
                type="radio"
                id={`${idPrefix}-option-${o.id}`}
                name={ADD_FORM_FIELDS.subscriptionOptionId}
                value={o.id}
                checked={o.id === optionId}
                onChange={() => onChange(o.id)}
              />{' '}
              {planPriceText(subscription.plan, optionPrice(o))}
              {o.useCustomAddButtonText && o.customAddButtonText ? (
                <span className="subscription-option__name"> ({o.customAddButtonText})</span>
              ) : null}
            </label>
          ))}
        </fieldset>
      ) : null}
    </>
  );
}
