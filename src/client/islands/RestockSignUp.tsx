/**
 * The restock (back in stock) sign-up form of a product page (spec §2, §3, §4, §5, §8): shown while the chosen variant
 * is sold out, following the choice the buying island makes (../variantSelection.ts); behind its call to action (a
 * <details>) when the product hides it by default. E-mail ('Email cannot be blank', 'Email is invalid'), the
 * mailing-list checkbox when offered (checked when opt-in by default), the site's CAPTCHA (action
 * PRODUCT_WAITLIST_SUBMISSION); the §3 payload goes to RESTOCK_SIGN_UP_API. Success replaces the form with 'Signed up!'
 * or the product's text (the call to action stays); a failure shows the server's message, else 'Unable to submit
 * form. Please try again later.'
 *
 * Without JavaScript it is a plain form posted to RESTOCK_FORM_PATH (with the crumb field), answered by the product
 * page again with the outcome. A product whose options are not chosen yet offers, only then, its sold-out variants
 * in a select (inside <noscript>: with JavaScript the selects above choose).
 *
 * Its code is not in the page's main bundle: ./lazy.ts loads it on pages that have it (src/client/main.tsx).
 */
import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { CaptchaClientSettings } from '../../core/forms/captcha';
import { restockFailureMessage, validateRestockEmail } from '../../core/forms/restock';
import { FORM_SUBMISSION_MESSAGES } from '../../core/forms/submission';
import {
  RESTOCK_FIELDS,
  RESTOCK_LABELS,
  restockFormTarget,
  variantLabel,
  type RestockVariant,
} from '../../core/restock';
import { useCaptcha } from '../captcha/useCaptcha';
import { crumbHeaders } from '../crumb';
import { onVariantSelection, variantSelectionOf, type VariantSelection } from '../variantSelection';

/** The sign-up call (spec §7: "path not shown"; docs/api.md). */
export const RESTOCK_SIGN_UP_API = '/api/commerce/restock-notifications';
/** Where the form posts without JavaScript (src/modules/restock/pages/index.ts). */
export const RESTOCK_FORM_PATH = '/restock/sign-up';

/** What a sign-up posted without JavaScript came back with (the page rendered for that visitor). */
export interface RestockPosted {
  variantId: string | null;
  /** The e-mail's §5 message, shown at the field. */
  emailError: string | null;
  error: string | null;
  success: boolean;
  email: string;
  joinMailingList: boolean;
}

export interface RestockSignUpProps {
  productId: string;
  productType: number;
  /** Option names in display order (empty: one variant). */
  options: string[];
  variants: RestockVariant[];
  /** The buying island's first selection (options with one value are chosen). */
  initialSelection: Record<string, string>;
  callToAction: string;
  successMessage: string;
  hiddenByDefault: boolean;
  /** The mailing-list checkbox and whether it starts checked; null when the product offers none. */
  mailingList: { checked: boolean } | null;
  captcha: CaptchaClientSettings | null;
  initial: RestockPosted | null;
}

async function postJson(url: string, body: unknown): Promise<{ status: number; data: unknown }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { ...crumbHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, data: await response.json().catch(() => null) };
  } catch {
    return { status: 0, data: null };
  }
}

export function RestockSignUp(props: RestockSignUpProps) {
  const { productId, initial } = props;
  // The buying island's choice (its first one while hydrating: the server rendered that).
  const selection: VariantSelection = useSyncExternalStore(
    (changed) => onVariantSelection(productId, changed),
    () => variantSelectionOf(productId) ?? props.initialSelection,
    () => props.initialSelection,
  );
  // Variants signed up for on this page (a post without JavaScript counts).
  const [signedUp, setSignedUp] = useState<ReadonlySet<string>>(
    () => new Set(initial?.success && initial.variantId ? [initial.variantId] : []),
  );
  const [email, setEmail] = useState(initial?.email ?? '');

  const target = restockFormTarget(
    { productType: props.productType, variantOptions: props.options, variants: props.variants },
    selection,
  );
  if (target.kind === 'none') return null;

  // A variant chosen in the form's own select (no choice above, or none yet) counts as the one signed up for.
  const done =
    target.kind === 'variant'
      ? signedUp.has(target.variant.sku)
      : initial?.success === true || target.variants.some((v) => signedUp.has(v.sku));
  const content = done ? (
    <SignedUp message={props.successMessage} />
  ) : (
    <RestockForm
      key={target.kind === 'variant' ? target.variant.sku : 'choose'}
      {...props}
      target={target}
      email={email}
      onEmail={setEmail}
      onSignedUp={(sku) => setSignedUp((s) => new Set([...s, sku]))}
    />
  );
  const block = props.hiddenByDefault ? (
    <details className="restock" open={initial !== null}>
      <summary className="restock__cta">{props.callToAction}</summary>
      {content}
    </details>
  ) : (
    <div className="restock">
      <p className="restock__cta">{props.callToAction}</p>
      {content}
    </div>
  );
  // No variant chosen: only a page without JavaScript offers the choice here (with it, the selects above choose),
  // unless every variant is sold out: nothing can be bought, so the sign-up and its choice of variant show at once.
  const everyVariantSoldOut = target.kind === 'choose' && target.variants.length === props.variants.length;
  return target.kind === 'choose' && initial === null && !everyVariantSoldOut ? <noscript>{block}</noscript> : block;
}

