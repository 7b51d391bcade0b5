/** What the CAPTCHA adapters share: their verdict, and what the request tells of the visitor. */

/** 'ok' passes; 'invalid', 'expired', 'replayed' refuse the answer; 'unavailable': the provider could not tell (or is not set up). */
export type CaptchaCheck = 'ok' | 'invalid' | 'expired' | 'replayed' | 'unavailable';

/** An adapter's answer: the check, and why (for the log; never shown to the visitor). */
export interface CaptchaVerdict {
  check: CaptchaCheck;
  reason: string;
}

/** The request the answer came with. */
export interface CaptchaVisitor {
  /** The host the form was sent to, without port. */
  hostname?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/** What the provider's answer must match: the §7 action, and the host names the page may have been on. */
export interface CaptchaExpectation {
  action: string;
  /** Lower-case host names without port; empty: not checked. */
  hostnames: readonly string[];
}

/** Per call to a provider (each try, for Turnstile's retry). */
export const DEFAULT_CAPTCHA_TIMEOUT_MS = 5_000;

/** Tokens longer than this are refused without asking the provider (theirs are a few KB at most). */
export const MAX_CAPTCHA_TOKEN_LENGTH = 10_000;
