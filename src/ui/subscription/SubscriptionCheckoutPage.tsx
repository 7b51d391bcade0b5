/**
 * The subscription checkout (/checkout/subscribe?cartToken=…): a plain form, rendered on the server, that posts back
 * to its own address and works without JavaScript. E-mail, shipping address (when the product ships), shipping method,
 * payment; the plan's wording above the summary. The fields' names and checks are the checkout's (../checkout).
 */
import { CART_MESSAGES } from '../../core/cartPill';
import { shownTotalValue, totalsFinal } from '../../core/checkout/shownTotal';
import { addressFormFor } from '../../core/checkout/address';
import type { CurrencyCode } from '../../core/currency';
import type { CheckoutQuote } from '../../services/orderTypes';
import { controlAttributes, Field, FieldError, TextField } from '../checkout/CheckoutFields';
import { fieldErrorId, fieldId, type CheckoutErrors, type CheckoutFieldName, type CheckoutValues } from '../checkout/formValues';
import { shippingAmountText, SummaryLines, SummaryTotals } from '../checkout/OrderSummary';

export interface SubscriptionCheckoutProps {
  /** Where the form posts (this page's address with its cart token). */
  action: string;
  currency: CurrencyCode;
  siteId: string;
  quote: CheckoutQuote;
  planText: string;
  productName: string;
  values: CheckoutValues;
  errors: CheckoutErrors;
  alert: string | null;
  idempotencyKey: string;
  crumb: string;
  shipsTo: { code: string; name: string }[];
  payment: { provider: string; notice: string | null };
}

const LABELS: Record<string, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  address1: 'Address',
  address2: 'Address 2',
  city: 'City',
  country: 'Country',
  phone: 'Phone',
  shippingOptionId: 'Shipping method',
  cardNumber: 'Card number',
  cardExpiry: 'Expiry (MM / YY)',
  cardCvc: 'CVC',
  payment: 'Payment',
  paymentMethodId: 'Payment method',
};

