/**
 * One CAPTCHA for a form island, whatever the site's provider (ALTCHA, reCAPTCHA Enterprise v3, Turnstile), so the
 * form's §4 state machine has one code path: `answer()` gives the token to send with a submission or the message to
 * show instead ('Complete CAPTCHA before submitting.'; 'Enterprise V3 ReCaptcha site key not found' without a site
 * key); `reset()` after a failed submission spends the old answer, and `awaiting` stays true (the submit button
 * waits) until the CAPTCHA is done again — solved again (ALTCHA), passed again (Turnstile), or a new token fetched
 * (reCAPTCHA, which has nothing to solve). The provider's code loads when the visitor turns to the form (a pointer
 * over it, a focus, a key, a touch), not with the page; the badge of §4 follows the focus (./badge.ts).
 *
 * ALTCHA needs no tick: its proof of work starts in the background as soon as its code is in (the visitor turned to
 * the form), the widget showing 'Verifying...' meanwhile, and `answer()` waits for a solve still running (the form
 * says 'Submitting…') instead of refusing it; an expired solution is solved again. Its checkbox stays as the fallback:
 * while the work could not be done (the challenge could not be fetched, the worker failed) the visitor can tick it to
 * try again. One solve at a time (`solveAltcha` shares the running one): the widget's own `auto` modes are not used, as
 * 'onload' starts its solve on a timer that a submission in that moment would start a second time (aborting the
 * first), 'onfocus' misses the focus that loaded its code, and 'onsubmit' takes the form's submit event from React.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { captchaScriptSrc, siteKeyMissingMessage, type CaptchaClientSettings } from '../../core/forms/captcha';
import { FIELD_MESSAGES } from '../../core/forms/validation';
import { labelRecaptchaBadges, trackCaptchaBadge } from './badge';
import { readyRecaptchaEnterprise, recaptchaEnterpriseToken } from './recaptchaEnterprise';
import { renderTurnstile, type TurnstileWidget } from './turnstile';

/** The challenge URL of the ALTCHA widget (src/modules/forms/routes.ts). */
export const ALTCHA_CHALLENGE_API = '/api/form/altcha/challenge';
/** The field the ALTCHA widget writes its solution into. */
export const ALTCHA_FIELD = 'altcha';

/** A reCAPTCHA token fetched ahead (after a failure) is used only while it is this young (they live two minutes). */
const RECAPTCHA_TOKEN_FRESH_MS = 90_000;

const TURN_TO_FORM = ['pointerover', 'focusin', 'keydown', 'touchstart'] as const;

export type CaptchaAnswer =
  { ok: true; field: 'captchaKey' | 'recaptchaEnterpriseV3Token'; token: string } | { ok: false; message: string };

export interface CaptchaControl {
  /** What goes in the form where the CAPTCHA is (ALTCHA's widget, Turnstile's box, reCAPTCHA's notice). */
  widget: ReactNode;
  /** After a failed submission, until the CAPTCHA is done again: the submit button waits. */
  awaiting: boolean;
  answer(): Promise<CaptchaAnswer>;
  reset(): void;
}

/** The ALTCHA widget's element: its methods exist once its code is in and it has started. */
type AltchaElement = HTMLElement & {
  reset?: () => void;
  verify?: () => Promise<unknown>;
  getState?: () => string | undefined;
};
type AltchaState = 'unverified' | 'verifying' | 'verified' | 'error' | 'expired' | 'code';

const incomplete: CaptchaAnswer = { ok: false, message: FIELD_MESSAGES.captchaIncomplete };

/** ALTCHA's code (the widget element defined): loaded once per page. */
let altchaCode: Promise<void> | null = null;
const loadAltcha = (): Promise<void> =>
  (altchaCode ??= import('./altchaWidget').then(
    () => customElements.whenDefined('altcha-widget').then(() => undefined),
    (error: unknown) => {
      altchaCode = null;
      throw error;
    },
  ));

/** Resolves with the element once the widget has started (its methods answer), or null after `timeoutMs`. */
function startedAltcha(element: AltchaElement, timeoutMs = 10_000): Promise<AltchaElement | null> {
  return new Promise((resolve) => {
    const started = Date.now();
    const check = () => {
      if (typeof element.getState?.() === 'string') resolve(element);
      else if (!element.isConnected || Date.now() - started > timeoutMs) resolve(null);
      else setTimeout(check, 20);
    };
    check();
  });
}

/** The widget's next state that is not 'verifying' (listened for before a solve is started). */
const settledState = (element: AltchaElement): Promise<AltchaState> =>
  new Promise((resolve) => {
    const onState = (event: Event) => {
      const state = (event as CustomEvent<{ state?: AltchaState }>).detail?.state;
      if (state === undefined || state === 'verifying') return;
      element.removeEventListener('statechange', onState);
      resolve(state);
    };
    element.addEventListener('statechange', onState);
  });

