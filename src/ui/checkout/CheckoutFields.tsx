/**
 * The labelled fields of the checkout forms (the checkout island, the subscription and gift-card checkouts): a label,
 * the field's message under it (tied to the control by aria-describedby), then the control.
 */
import type { ReactNode } from 'react';
import { FIELD_MAX_LENGTHS, fieldErrorId, fieldId, type CheckoutFieldName } from './formValues';

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
export function Field({ name, label, error, required = false, children }: { name: CheckoutFieldName; label: string; error: string | undefined; required?: boolean; children: ReactNode }) {
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
