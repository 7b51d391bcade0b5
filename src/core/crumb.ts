/**
 * The crumb (spec §7, §8): a random per-visitor token the server keeps in a cookie, which the page's scripts send
 * back in a header on every state-changing call (a plain form sends it as a hidden field). Another site can make a
 * browser send the cookie, never read it, so it cannot write the header: a write without the matching header is
 * refused with the §8 crumb failure. Names shared by the server (src/platform/http/crumb.ts) and the browser
 * (src/client/crumb.ts).
 */
export const CRUMB_COOKIE = 'crumb';
export const CRUMB_HEADER = 'x-csrf-token';
/** The error code of a refused crumb (403); the browser shows the §8 crumb failure texts for it. */
export const CRUMB_FAILURE_CODE = 'crumb-invalid' as const;

/** The hidden field of forms that post without JavaScript (the checkout form). */
export const CRUMB_FIELD = 'crumb';

/** 128 random bits in base64url: exactly 22 characters of [A-Za-z0-9_-]. */
const CRUMB_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const isCrumb = (value: unknown): value is string => typeof value === 'string' && CRUMB_PATTERN.test(value);

/** The value of cookie `name` in a Cookie header or `document.cookie` string, or null. */
export function readCookie(cookieString: string, name: string): string | null {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
