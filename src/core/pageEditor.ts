/**
 * The rules of the pages editor at /admin/pages (issue 26), shared by its form and its JSON calls: what a page's URL
 * may be, as the owner types it, and the spec's editor messages (§5 'Editor messages') that say why not.
 */

/** §5: '{val} is not a valid page URL'. */
export const notAValidPageUrl = (val: string): string => `${val} is not a valid page URL`;

/** §5: 'This {tagType} already exists' — here a page URL (another page's, a collection's or the store's own). */
export const alreadyExists = (tagType: string): string => `This ${tagType} already exists`;

/** An empty URL (the spec's editor messages have none for it). */
export const ENTER_A_PAGE_URL = 'Please enter a page URL';

/** A page path as the site file writes it: '/' or '/about', '/about/team' (lower-case letters, digits, dashes). */
const PAGE_PATH = /^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/;

/** The store's own addresses (cart, checkout, account, search, the owner's area…): no page may sit at or under them. */
export const STORE_PATHS: readonly string[] = [
  'account',
  'admin',
  'api',
  'assets',
  'cart',
  'checkout',
  'commerce',
  'newsletter',
  'restock',
  'search',
  'subscriptions',
  'unlock-page',
];

/**
 * The path the owner meant by what they typed: spaces trimmed, a leading '/' added, trailing ones removed, letters
 * lower-cased ('About/' → '/about'). Anything else that is not a page path stays as typed, to be refused.
 */
export function normalisePagePath(typed: string): string {
  const trimmed = typed.trim();
  if (trimmed === '') return trimmed;
  const withSlash = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  const path = withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
  return path.toLowerCase();
}

export type PagePathCheck = { ok: true; path: string } | { ok: false; message: string };

/**
 * Whether `typed` can be a page's URL: a valid path (else '{val} is not a valid page URL', with what was typed) that no
 * other page (`taken.pages`: their paths), collection (`taken.collections`: their slugs; a collection owns the paths
 * under it) or store address has (else 'This page URL already exists').
 */
export function checkPagePath(
  typed: string,
  taken: { pages: readonly string[]; collections: readonly string[] },
): PagePathCheck {
  const path = normalisePagePath(typed);
  if (path === '') return { ok: false, message: ENTER_A_PAGE_URL };
  if (path.length > 200 || !PAGE_PATH.test(path)) return { ok: false, message: notAValidPageUrl(typed.trim()) };
  const first = path.split('/')[1] ?? '';
  if (STORE_PATHS.includes(first) || taken.collections.includes(first) || taken.pages.includes(path))
    return { ok: false, message: alreadyExists('page URL') };
  return { ok: true, path };
}

/** An id for a new page from its path ('/about-us' → 'about-us', '/' → 'home'), made unique among `ids`. */
export function pageIdFor(path: string, ids: readonly string[]): string {
  const base = (path === '/' ? 'home' : path.slice(1).replace(/\//g, '-')).slice(0, 60).replace(/-+$/, '') || 'page';
  if (!ids.includes(base)) return base;
  for (let n = 2; ; n++) if (!ids.includes(`${base}-${n}`)) return `${base}-${n}`;
}
