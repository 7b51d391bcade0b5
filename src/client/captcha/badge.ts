/**
 * The CAPTCHA badge of §4: hidden by default, shown while a field of a form with a CAPTCHA has focus, above the
 * lightbox when the form is in one (src/core/forms/captcha.ts has the rule). The classes go on the document (for
 * reCAPTCHA's `.grecaptcha-badge`, which its script puts at the end of the body) and on the form (for a badge inside
 * it: ALTCHA's attribution); styles.css does the showing.
 */
import {
  CAPTCHA_BADGE_RAISED_CLASS,
  CAPTCHA_BADGE_SHOWN_CLASS,
  captchaBadgeClasses,
  captchaBadgeState,
} from '../../core/forms/captcha';

/** A lightbox or dialog the form may sit in. */
const LIGHTBOX = 'dialog, [role="dialog"], [aria-modal="true"], .lightbox';

/**
 * reCAPTCHA's badge sits at the end of the body, outside the page's landmarks: named as a complementary region of
 * its own, so that assistive technology (and axe) find it in one when it shows.
 */
export function labelRecaptchaBadges(): void {
  for (const badge of document.querySelectorAll('.grecaptcha-badge:not([role])')) {
    badge.setAttribute('role', 'complementary');
    badge.setAttribute('aria-label', 'reCAPTCHA');
  }
}

function apply(form: HTMLElement, focusInForm: boolean): void {
  if (focusInForm) labelRecaptchaBadges();
  const classes = captchaBadgeClasses(captchaBadgeState(focusInForm, form.closest(LIGHTBOX) !== null));
  for (const element of [document.documentElement, form]) {
    for (const name of [CAPTCHA_BADGE_SHOWN_CLASS, CAPTCHA_BADGE_RAISED_CLASS])
      element.classList.toggle(name, classes.includes(name));
  }
}

/** Follows the focus in and out of `form`; returns the function that stops (and hides the badge). */
export function trackCaptchaBadge(form: HTMLElement): () => void {
  const onFocusIn = () => apply(form, true);
  const onFocusOut = (event: FocusEvent) => {
    // Focus moving between the form's own fields keeps the badge; leaving the form (or the window) hides it.
    if (event.relatedTarget instanceof Node && form.contains(event.relatedTarget)) return;
    apply(form, false);
  };
  form.addEventListener('focusin', onFocusIn);
  form.addEventListener('focusout', onFocusOut);
  if (form.contains(document.activeElement)) apply(form, true);
  return () => {
    form.removeEventListener('focusin', onFocusIn);
    form.removeEventListener('focusout', onFocusOut);
    apply(form, false);
  };
}
