/**
 * Password-protected pages (spec §2: lock screen 103, protected content 105): the rules shared by the lock screen,
 * its POST route and the page route. A page of the site file with a `password` shows the lock screen until the
 * visitor posts the right password; then a signed, HttpOnly cookie scoped to that page's path opens it. The cookie's
 * value is `{expiresAt}.{signature}` (seconds since the epoch, then an HMAC the server makes: src/modules/pageLocks/pageLocks.ts).
 */

/** Where the lock screen's form posts (a platform path: a site page cannot take it). */
export const PAGE_LOCK_PATH = '/unlock-page';

/** The form's fields: the protected page's path and the password typed. */
export const PAGE_LOCK_FIELDS = { path: 'path', password: 'password' } as const;

/** The texts of the lock screen. */
export const PAGE_LOCK_MESSAGES = {
  intro: 'This page is protected. Enter its password to see it.',
  label: 'Password',
  submit: 'Unlock page',
  wrong: 'That password is not right. Please try again.',
  missing: 'Please enter the password.',
  tooMany: 'Too many tries. Please wait a minute and try again.',
  description: 'This page is protected with a password.',
} as const;

/** An opened page stays open this long in that browser (the cookie's Max-Age). */
export const PAGE_UNLOCK_SECONDS = 7 * 24 * 60 * 60;

/** Tries (right or wrong) per client and site in PAGE_LOCK_WINDOW_MS; more answer 429 with Retry-After. */
export const PAGE_LOCK_TRIES = 5;
export const PAGE_LOCK_WINDOW_MS = 60_000;

/** Longest password read from the form (a longer one cannot be right: the site file allows no more). */
export const PAGE_PASSWORD_MAX_LENGTH = 256;

const COOKIE_PREFIX = 'vitrine-page-';

/** The cookie that opens one page: named by the page's id, so two protected pages (one under the other) never share one. */
export const pageLockCookie = (pageId: string): string => `${COOKIE_PREFIX}${pageId}`;

/** A site file's password kept as a hash (src/modules/siteUsers/passwords.ts) rather than as written. */
export const isPasswordHash = (value: string): boolean => value.startsWith('scrypt$');

/** An HMAC-SHA256 in base64url: 43 characters. */
const TOKEN_PATTERN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface UnlockToken {
  /** Seconds since the epoch. */
  expiresAt: number;
  signature: string;
}

export const formatUnlockToken = (token: UnlockToken): string => `${token.expiresAt}.${token.signature}`;

/** The cookie's value read back, or null when it is not one this server writes. */
export function parseUnlockToken(value: unknown): UnlockToken | null {
  if (typeof value !== 'string') return null;
  const match = TOKEN_PATTERN.exec(value);
  if (!match) return null;
  return { expiresAt: Number(match[1]), signature: match[2]! };
}

/** Whether a token read back is still within its time (`now` in ms). */
export const isUnexpired = (token: UnlockToken, now: number): boolean => token.expiresAt * 1000 > now;
