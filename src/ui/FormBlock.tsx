import { useContext } from 'react';
import { sanitizeHtml } from '../core/forms/sanitizeHtml';
import { DEFAULT_LABELS } from '../core/labels';
import type { FormBlockFormProps } from '../client/islands/FormBlockForm';
import type { Form } from '../modules/site/schema';
import { useFormCaptcha } from './captchaContext';
import { FormPostContext } from './formPost';
import { Island } from './Island';

/** A site form as the form island gets it (its submission HTML sanitized here, once: the browser only shows the safe subset). */
export const formIslandProps = (form: Form): FormBlockFormProps['form'] => ({
  id: form.id,
  name: form.name,
  kind: form.kind,
  fields: form.fields,
  submitLabel: form.submitLabel,
  submissionMessage: form.submissionMessage,
  submissionHtml: form.submissionHtml ? sanitizeHtml(form.submissionHtml) : null,
  successRedirect: form.successRedirect ?? null,
  disclaimer: form.disclaimer ?? null,
});

/**
 * A form block: the FormBlockForm island (src/client/islands/FormBlockForm.tsx) with the form's settings. The
 * submission HTML is sanitized here, once, so the browser only ever shows the safe subset. `captcha` says whether the
 * site's CAPTCHA applies (the form asks for one and the site's provider is not 'none'); which one, with its site key
 * and the §7 action of the form's kind, comes from the page's CaptchaContext. A waitlist form's block passes its product.
 */
export function FormBlock({
  form,
  selectValueLabel = DEFAULT_LABELS.selectValue,
  captcha = false,
  index = 0,
  productId = null,
}: {
  form: Form;
  selectValueLabel?: string;
  captcha?: boolean;
  index?: number;
  /** A waitlist block's product. */
  productId?: string | null;
}) {
  const posted = useContext(FormPostContext);
  const siteCaptcha = useFormCaptcha(form.kind === 'waitlist' ? 'productWaitlist' : form.kind);
  const initial =
    posted && posted.formId === form.id
      ? { fieldErrors: posted.fieldErrors, error: posted.error, success: posted.success, values: posted.values }
      : null;
  return (
    <Island
      name="FormBlockForm"
      id={`form-${index}`}
      props={{
        form: formIslandProps(form),
        captcha: captcha ? siteCaptcha : null,
        selectValueLabel,
        initial,
        ...(productId ? { productId } : {}),
      }}
    />
  );
}
