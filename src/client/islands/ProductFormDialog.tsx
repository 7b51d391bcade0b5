import { useEffect, useId, useRef, useState } from 'react';
import { checkProductFormAnswers } from '../../core/forms/productForm';
import { buttonStateLabel } from '../../core/labels';
import type { ProductForm } from '../../modules/cart/coreForm';
import { FormFieldInput, readFormInputs } from '../../ui/FormFields';
import { trackEvent } from '../track';
import { useModalDialog } from './useModalDialog';

/** What the add request answered: nothing more to show, or the §8 message (and the server's per-field messages). */
export type FormSaveOutcome = { ok: true } | { ok: false; message: string; fields?: Readonly<Record<string, string>> };

/**
 * The product form of spec §4 ("Items with a custom form"), opened only after the add-to-cart checks passed. A modal
 * <dialog> opened with showModal() (focus stays inside, the page behind is inert); Escape or Cancel closes it and
 * focus goes back to the opener. The answers are checked with the core's form rules (each message above its field);
 * valid answers are saved through `onSave` (the add request) while the button reads 'Saving…'.
 */
export function ProductFormDialog({
  form,
  selectValueLabel,
  onSave,
  onClose,
}: {
  form: ProductForm;
  selectValueLabel: string;
  /** Sends the add with these answers (JSON text keyed by field id). */
  onSave: (additionalFields: string) => Promise<FormSaveOutcome>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fieldPrefix = useId();
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);

  useModalDialog(ref, 'input:not([type="hidden"]), select, textarea, button');
  // §7: the custom product form was opened (once per opening).
  useEffect(() => trackEvent('CommerceShopping_OpenCustomProductForm', { formId: form.id }), [form.id]);

  /** After a refusal, focus the first field with a message (its message is read with it). */
  const focusFirstError = (fields: Readonly<Record<string, string>>) => {
    const first = form.fields.find((f) => Object.hasOwn(fields, f.id));
    if (!first) return;
    requestAnimationFrame(() => {
      ref.current
        ?.querySelector<HTMLElement>(`[name="${CSS.escape(first.id)}"], [name^="${CSS.escape(first.id)}."]`)
        ?.focus();
    });
  };

  const submit = async (formElement: HTMLFormElement) => {
    if (savingRef.current) return;
    const data = new FormData(formElement);
    const raw = readFormInputs(form.fields, (name) =>
      data.getAll(name).filter((v): v is string => typeof v === 'string'),
    );
    const checked = checkProductFormAnswers(form, raw);
    setMessage(null);
    if (!checked.ok) {
      setErrors(checked.error.fields);
      focusFirstError(checked.error.fields);
      return;
    }
    setErrors({});
    savingRef.current = true;
    setSaving(true);
    const outcome = await onSave(checked.value);
    savingRef.current = false;
    if (outcome.ok) trackEvent('CommerceShopping_SaveCustomProductForm', { formId: form.id });
    // On success the dialog is closed by its owner (and unmounted); a refusal is shown here.
    if (!outcome.ok) {
      setSaving(false);
      setMessage(outcome.message);
      if (outcome.fields) {
        setErrors(outcome.fields);
        focusFirstError(outcome.fields);
      }
    }
  };

  const submitLabel = form.submitLabel;
  return (
    <dialog
      ref={ref}
      className="form-dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (!savingRef.current) onClose();
      }}
    >
      <h2 id={titleId} className="form-dialog__title">
        {form.name}
      </h2>
      <form
        className="form-dialog__form"
        data-form-id={form.id}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e.currentTarget);
        }}
      >
        {message ? (
          <p className="form-dialog__message" role="alert">
            {message}
          </p>
        ) : null}
        {form.fields.map((field) => (
          <FormFieldInput
            key={field.id}
            field={field}
            id={(part?: string) => `${fieldPrefix}-${field.id}${part ? `-${part}` : ''}`}
            selectValueLabel={selectValueLabel}
            error={errors[field.id]}
            liveCounter
          />
        ))}
        {form.disclaimer ? <p className="form-block__disclaimer">{form.disclaimer}</p> : null}
        <div className="form-dialog__actions">
          <button type="button" className="button" disabled={saving} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" aria-disabled={saving || undefined}>
            {saving ? buttonStateLabel('saving', submitLabel) : submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