function SignedUp({ message }: { message: string }) {
  const ref = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <p className="restock__success" role="status" tabIndex={-1} ref={ref}>
      {message}
    </p>
  );
}

function RestockForm({
  productId,
  target,
  mailingList,
  captcha: captchaSettings,
  initial,
  email,
  onEmail,
  onSignedUp,
}: RestockSignUpProps & {
  target: { kind: 'variant'; variant: RestockVariant } | { kind: 'choose'; variants: RestockVariant[] };
  /** What the shopper typed last (kept when another variant is chosen). */
  email: string;
  onEmail: (email: string) => void;
  onSignedUp: (sku: string) => void;
}) {
  const id = useId();
  const [emailError, setEmailError] = useState<string | null>(initial?.emailError ?? null);
  const [error, setError] = useState<string | null>(initial?.error ?? null);
  const [submitting, setSubmitting] = useState(false);
  const locked = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const emailRef = useRef<HTMLInputElement | null>(null);
  const captcha = useCaptcha(captchaSettings, formRef);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked.current) return;
    const data = new FormData(event.currentTarget);
    const variantId = String(data.get(RESTOCK_FIELDS.variantId) ?? '');
    const checked = validateRestockEmail(data.get(RESTOCK_FIELDS.email));
    if (!checked.ok) {
      setError(null);
      setEmailError(checked.error);
      emailRef.current?.focus();
      return;
    }
    setEmailError(null);
    setError(null);
    locked.current = true;
    setSubmitting(true);
    try {
      const answer = captcha ? await captcha.answer() : null;
      if (answer && !answer.ok) {
        setError(answer.message);
        return;
      }
      const sent = await postJson(RESTOCK_SIGN_UP_API, {
        [RESTOCK_FIELDS.joinMailingList]: data.get(RESTOCK_FIELDS.joinMailingList) === 'true',
        [RESTOCK_FIELDS.productId]: productId,
        [RESTOCK_FIELDS.email]: checked.value,
        [RESTOCK_FIELDS.variantId]: variantId,
        [RESTOCK_FIELDS.captchaToken]: answer?.ok ? answer.token : null,
      });
      if (sent.status === 200) {
        onSignedUp(variantId);
        return;
      }
      captcha?.reset();
      const message = restockFailureMessage(sent.data);
      if ((sent.data as { field?: unknown } | null)?.field === RESTOCK_FIELDS.email) setEmailError(message);
      else setError(message);
    } finally {
      locked.current = false;
      setSubmitting(false);
    }
  };

  const emailId = `${id}-email`;
  return (
    <form
      className="restock__form"
      method="post"
      action={RESTOCK_FORM_PATH}
      aria-label="Back in stock notification"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      ref={formRef}
    >
      <input type="hidden" name={RESTOCK_FIELDS.productId} value={productId} />
      {target.kind === 'variant' ? (
        <input type="hidden" name={RESTOCK_FIELDS.variantId} value={target.variant.sku} />
      ) : (
        <div className="field">
          <label htmlFor={`${id}-variant`}>{RESTOCK_LABELS.variant}</label>
          <select id={`${id}-variant`} name={RESTOCK_FIELDS.variantId} defaultValue={initial?.variantId ?? undefined}>
            {target.variants.map((v) => (
              <option key={v.sku} value={v.sku}>
                {variantLabel(v)}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        {emailError ? (
          <p className="field__error" id={`${emailId}-error`} role="alert">
            {emailError}
          </p>
        ) : null}
        <label htmlFor={emailId}>{RESTOCK_LABELS.email}</label>
        <input
          id={emailId}
          ref={emailRef}
          type="email"
          name={RESTOCK_FIELDS.email}
          autoComplete="email"
          defaultValue={email}
          onChange={(e) => onEmail(e.target.value)}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${emailId}-error` : undefined}
        />
      </div>
      {mailingList ? (
        <label className="choice restock__opt-in">
          <input
            type="checkbox"
            name={RESTOCK_FIELDS.joinMailingList}
            value="true"
            defaultChecked={initial ? initial.joinMailingList : mailingList.checked}
          />
          {RESTOCK_LABELS.joinMailingList}
        </label>
      ) : null}
      {captcha?.widget}
      {error ? (
        <p className="restock__error" role="alert">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        className="button"
        disabled={captcha?.awaiting === true}
        aria-busy={submitting || undefined}
      >
        {submitting ? FORM_SUBMISSION_MESSAGES.submitting : RESTOCK_LABELS.submit}
      </button>
    </form>
  );
}
