/**
 * What an add-to-cart form posted without JavaScript comes back with (spec §5 success or refusal): the add answers
 * 303 to the page it came from and leaves a short-lived cookie that the next page shows once. The cookie names the
 * product and one text of a closed list, never the text itself: only the shop's own texts can ever be shown.
 *
 * Cookie value: `a.{itemId}` (added), or `r.{itemId}.{textKey}` (refused), or `r.{itemId}.select.{i-j-…}` (options
 * still to choose, as indexes into the product's options: 'Please select the Size and Colour options.').
 * The cart page's own forms (a line's quantity, its removal, posted without JavaScript) leave `l.u.{textKey}` or
 * `l.r.{textKey}` when refused: 'Unable to update quantity' / 'Unable to remove item' (§8) with the text.
 */
export const CART_NOTICE_COOKIE = 'cartNotice';
/** Long enough for the redirect to be followed, short enough never to show on a later visit. */
export const CART_NOTICE_MAX_AGE_S = 60;
/** The notice's element id: the redirect's fragment, so the browser scrolls to it. */
export const CART_NOTICE_ID = 'cart-notice';

export type CartNotice =
  | { kind: 'added'; itemId: string }
  | { kind: 'refused'; itemId: string; text: string }
  | { kind: 'select'; itemId: string; missing: number[] }
  /** A cart line's change refused (the cart page's forms): which change, and the key of its text. */
  | { kind: 'line'; action: LineAction; text: string };

export type LineAction = 'update' | 'remove';

const ITEM_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const TEXT_KEY = /^[A-Za-z]{1,40}$/;
/** At most 6 options (the site file's limit). */
const MISSING = /^[0-5](?:-[0-5]){0,5}$/;

export function encodeCartNotice(notice: CartNotice): string {
  switch (notice.kind) {
    case 'added':
      return `a.${notice.itemId}`;
    case 'refused':
      return `r.${notice.itemId}.${notice.text}`;
    case 'select':
      return `r.${notice.itemId}.select.${notice.missing.join('-')}`;
    case 'line':
      return `l.${notice.action === 'update' ? 'u' : 'r'}.${notice.text}`;
  }
}

/** The cookie's notice, or null for anything that is not one this server writes. */
export function decodeCartNotice(value: unknown): CartNotice | null {
  if (typeof value !== 'string' || value.length > 200) return null;
  const [kind, itemId, text, missing, ...extra] = value.split('.');
  if (kind === 'l') {
    const action = itemId === 'u' ? 'update' : itemId === 'r' ? 'remove' : null;
    return action !== null && text !== undefined && TEXT_KEY.test(text) && missing === undefined
      ? { kind: 'line', action, text }
      : null;
  }
  if (extra.length > 0 || itemId === undefined || !ITEM_ID.test(itemId)) return null;
  if (kind === 'a') return text === undefined ? { kind: 'added', itemId } : null;
  if (kind !== 'r' || text === undefined || !TEXT_KEY.test(text)) return null;
  if (text === 'select') {
    if (missing === undefined || !MISSING.test(missing)) return null;
    return { kind: 'select', itemId, missing: [...new Set(missing.split('-').map(Number))] };
  }
  return missing === undefined ? { kind: 'refused', itemId, text } : null;
}

/** The options still to choose as indexes into the product's options (names it does not have are left out). */
export const missingOptionIndexes = (variantOptions: readonly string[], unselected: readonly string[]): number[] =>
  variantOptions.flatMap((name, i) => (unselected.includes(name) ? [i] : []));
