import { DEFAULT_LABELS } from '../core/labels';
import type { Form, FormField } from '../site/schema';
import { FormFieldInput } from './FormFields';

/**
 * A form block's fields, rendered accessibly (labels, fieldsets with legends, required marks). Submission
 * (validation, CAPTCHA, the §7 calls) is a later issue: the form renders but does not submit anywhere yet.
 */
export function FormBlock({ form, selectValueLabel = DEFAULT_LABELS.selectValue }: { form: Form; selectValueLabel?: string }) {
  const id = (field: FormField, part?: string) => `form-${form.id}-${field.id}${part ? `-${part}` : ''}`;
  return (
    // POST, never GET: answers (e-mail addresses, names) must not end up in URLs and access logs. The submission
    // endpoint arrives with the forms issue; until then a no-JS submit reaches the 404 page.
    <form className="form-block" method="post" data-form-id={form.id} aria-label={form.name} noValidate>
      {form.fields.map((field) => (
        <FormFieldInput key={field.id} field={field} id={(part?: string) => id(field, part)} selectValueLabel={selectValueLabel} />
      ))}
      {form.disclaimer ? <p className="form-block__disclaimer">{form.disclaimer}</p> : null}
      <button type="submit" className="button button--primary">
        {form.submitLabel}
      </button>
    </form>
  );
}