export function SubscriptionCheckoutPage(props: SubscriptionCheckoutProps) {
  const { quote, values, errors, currency } = props;
  const addressForm = addressFormFor(values.country);
  const labels: Record<string, string> = { ...LABELS, region: addressForm.regionLabel, postalCode: addressForm.postalLabel };
  const field = (name: CheckoutFieldName) => ({ name, label: labels[name] ?? name, error: errors[name as keyof CheckoutErrors], value: values[name] });
  const lines = quote.cart.entries.map((e) => ({
    id: e.id,
    title: e.title,
    attributes: e.chosenVariant.attributes,
    answers: e.additionalFieldsSummary,
    quantity: e.quantity,
    lineTotal: e.subTotal,
    image: quote.lineImages[e.id] ?? null,
  }));
  const errorItems = Object.entries(errors).filter(([, message]) => message);
  return (
    <div className="checkout-page subscription-checkout">
      <h1>Subscribe to {props.productName}</h1>
      <p className="subscription-plan">
        <span className="subscription-plan__label">Plan:</span> <strong className="subscription-plan__text">{props.planText}</strong>
      </p>
      {props.alert ? (
        <div className="checkout-alert" role="alert" aria-labelledby="subscribe-alert-title">
          <h2 id="subscribe-alert-title" className="checkout-alert__title">
            {props.alert}
          </h2>
          {errorItems.length > 0 ? (
            <ul className="checkout-alert__list">
              {errorItems.map(([name, message]) => (
                <li key={name}>
                  <a href={`#${name === 'payment' ? fieldErrorId('payment') : fieldId(name as CheckoutFieldName)}`}>{`${labels[name] ?? name}: ${message}`}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <form className="checkout" method="post" action={props.action} noValidate>
        <input type="hidden" name="crumb" value={props.crumb} />
        <input type="hidden" name="idempotencyKey" value={props.idempotencyKey} />
        {/* The total shown, so that Subscribe never charges another one (../../core/checkout/shownTotal). */}
        <input type="hidden" name="shownTotal" value={shownTotalValue(quote.totals, totalsFinal(quote))} />
        <div className="checkout__details">
          <section className="checkout-section" aria-labelledby="subscribe-contact">
            <h2 id="subscribe-contact">Contact</h2>
            <TextField {...field('email')} type="email" autoComplete="email" required />
          </section>
          {quote.requiresShipping ? (
            <section className="checkout-section" aria-labelledby="subscribe-address">
              <h2 id="subscribe-address">Shipping address</h2>
              <div className="checkout-row">
                <TextField {...field('firstName')} autoComplete="given-name" required />
                <TextField {...field('lastName')} autoComplete="family-name" required />
              </div>
              <TextField {...field('address1')} autoComplete="address-line1" required />
              <TextField {...field('address2')} autoComplete="address-line2" />
              <TextField {...field('city')} autoComplete="address-level2" required />
              <div className="checkout-row">
                <Field name="country" label={labels.country ?? 'Country'} error={errors.country} required>
                  <select {...controlAttributes('country', errors.country)} autoComplete="country" defaultValue={values.country}>
                    {props.shipsTo.some((c) => c.code === values.country) ? null : <option value="">Choose a country</option>}
                    {props.shipsTo.map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </Field>
                {addressForm.regions.length > 0 ? (
                  <Field name="region" label={addressForm.regionLabel} error={errors.region} required={addressForm.regionRequired}>
                    <select {...controlAttributes('region', errors.region)} autoComplete="address-level1" defaultValue={values.region}>
                      <option value="">Choose a {addressForm.regionLabel.toLowerCase()}</option>
                      {addressForm.regions.map((r) => (
                        <option key={r.code} value={r.code}>
                          {r.name}
                        </option>
                      ))}
                    </select>
                  </Field>
                ) : (
                  <TextField {...field('region')} autoComplete="address-level1" required={addressForm.regionRequired} />
                )}
              </div>
              <div className="checkout-row">
                <TextField {...field('postalCode')} autoComplete="postal-code" required={addressForm.postalRequired} />
                <TextField {...field('phone')} type="tel" autoComplete="tel" />
              </div>
            </section>
          ) : null}
          {quote.requiresShipping ? (
            <fieldset className="checkout-section checkout-options" aria-describedby={errors.shippingOptionId ? fieldErrorId('shippingOptionId') : undefined}>
              <legend>
                <span className="checkout-section__heading">Shipping method</span>
              </legend>
              <FieldError name="shippingOptionId" error={errors.shippingOptionId} />
              {quote.shippingOptions.length === 0 ? <p className="field__description">No shipping option reaches this address.</p> : null}
              {quote.shippingOptions.map((o, i) => (
                <label className="checkout-option" key={o.id}>
                  <input
                    id={i === 0 ? fieldId('shippingOptionId') : undefined}
                    type="radio"
                    name="shippingOptionId"
                    value={o.id}
                    defaultChecked={quote.selectedShippingOptionId === o.id}
                  />
                  <span className="checkout-option__name">{o.name}</span>
                  <span className="checkout-option__price">{shippingAmountText(o.amount, currency)}</span>
                </label>
              ))}
            </fieldset>
          ) : null}
          <section className="checkout-section" aria-labelledby="subscribe-payment">
            <h2 id="subscribe-payment">Payment</h2>
            {props.payment.notice ? <p className="checkout-notice">{props.payment.notice}</p> : null}
            <p className="field__description">Your card is kept and charged for each renewal ({props.planText}) until you cancel or the plan ends.</p>
            <FieldError name="payment" error={errors.payment} />
            {props.payment.provider === 'test' ? (
              <>
                <TextField {...field('cardNumber')} autoComplete="cc-number" inputMode="numeric" required />
                <div className="checkout-row">
                  <TextField {...field('cardExpiry')} autoComplete="cc-exp" inputMode="numeric" placeholder="MM / YY" required />
                  <TextField {...field('cardCvc')} autoComplete="cc-csc" inputMode="numeric" required />
                </div>
              </>
            ) : null}
            {props.payment.provider === 'stripe' ? <TextField {...field('paymentMethodId')} autoComplete="off" required /> : null}
          </section>
        </div>
        <section className="checkout__summary" aria-labelledby="subscribe-summary">
          <h2 id="subscribe-summary">First period</h2>
          <SummaryLines lines={lines} siteId={props.siteId} currency={currency} />
          <SummaryTotals
            totals={quote.totals}
            currency={currency}
            requiresShipping={quote.requiresShipping}
            couponCode={null}
            shippingPending={quote.selectedShippingOptionId === null}
          />
          <div className="checkout-actions">
            <button type="submit" name="intent" value="quote" className="button">
              Update totals
            </button>
            <button type="submit" name="intent" value="place" className="button button--primary checkout-place">
              Subscribe
            </button>
          </div>
        </section>
      </form>
    </div>
  );
}

/** The token names no open subscription cart (unknown, already bought, expired). */
export function SubscriptionCartGone({ shopPath }: { shopPath: string }) {
  return (
    <div className="checkout-page subscription-checkout">
      <h1>Subscribe</h1>
      <p>{CART_MESSAGES.emptyCart}</p>
      <p>This subscription link has already been used or has expired. Please choose the subscription again on its product page.</p>
      <p>
        <a className="button" href={shopPath}>
          Continue shopping
        </a>
      </p>
    </div>
  );
}
