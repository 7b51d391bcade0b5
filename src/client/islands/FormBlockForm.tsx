/**
 * A form block (spec §4, §5, §7, §8): the fields, the CAPTCHA when the form has one, and the submission. The form
 * also works without JavaScript: it posts to its page, which comes back with the same errors or the success text
 * (src/modules/forms/pages/index.ts). With JavaScript: the core's rules first; then 'Submitting…' (a second submit is
 * ignored), a key (FormSubmissionKey), the answers (SaveFormSubmission); success hides the form and shows the
 * submission message or HTML, or goes to the success redirect; a failure shows the errors, releases the lock and
 * resets the CAPTCHA (the button waits for it to be done again). The CAPTCHA is the site's, whichever provider it is
 * (../captcha/useCaptcha.tsx: one code path for ALTCHA, reCAPTCHA Enterprise and Turnstile); ALTCHA solves itself
 * once the visitor turns to the form, so the first submission goes through without a tick.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CaptchaClientSettings } from '../../core/forms/captcha';
import type { FormField as CoreFormField } from '../../core/forms/fields';
import { FORM_SUBMISSION_MESSAGES, submissionFailure, surroundingErrorMessages } from '../../core/forms/submission';
import { validateForm } from '../../core/forms/validation';
import { hiddenFieldValue } from '../../core/forms/values';
import { CRUMB_FIELD } from '../../core/crumb';
import type { FormField } from '../../modules/site';
import { FormFieldInput, readFormInputs } from '../../ui/FormFields';
import { CRUMB_PLACEHOLDER } from '../../ui/formPost';
import { useCaptcha } from '../captcha/useCaptcha';
import { crumbHeaders } from '../crumb';

export { ALTCHA_CHALLENGE_API, ALTCHA_FIELD } from '../captcha/useCaptcha';

export const FORM_KEY_API = '/api/form/FormSubmissionKey';
export const SAVE_FORM_API = '/api/form/SaveFormSubmission';
/** The field a form posted without JavaScript names itself with. */
export const FORM_ID_FIELD = 'formId';
/** The field naming a waitlist block's product in a form posted without JavaScript. */
export const PRODUCT_ID_FIELD = 'productId';

export interface FormBlockFormProps {
  form: {
    id: string;
    name: string;
    kind: 'form' | 'newsletter' | 'waitlist';
    fields: FormField[];
    submitLabel: string;
    submissionMessage: string;
    /** Already sanitized by the server (src/platform/html/sanitizeHtml.ts, called by src/ui/FormBlock.tsx). */
    submissionHtml: string | null;
    /** A path of this site, or null. */
    successRedirect: string | null;
    disclaimer: string | null;
  };
  /** The CAPTCHA the form shows (the site's provider, its site key, the form's §7 action), or null. */
  captcha: CaptchaClientSettings | null;
  selectValueLabel: string;
  /** The outcome of a post without JavaScript, when the page was rendered for it. */
  initial: {
    fieldErrors: Record<string, string>;
    error: string | null;
    success: boolean;
    values?: Record<string, string[]>;
  } | null;
  /** A waitlist block's product (sent with the answers, and posted without JavaScript as PRODUCT_ID_FIELD). */
  productId?: string | null;
  /** Shown in the promo popup (its own §7 CAPTCHA action on the server). */
  placement?: 'promoPopup';
  /** Prefix of the fields' element ids (default `form-{form id}`): the popup's copy of a form must not share them. */
  idPrefix?: string;
  /** Called once the submission succeeded (the popup remembers it). */
  onSuccess?: () => void;
}

/** A path of this site only: one slash, then not a second one or a backslash (never another host). */
const isSitePath = (path: string | null): path is string =>
  typeof path === 'string' && /^\/(?![/\\])[^\t\n\r]*$/.test(path);

async function postJson(url: string, body: unknown): Promise<{ status: number; data: unknown }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { ...crumbHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const data: unknown = await response.json().catch(() => null);
    return { status: response.status, data };
  } catch {
    return { status: 0, data: null };
  }
}

