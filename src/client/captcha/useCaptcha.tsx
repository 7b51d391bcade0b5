/**
 * One CAPTCHA for a form island, whatever the site's provider (ALTCHA, reCAPTCHA Enterprise v3, Turnstile), so the
 * form's §4 state machine has one code path: `answer()` gives the token to send with a submission or the message to
 * show instead ('Complete CAPTCHA before submitting.'; 'Enterprise V3 ReCaptcha site key not found' without a site
 * key); `reset()` after a failed submission spends the old answer, and `awaiting` stays true (the submit button
 * waits) until the CAPTCHA is done again — ticked again (ALTCHA), passed again (Turnstile), or a new token fetched
 * (reCAPTCHA, which has nothing to solve). The provider's code loads when the visitor turns to the form (a pointer
 * over it, a focus, a key, a touch), not with the page; the badge of §4 follows the focus (./badge.ts).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { captchaScriptSrc, siteKeyMissingMessage, type CaptchaClientSettings } from '../../core/forms/captcha';
import { FIELD_MESSAGES } from '../../core/forms/validation';
import { labelRecaptchaBadges, trackCaptchaBadge } from './badge';
import { readyRecaptchaEnterprise, recaptchaEnterpriseToken } from './recaptchaEnterprise';
import { renderTurnstile, type TurnstileWidget } from './turnstile';

/** The challenge URL of the ALTCHA widget (src/server/routes/forms.tsx). */
export const ALTCHA_CHALLENGE_API = '/api/form/altcha/challenge';
/** The field the ALTCHA widget writes its solution into. */
export const ALTCHA_FIELD = 'altcha';

/** A reCAPTCHA token fetched ahead (after a failure) is used only while it is this young (they live two minutes). */
const RECAPTCHA_TOKEN_FRESH_MS = 90_000;

const TURN_TO_FORM = ['pointerover', 'focusin', 'keydown', 'touchstart'] as const;

export type CaptchaAnswer =
  | { ok: true; field: 'captchaKey' | 'recaptchaEnterpriseV3Token'; token: string }
  | { ok: false; message: string };

export interface CaptchaControl {
  /** What goes in the form where the CAPTCHA is (ALTCHA's widget, Turnstile's box, reCAPTCHA's notice). */
  widget: ReactNode;
  /** After a failed submission, until the CAPTCHA is done again: the submit button waits. */
  awaiting: boolean;
  answer(): Promise<CaptchaAnswer>;
  reset(): void;
}

type AltchaElement = HTMLElement & { reset?: () => void };

const incomplete: CaptchaAnswer = { ok: false, message: FIELD_MESSAGES.captchaIncomplete };

