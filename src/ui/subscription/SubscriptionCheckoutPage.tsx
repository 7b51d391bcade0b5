/**
 * The subscription checkout (/checkout/subscribe?cartToken=…): the plan's wording, then the form, an island of the
 * checkout's own bundle (src/client/checkout/SubscriptionCheckoutForm.tsx) that works without JavaScript as a plain
 * form posting to its own address, and with it shows totals that follow the address. The fields' names and checks
 * are the checkout's (../checkout).
 */
import { CART_MESSAGES } from '../../core/cartPill';
import type { SubscriptionCheckoutFormProps } from '../../client/checkout/SubscriptionCheckoutForm';
import { CheckoutIsland } from '../checkout/CheckoutIsland';

export interface SubscriptionCheckoutProps {
  productName: string;
  form: SubscriptionCheckoutFormProps;
}

export function SubscriptionCheckoutPage({ productName, form }: SubscriptionCheckoutProps) {
  return (
    <div className="checkout-page subscription-checkout">
      <h1>Subscribe to {productName}</h1>
      <p className="subscription-plan">
        <span className="subscription-plan__label">Plan:</span>{' '}
        <strong className="subscription-plan__text">{form.planText}</strong>
      </p>
      <CheckoutIsland name="SubscriptionCheckoutForm" id="subscribe" props={form} />
    </div>
  );
}

/** The token names no open subscription cart (unknown, already bought, expired). */
export function SubscriptionCartGone({ shopPath }: { shopPath: string }) {
  return (
    <div className="checkout-page subscription-checkout">
      <h1>Subscribe</h1>
      <p>{CART_MESSAGES.emptyCart}</p>
      <p>
        This subscription link has already been used or has expired. Please choose the subscription again on its product
        page.
      </p>
      <p>
        <a className="button" href={shopPath}>
          Continue shopping
        </a>
      </p>
    </div>
  );
}