export function FormBlockForm({
  form,
  captcha,
  selectValueLabel,
  initial,
  productId = null,
  placement,
  idPrefix = `form-${form.id}`,
  onSuccess,
}: FormBlockFormProps) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(initial?.fieldErrors ?? {});
  const [error, setError] = useState<string | null>(initial?.error ?? null);
  const [success, setSuccess] = useState(initial?.success ?? false);
  const [submitting, setSubmitting] = useState(false);
  const locked = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const successRef = useRef<HTMLDivElement | null>(null);
  // Its code loads when the visitor turns to the form, not with the page: evaluating ALTCHA's at start cost the home
  // and contact pages 200–300 ms of blocked main thread.
  const captchaControl = useCaptcha(captcha, formRef);

  useEffect(() => {
    if (success) successRef.current?.focus();
  }, [success]);

  const hasErrors = error !== null || Object.keys(fieldErrors).length > 0;
  const surrounding = hasErrors ? surroundingErrorMessages(form.kind === 'newsletter') : null;

  const fail = (message: string, errors: Record<string, string> = {}) => {
    setFieldErrors(errors);
    setError(message);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked.current) return;
    const data = new FormData(event.currentTarget);
    const raw = readFormInputs(form.fields, (name) => data.getAll(name).map(String));
    for (const field of form.fields) {
      if (field.kind === 'hidden') raw[field.id] = hiddenFieldValue(field, window.location.search);
    }
    const checked = validateForm({ id: form.id, name: form.name, fields: form.fields as CoreFormField[] }, raw);
    if (!checked.ok) return fail(FORM_SUBMISSION_MESSAGES.invalidFields, checked.error.fields);
    // The fields are right now: their old errors go (a new failure shows its own).
    setFieldErrors({});
    setError(null);

    // Locked from here (a second submit is ignored) and 'Submitting…' while the CAPTCHA answers: ALTCHA's proof of
    // work may still be running (the widget shows its progress), reCAPTCHA's token takes a moment to fetch.
    locked.current = true;
    setSubmitting(true);
    try {
      const captchaAnswer = captchaControl ? await captchaControl.answer() : null;
      if (captchaAnswer && !captchaAnswer.ok) {
        fail(captchaAnswer.message);
        return;
      }
      const key = await postJson(FORM_KEY_API, undefined);
      const keyValue = (key.data as { key?: unknown } | null)?.key;
      if (key.status !== 200 || typeof keyValue !== 'string') {
        fail(FORM_SUBMISSION_MESSAGES.noSubmissionKey);
        return;
      }
      const saved = await postJson(SAVE_FORM_API, {
        key: keyValue,
        formId: form.id,
        form: JSON.stringify(checked.value),
        pagePath: window.location.pathname,
        ...(placement ? { placement } : {}),
        ...(productId ? { productId } : {}),
        ...(captchaAnswer?.ok ? { [captchaAnswer.field]: captchaAnswer.token } : {}),
      });
      if (saved.status === 200) {
        setFieldErrors({});
        setError(null);
        onSuccess?.();
        if (isSitePath(form.successRedirect)) {
          window.location.assign(form.successRedirect);
          return;
        }
        setSuccess(true);
        return;
      }
      const failure = submissionFailure(saved.status, saved.data);
      captchaControl?.reset();
      if (failure.kind === 'fields') fail(failure.message, failure.fieldErrors);
      else fail(failure.message);
    } finally {
      locked.current = false;
      setSubmitting(false);
    }
  };

  if (success) {
    return (
      <div className="form-block__success" ref={successRef} tabIndex={-1} role="status">
        {form.submissionHtml ? (
          <div dangerouslySetInnerHTML={{ __html: form.submissionHtml }} />
        ) : (
          <p>{form.submissionMessage}</p>
        )}
      </div>
    );
  }

  const id = (field: FormField, part?: string) => `${idPrefix}-${field.id}${part ? `-${part}` : ''}`;
  return (
    <>
      {surrounding ? <p className="form-block__problem">{surrounding.above}</p> : null}
      <form
        className="form-block"
        method="post"
        data-form-id={form.id}
        aria-label={form.name}
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        ref={formRef}
      >
        <input type="hidden" name={FORM_ID_FIELD} value={form.id} />
        {productId ? <input type="hidden" name={PRODUCT_ID_FIELD} value={productId} /> : null}
        <input type="hidden" name={CRUMB_FIELD} value={CRUMB_PLACEHOLDER} suppressHydrationWarning />
        {form.fields.map((field) => (
          <FormFieldInput
            key={field.id}
            field={field}
            id={(part?: string) => id(field, part)}
            selectValueLabel={selectValueLabel}
            error={fieldErrors[field.id]}
            posted={initial?.values}
            liveCounter
          />
        ))}
        {form.disclaimer ? <p className="form-block__disclaimer">{form.disclaimer}</p> : null}
        {captchaControl?.widget ?? null}
        {error ? (
          <p className="form-block__error" role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          className="button button--primary"
          disabled={captchaControl?.awaiting ?? false}
          aria-busy={submitting || undefined}
        >
          {submitting ? FORM_SUBMISSION_MESSAGES.submitting : form.submitLabel}
        </button>
      </form>
      {surrounding ? <p className="form-block__problem">{surrounding.below}</p> : null}
    </>
  );
}