export function useCaptcha(
  captcha: CaptchaClientSettings | null,
  formRef: RefObject<HTMLFormElement | null>,
): CaptchaControl | null {
  const [token, setToken] = useState<{ value: string; at: number } | null>(null);
  const [awaiting, setAwaiting] = useState(false);
  const altcha = useRef<AltchaElement | null>(null);
  /** ALTCHA's solution, set the moment the widget tells it (a submission right then must not read an older render). */
  const altchaToken = useRef<string | null>(null);
  const altchaSolving = useRef<Promise<string | null> | null>(null);
  const box = useRef<HTMLDivElement | null>(null);
  const turnstile = useRef<TurnstileWidget | null>(null);
  const provider = captcha?.provider ?? null;
  const siteKey = captcha && captcha.provider !== 'altcha' ? captcha.siteKey : null;
  const scriptSrc =
    captcha && captcha.provider !== 'altcha' && siteKey
      ? captchaScriptSrc({ provider: captcha.provider, siteKey, scriptUrl: captcha.scriptUrl })
      : null;
  const action = captcha?.action ?? '';

  const done = useCallback((value: string | null) => {
    setToken(value === null ? null : { value, at: Date.now() });
    if (value !== null) setAwaiting(false);
  }, []);

  /**
   * ALTCHA's solution: the one at hand, else the running solve's, else a new solve (its code loaded first when the
   * visitor was quicker than the pointer); null when the work could not be done.
   */
  const solveAltcha = useCallback((): Promise<string | null> => {
    if (altchaSolving.current) return altchaSolving.current;
    const solving = (async () => {
      try {
        await loadAltcha();
      } catch {
        return null;
      }
      const element = altcha.current && (await startedAltcha(altcha.current));
      if (!element?.verify) return null;
      const state = element.getState?.();
      if (state === 'verified' && altchaToken.current) return altchaToken.current;
      const settled = settledState(element);
      if (state !== 'verifying') void element.verify();
      return (await settled) === 'verified' ? altchaToken.current : null;
    })().finally(() => {
      if (altchaSolving.current === solving) altchaSolving.current = null;
    });
    altchaSolving.current = solving;
    return solving;
  }, []);

  // The provider's code, when the visitor turns to the form; and the badge, following the focus.
  useEffect(() => {
    const form = formRef.current;
    if (!provider || !form) return;
    const stopBadge = trackCaptchaBadge(form);
    let cancelled = false;
    const load = () => {
      for (const t of TURN_TO_FORM) form.removeEventListener(t, load);
      // ALTCHA: its code, and its proof of work at once (in its worker), so that the first submission has it.
      if (provider === 'altcha') void solveAltcha();
      else if (provider === 'recaptcha-enterprise' && scriptSrc)
        readyRecaptchaEnterprise(scriptSrc).then(labelRecaptchaBadges, () => {});
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
  }, [provider, scriptSrc, siteKey, action, formRef, done, solveAltcha]);

  // ALTCHA tells its state by an event on its element.
  useEffect(() => {
    const element = altcha.current;
    if (provider !== 'altcha' || !element) return;
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail ?? {};
      const value = detail.state === 'verified' && typeof detail.payload === 'string' ? detail.payload : null;
      altchaToken.current = value;
      done(value);
    };
    element.addEventListener('statechange', onState);
    return () => element.removeEventListener('statechange', onState);
  }, [provider, done]);

  const answer = useCallback(async (): Promise<CaptchaAnswer> => {
    if (!captcha) return incomplete;
    if (captcha.provider === 'altcha') {
      // A solve still running is waited for (the widget shows its progress), not refused.
      const solution = await solveAltcha();
      return solution ? { ok: true, field: 'captchaKey', token: solution } : incomplete;
    }
    if (captcha.provider === 'turnstile') {
      if (!siteKey) return { ok: false, message: siteKeyMissingMessage('turnstile') };
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
      return {
        ok: true,
        field: 'recaptchaEnterpriseV3Token',
        token: await recaptchaEnterpriseToken(scriptSrc, siteKey, captcha.action),
      };
    } catch {
      return incomplete;
    }
  }, [captcha, siteKey, scriptSrc, token, solveAltcha]);

  const reset = useCallback(() => {
    if (!captcha) return;
    setToken(null);
    setAwaiting(true);
    if (captcha.provider === 'altcha') {
      // Spent: a new solve starts at once (the button waits for it; the checkbox if it cannot be done).
      altchaToken.current = null;
      altcha.current?.reset?.();
      void solveAltcha();
    } else if (captcha.provider === 'turnstile') {
      if (turnstile.current) turnstile.current.reset();
      else setAwaiting(false);
    } else if (siteKey && scriptSrc) {
      // Nothing to solve: doing it again is fetching a new token (the old one was spent by the assessment).
      recaptchaEnterpriseToken(scriptSrc, siteKey, captcha.action).then(done, () => setAwaiting(false));
    } else setAwaiting(false);
  }, [captcha, siteKey, scriptSrc, done, solveAltcha]);

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
        This site is protected by reCAPTCHA and the Google{' '}
        <a href="https://policies.google.com/privacy">Privacy Policy</a> and{' '}
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
      'altcha-widget': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & {
        challenge?: string;
        name?: string;
      };
    }
  }
}