export function useCaptcha(captcha: CaptchaClientSettings | null, formRef: RefObject<HTMLFormElement | null>): CaptchaControl | null {
  const [token, setToken] = useState<{ value: string; at: number } | null>(null);
  const [awaiting, setAwaiting] = useState(false);
  const altcha = useRef<AltchaElement | null>(null);
  const box = useRef<HTMLDivElement | null>(null);
  const turnstile = useRef<TurnstileWidget | null>(null);
  const provider = captcha?.provider ?? null;
  const siteKey = captcha && captcha.provider !== 'altcha' ? captcha.siteKey : null;
  const scriptSrc = captcha && captcha.provider !== 'altcha' && siteKey ? captchaScriptSrc({ provider: captcha.provider, siteKey, scriptUrl: captcha.scriptUrl }) : null;
  const action = captcha?.action ?? '';

  const done = useCallback((value: string | null) => {
    setToken(value === null ? null : { value, at: Date.now() });
    if (value !== null) setAwaiting(false);
  }, []);

  // The provider's code, when the visitor turns to the form; and the badge, following the focus.
  useEffect(() => {
    const form = formRef.current;
    if (!provider || !form) return;
    const stopBadge = trackCaptchaBadge(form);
    let cancelled = false;
    const load = () => {
      for (const t of TURN_TO_FORM) form.removeEventListener(t, load);
      if (provider === 'altcha') void import('./altchaWidget');
      else if (provider === 'recaptcha-enterprise' && scriptSrc) readyRecaptchaEnterprise(scriptSrc).then(labelRecaptchaBadges, () => {});
      else if (provider === 'turnstile' && scriptSrc && siteKey && box.current) {
        renderTurnstile(scriptSrc, box.current, { siteKey, action, onToken: (value) => !cancelled && done(value) })
          .then((widget) => {
            if (cancelled) widget.remove();
            else turnstile.current = widget;
          })
          .catch(() => {});
      }
    };
    for (const t of TURN_TO_FORM) form.addEventListener(t, load, { passive: true });
    return () => {
      cancelled = true;
      stopBadge();
      for (const t of TURN_TO_FORM) form.removeEventListener(t, load);
      turnstile.current?.remove();
      turnstile.current = null;
    };
  }, [provider, scriptSrc, siteKey, action, formRef, done]);

  // ALTCHA tells its state by an event on its element.
  useEffect(() => {
    const element = altcha.current;
    if (provider !== 'altcha' || !element) return;
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail ?? {};
      done(detail.state === 'verified' && typeof detail.payload === 'string' ? detail.payload : null);
    };
    element.addEventListener('statechange', onState);
    return () => element.removeEventListener('statechange', onState);
  }, [provider, done]);

  const answer = useCallback(async (): Promise<CaptchaAnswer> => {
    if (!captcha) return incomplete;
    if (captcha.provider === 'altcha' || captcha.provider === 'turnstile') {
      if (captcha.provider === 'turnstile' && !siteKey) return { ok: false, message: siteKeyMissingMessage('turnstile') };
      return token ? { ok: true, field: 'captchaKey', token: token.value } : incomplete;
    }
    if (!siteKey || !scriptSrc) {
      console.error(siteKeyMissingMessage('recaptcha-enterprise'));
      return { ok: false, message: siteKeyMissingMessage('recaptcha-enterprise') };
    }
    if (token && Date.now() - token.at < RECAPTCHA_TOKEN_FRESH_MS) {
      setToken(null);
      return { ok: true, field: 'recaptchaEnterpriseV3Token', token: token.value };
    }
    try {
      return { ok: true, field: 'recaptchaEnterpriseV3Token', token: await recaptchaEnterpriseToken(scriptSrc, siteKey, captcha.action) };
    } catch {
      return incomplete;
    }
  }, [captcha, siteKey, scriptSrc, token]);

  const reset = useCallback(() => {
    if (!captcha) return;
    setToken(null);
    setAwaiting(true);
    if (captcha.provider === 'altcha') altcha.current?.reset?.();
    else if (captcha.provider === 'turnstile') {
      if (turnstile.current) turnstile.current.reset();
      else setAwaiting(false);
    } else if (siteKey && scriptSrc) {
      // Nothing to solve: doing it again is fetching a new token (the old one was spent by the assessment).
      recaptchaEnterpriseToken(scriptSrc, siteKey, captcha.action).then(done, () => setAwaiting(false));
    } else setAwaiting(false);
  }, [captcha, siteKey, scriptSrc, done]);

  if (!captcha) return null;
  let widget: ReactNode;
  if (captcha.provider === 'altcha') {
    widget = (
      <div className="form-block__captcha">
        <altcha-widget ref={altcha} challenge={ALTCHA_CHALLENGE_API} name={ALTCHA_FIELD} />
      </div>
    );
  } else if (captcha.provider === 'turnstile') {
    widget = <div className="form-block__captcha form-block__captcha--turnstile" ref={box} />;
  } else {
    // The badge is hidden until a field has focus (§4), so the notice Google asks for then is in the form.
    widget = (
      <p className="form-block__captcha-notice">
        This site is protected by reCAPTCHA and the Google <a href="https://policies.google.com/privacy">Privacy Policy</a> and{' '}
        <a href="https://policies.google.com/terms">Terms of Service</a> apply.
      </p>
    );
  }
  return { widget, awaiting, answer, reset };
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & { challenge?: string; name?: string };
    }
  }
}
