/**
 * Which site paths are private to one visitor, so that analytics never stores nor lists them (issue 25): the
 * checkout and what follows it (the order-confirmed page /checkout/order/{id} shows a customer's name and address;
 * the gift-card and subscription checkouts), the account area, the per-visitor links sent by e-mail (a
 * subscription's cancel link, a restock or newsletter link), the report page itself, and any path with a segment
 * that looks like a token (random letters and digits). Query strings are never kept by analytics at all
 * (src/core/analytics.ts `sitePath`), so a token there is not a concern here.
 *
 * A private path is recorded as PRIVATE_PAGES instead, so its page views still count (the funnel's checkout step,
 * the site's totals, web vitals of those pages together) while the report never shows which one it was. Pure.
 */

/** What analytics stores and shows in place of a private path (not a path: it cannot collide with one). */
export const PRIVATE_PAGES = '(private)';
/** How the report names PRIVATE_PAGES. */
export const PRIVATE_PAGES_LABEL = 'Private pages (checkout, orders, account)';

/** Paths private with everything under them ('/account' and '/account/…'). */
const PRIVATE_PREFIXES = [
  '/checkout',
  '/checkouts',
  '/commerce/goto-checkout',
  '/account',
  '/subscriptions',
  '/restock/unsubscribe',
  '/newsletter/confirm',
  '/unlock-page',
  '/analytics/report',
  '/api',
] as const;

/**
 * A path segment that reads as a token: 16 or more letters, digits, '-' or '_' mixing upper and lower case with a
 * digit (base64url ids: an order's 22-character id), or 32 or more hexadecimal digits. Product and page slugs are
 * lower case words: never one.
 */
export function isTokenLike(segment: string): boolean {
  if (/^[0-9a-f]{32,}$/i.test(segment)) return true;
  return /^[A-Za-z0-9_-]{16,}$/.test(segment) && /[a-z]/.test(segment) && /[A-Z]/.test(segment) && /\d/.test(segment);
}

/** Whether analytics must not store or list this site path (see above). Case-insensitive on the prefixes. */
export function isPrivatePath(path: string): boolean {
  const bare = (path.split(/[?#]/)[0] ?? '').replace(/\/+$/, '') || '/';
  const lower = bare.toLowerCase();
  if (PRIVATE_PREFIXES.some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`))) return true;
  return bare.split('/').some((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // a bad escape: judged as written
    }
    return isTokenLike(decoded);
  });
}

/** The path analytics keeps: itself, or PRIVATE_PAGES for a private one. */
export const analyticsPath = (path: string): string => (isPrivatePath(path) ? PRIVATE_PAGES : path);

/** Absolute URLs and root-relative paths in free text (an error message, a stack). */
const URL_OR_PATH = /(?:https?:\/\/[^\s/'"()<>]+)?\/[^\s'"()<>]*/g;

/**
 * Free text (a client error's message or stack) with every private URL or path in it replaced by PRIVATE_PAGES, its
 * origin kept ('https://shop.example/checkout/order/AbC…' → 'https://shop.example(private)'). A script's address
 * with its line and column ('/assets/main-x1.js:3:14') is kept.
 */
export function redactPrivatePaths(text: string): string {
  return text.replace(URL_OR_PATH, (match) => {
    const origin = /^https?:\/\/[^/]+/.exec(match)?.[0] ?? '';
    const rest = match.slice(origin.length);
    if (origin === '' && match.startsWith('//')) return match;
    return isPrivatePath(rest.replace(/(:\d+){1,2}$/, '')) ? `${origin}${PRIVATE_PAGES}` : match;
  });
}
