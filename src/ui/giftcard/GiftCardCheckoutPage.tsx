/**
 * The gift-card checkout page (/checkout/giftcard): a plain form that posts to itself and needs no JavaScript — the
 * amount, the buyer's e-mail, the recipient, a message, the delivery date (today by default, in the site's time
 * zone) and the payment. A refused post shows it again with a summary above it (focusable, linked to each field) and
 * each message by its field.
 */
import type { ReactNode } from 'react';
import { ROUTES } from '../../core/purchaseRoute';
import type { GiftCardPurchaseField, GiftCardPurchaseValues } from '../../modules/giftCards/giftCardPurchase';
import { GIFT_MESSAGE_MAX_LENGTH, RECIPIENT_NAME_MAX_LENGTH } from '../../modules/giftCards/giftCardPurchase';

export interface GiftCardCheckoutProps {
  websiteId: string;
  productId: string;
  productName: string;
  /** Each amount one can buy: its sku and its label ('$25.00'). */
  amounts: { sku: string; label: string }[];
  values: GiftCardPurchaseValues;
  errors: Partial<Record<GiftCardPurchaseField, string>>;
  /** The message above the form after a refusal, or null. */
  alert: string | null;
  idempotencyKey: string;
  crumb: string;
  /** Today and the last day a delivery may be set, 'YYYY-MM-DD' in the site's time zone. */
  today: string;
  lastDay: string;
  timeZone: string;
  payment: { provider: string; notice: string | null };
}

export const fieldId = (name: GiftCardPurchaseField): string => `giftcard-${name}`;
const errorId = (name: GiftCardPurchaseField): string => `giftcard-${name}-error`;

const LABELS: Record<GiftCardPurchaseField, string> = {
  sku: 'Amount',
  email: 'Your email',
  recipientName: 'Recipient’s name',
  recipientEmail: 'Recipient’s email',
  message: 'Message',
  deliveryDate: 'Delivery date',
  cardNumber: 'Card number',
  cardExpiry: 'Expiry (MM / YY)',
  cardCvc: 'CVC',
  payment: 'Payment',
};

/** The fields as the page shows them, top to bottom. */
const PAGE_ORDER: readonly GiftCardPurchaseField[] = [
  'sku',
  'recipientName',
  'recipientEmail',
  'message',
  'deliveryDate',
  'email',
  'payment',
  'cardNumber',
  'cardExpiry',
  'cardCvc',
];

