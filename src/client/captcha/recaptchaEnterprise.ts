/**
 * reCAPTCHA Enterprise v3 (score-based, nothing to solve): its script, loaded with the site key, draws the badge
 * (`.grecaptcha-badge`, shown by ./badge.ts rules) and gives a token per action with
 * `grecaptcha.enterprise.execute(siteKey, { action })`. A token is good for two minutes and for one assessment.
 */
import { loadScript, waitFor } from './loadScript';

interface Enterprise {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: { enterprise?: Enterprise };
  }
}

/** Loads the script (once) and waits until it is ready. */
export async function readyRecaptchaEnterprise(scriptSrc: string): Promise<Enterprise> {
  await loadScript(scriptSrc);
  const enterprise = await waitFor(() => window.grecaptcha?.enterprise);
  await new Promise<void>((resolve) => enterprise.ready(resolve));
  return enterprise;
}

/** A fresh token for `action` (§7: FORM_BLOCK_SUBMISSION, NEWSLETTER_BLOCK_SUBMISSION …). */
export async function recaptchaEnterpriseToken(scriptSrc: string, siteKey: string, action: string): Promise<string> {
  const enterprise = await readyRecaptchaEnterprise(scriptSrc);
  const token = await enterprise.execute(siteKey, { action });
  if (typeof token !== 'string' || token === '') throw new Error('reCAPTCHA gave no token');
  return token;
}
