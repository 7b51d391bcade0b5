/**
 * The labelled fields of the checkout forms (the checkout island, the subscription and gift-card checkouts): a label,
 * the field's message under it (tied to the control by aria-describedby), then the control.
 */
import type { ReactNode } from 'react';
import type { CurrencyCode } from '../../core/currency';
import { FIELD_MAX_LENGTHS, fieldErrorId, fieldId, type CheckoutFieldName } from './formValues';
import { shippingAmountText } from './OrderSummary';

/** The attributes every control of a field carries: its name, id, and its message when there is one. */
export const controlAttributes = (name: CheckoutFieldName, error: string | undefined) => ({
  id: fieldId(name),
  name,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? fieldErrorId(name) : undefined,
});

export function FieldError({ name, error }: { name: CheckoutFieldName | 'payment'; error: string | undefined }) {
  return error ? (
    <p className="field__error" id={fieldErrorId(name)}>
      {error}
    </p>
  ) : null;
}

/** A label, the field's message under it, then the control; '(optional)' for what may be left empty. */
export function Field({
  name,
  label,
  error,
  required = false,
  children,
}: {
  name: CheckoutFieldName;
  label: string;
  error: string | undefined;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={fieldId(name)}>
        {label}
        {required ? null : <span className="optional"> (optional)</span>}
      </label>
      <FieldError name={name} error={error} />
      {children}
    </div>
  );
}

export function TextField({
  name,
  label,
  error,
  value,
  type = 'text',
  autoComplete,
  inputMode,
  placeholder,
  required = false,
}: {
  name: CheckoutFieldName;
  label: string;
  error: string | undefined;
  value: string;
  type?: 'text' | 'email' | 'tel';
  autoComplete: string;
  inputMode?: 'numeric';
  placeholder?: string;
  required?: boolean;
}) {
  return (
    <Field name={name} label={label} error={error} required={required}>
      <input
        {...controlAttributes(name, error)}
        maxLength={FIELD_MAX_LENGTHS[name]}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        placeholder={placeholder}
        defaultValue={value}
        aria-required={required || undefined}
      />
    </Field>
  );
}

type FieldProps = (name: CheckoutFieldName) => {
  name: CheckoutFieldName;
  label: string;
  error: string | undefined;
  value: string;
};

/** The test provider's card: number, then expiry and CVC side by side (the checkout's and the subscription's). */
export function TestCardFields({ field }: { field: FieldProps }) {
  return (
    <>
      <TextField {...field('cardNumber')} autoComplete="cc-number" inputMode="numeric" required />
      <div className="checkout-row">
        <TextField {...field('cardExpiry')} autoComplete="cc-exp" inputMode="numeric" placeholder="MM / YY" required />
        <TextField {...field('cardCvc')} autoComplete="cc-csc" inputMode="numeric" required />
      </div>
    </>
  );
}

/** The shipping options for the address as radio buttons, the chosen one checked (the form's onChange reads it). */
export function ShippingMethodField({
  options,
  chosenId,
  error,
  currency,
}: {
  options: readonly { id: string; name: string; amount: number }[];
  chosenId: string | undefined;
  error: string | undefined;
  currency: CurrencyCode;
}) {
  return (
    <fieldset
      className="checkout-section checkout-options"
      key={options.map((o) => o.id).join(' ')}
      aria-describedby={error ? fieldErrorId('shippingOptionId') : undefined}
    >
      <legend>
        <span className="checkout-section__heading">Shipping method</span>
      </legend>
      <FieldError name="shippingOptionId" error={error} />
      {options.length === 0 ? <p className="field__description">No shipping option reaches this address.</p> : null}
      {options.map((o, i) => (
        <label className="checkout-option" key={o.id}>
          <input
            // The first option is where the summary's link for this field leads.
            id={i === 0 ? fieldId('shippingOptionId') : undefined}
            type="radio"
            name="shippingOptionId"
            value={o.id}
            checked={chosenId === o.id}
            onChange={() => undefined /* the form's onChange reads it */}
          />
          <span className="checkout-option__name">{o.name}</span>
          <span className="checkout-option__price">{shippingAmountText(o.amount, currency)}</span>
        </label>
      ))}
    </fieldset>
  );
}