export function GiftCardCheckoutPage(props: GiftCardCheckoutProps) {
  const { values, errors, payment } = props;
  const action = `${ROUTES.giftCardCheckout}?websiteId=${encodeURIComponent(props.websiteId)}&giftCardProductId=${encodeURIComponent(props.productId)}`;
  // Listed in the page's order, so the first one named is the first one met.
  const errorEntries = PAGE_ORDER.filter((name) => errors[name] !== undefined).map(
    (name) => [name, errors[name]!] as const,
  );
  const control = (name: GiftCardPurchaseField) => ({
    id: fieldId(name),
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? errorId(name) : undefined,
  });
  return (
    <div className="checkout-page giftcard-checkout">
      <h1>Buy a {props.productName}</h1>
      {props.alert ? (
        // Its lines (and then itself) go as the fields are fixed (src/client/checkout/followErrors.ts), if it lists any.
        <div
          className="checkout-alert"
          role="alert"
          aria-labelledby="giftcard-alert-title"
          data-error-summary={errorEntries.length > 0 ? 'giftcard' : undefined}
        >
          <h2 id="giftcard-alert-title" className="checkout-alert__title">
            {props.alert}
          </h2>
          {errorEntries.length > 0 ? (
            <ul className="checkout-alert__list">
              {errorEntries.map(([name, message]) => (
                <li key={name}>
                  <a href={`#${name === 'payment' ? errorId('payment') : fieldId(name)}`}>
                    {LABELS[name]}: {message}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <form className="giftcard-form" method="post" action={action} noValidate data-follow-errors="giftcard">
        <input type="hidden" name="idempotencyKey" value={props.idempotencyKey} />
        <input type="hidden" name="crumb" value={props.crumb} />

        {props.amounts.length === 1 ? (
          <input type="hidden" name="sku" value={props.amounts[0]?.sku} />
        ) : (
          <fieldset className="checkout-section" aria-describedby={errors.sku ? errorId('sku') : undefined}>
            <legend>
              <span className="checkout-section__heading">{LABELS.sku}</span>
            </legend>
            <FieldError name="sku" error={errors.sku} />
            {props.amounts.map((amount, i) => (
              <label className="checkout-option" key={amount.sku}>
                <input
                  id={i === 0 ? fieldId('sku') : undefined}
                  type="radio"
                  name="sku"
                  value={amount.sku}
                  defaultChecked={values.sku === amount.sku}
                />
                <span className="checkout-option__name">{amount.label}</span>
              </label>
            ))}
          </fieldset>
        )}

        <section className="checkout-section" aria-labelledby="giftcard-recipient">
          <h2 id="giftcard-recipient">Who is it for?</h2>
          <Field name="recipientName" error={errors.recipientName} required>
            <input
              {...control('recipientName')}
              type="text"
              autoComplete="off"
              maxLength={RECIPIENT_NAME_MAX_LENGTH}
              defaultValue={values.recipientName}
              aria-required
            />
          </Field>
          <Field name="recipientEmail" error={errors.recipientEmail} required>
            <input
              {...control('recipientEmail')}
              type="email"
              autoComplete="off"
              maxLength={256}
              defaultValue={values.recipientEmail}
              aria-required
            />
          </Field>
          <Field name="message" error={errors.message}>
            <textarea
              {...control('message')}
              rows={4}
              maxLength={GIFT_MESSAGE_MAX_LENGTH}
              defaultValue={values.message}
            />
          </Field>
          <Field
            name="deliveryDate"
            error={errors.deliveryDate}
            required
            hint={`The gift card is emailed on this day (${props.timeZone} time). Today sends it right away.`}
          >
            <input
              {...control('deliveryDate')}
              aria-describedby={[errors.deliveryDate ? errorId('deliveryDate') : '', 'giftcard-deliveryDate-hint']
                .filter(Boolean)
                .join(' ')}
              type="date"
              min={props.today}
              max={props.lastDay}
              defaultValue={values.deliveryDate || props.today}
              aria-required
            />
          </Field>
        </section>

        <section className="checkout-section" aria-labelledby="giftcard-contact">
          <h2 id="giftcard-contact">Your details</h2>
          <Field name="email" error={errors.email} required hint="We send your receipt here.">
            <input
              {...control('email')}
              aria-describedby={[errors.email ? errorId('email') : '', 'giftcard-email-hint'].filter(Boolean).join(' ')}
              type="email"
              autoComplete="email"
              maxLength={256}
              defaultValue={values.email}
              aria-required
            />
          </Field>
        </section>

        <section className="checkout-section" aria-labelledby="giftcard-payment">
          <h2 id="giftcard-payment">Payment</h2>
          {payment.notice ? <p className="checkout-notice">{payment.notice}</p> : null}
          <FieldError name="payment" error={errors.payment} />
          {payment.provider === 'test' ? (
            <>
              <Field name="cardNumber" error={errors.cardNumber} required>
                <input
                  {...control('cardNumber')}
                  type="text"
                  autoComplete="cc-number"
                  inputMode="numeric"
                  maxLength={30}
                  aria-required
                />
              </Field>
              <div className="checkout-row">
                <Field name="cardExpiry" error={errors.cardExpiry} required>
                  <input
                    {...control('cardExpiry')}
                    type="text"
                    autoComplete="cc-exp"
                    inputMode="numeric"
                    placeholder="MM / YY"
                    maxLength={10}
                    aria-required
                  />
                </Field>
                <Field name="cardCvc" error={errors.cardCvc} required>
                  <input
                    {...control('cardCvc')}
                    type="text"
                    autoComplete="cc-csc"
                    inputMode="numeric"
                    maxLength={10}
                    aria-required
                  />
                </Field>
              </div>
            </>
          ) : null}
          {payment.provider === 'stripe' ? (
            <p className="checkout-notice">
              Gift cards cannot be paid by card on this page yet. Please contact the shop.
            </p>
          ) : null}
        </section>

        <div className="checkout-actions">
          <button type="submit" className="button button--primary checkout-place">
            Buy gift card
          </button>
        </div>
      </form>
    </div>
  );
}

function FieldError({ name, error }: { name: GiftCardPurchaseField; error: string | undefined }) {
  return error ? (
    <p className="field__error" id={errorId(name)}>
      {error}
    </p>
  ) : null;
}

function Field({
  name,
  error,
  required = false,
  hint,
  children,
}: {
  name: GiftCardPurchaseField;
  error: string | undefined;
  required?: boolean;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={fieldId(name)}>
        {LABELS[name]}
        {required ? null : <span className="optional"> (optional)</span>}
      </label>
      {hint ? (
        <p className="field__description" id={`giftcard-${name}-hint`}>
          {hint}
        </p>
      ) : null}
      <FieldError name={name} error={error} />
      {children}
    </div>
  );
}
