/**
 * The promo popup (spec §2 "popup overlay", §7 PROMO_POPUP_SUBMISSION): a site-wide modal holding a form, usually a
 * newsletter sign-up. The rules the server (where it may show) and the browser (when it shows) share:
 *
 * - it opens `showAfterSeconds` after the page loads (no exit-intent guessing: one rule, the same on every device);
 * - at most once per visitor every `showAgainAfterDays` days, remembered in the browser's localStorage (first-party,
 *   never sent to the server, so pages stay cacheable); a browser without localStorage is never shown it, rather than
 *   shown it on every page;
 * - never where a shopper is paying: the cart, the checkout and the purchase routes.
 */
import { ROUTES } from './purchaseRoute';

export const PROMO_POPUP_DEFAULT_DELAY_SECONDS = 5;
export const PROMO_POPUP_MAX_DELAY_SECONDS = 600;
export const PROMO_POPUP_DEFAULT_SHOW_AGAIN_DAYS = 30;
export const PROMO_POPUP_MAX_SHOW_AGAIN_DAYS = 365;
/** The localStorage key holding when the popup was last shown (ms since the epoch), per form. */
export const promoPopupStorageKey = (formId: string): string => `vitrine:promo-popup:${formId}`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Paths where a shopper is buying: the popup never interrupts them. */
const NO_POPUP_PREFIXES = [ROUTES.cart, '/checkout', '/commerce'];

/** Whether a page at `path` may carry the popup. */
export const promoPopupAllowedOn = (path: string): boolean =>
  !NO_POPUP_PREFIXES.some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`),
  );

/**
 * Whether the popup is due, given what localStorage holds (`stored`: null when nothing, undefined when the browser has
 * no localStorage). An unreadable or future time counts as never shown.
 */
export function promoPopupDue(stored: string | null | undefined, nowMs: number, showAgainAfterDays: number): boolean {
  if (stored === undefined) return false;
  if (stored === null) return true;
  const shownAt = Number(stored);
  if (!Number.isFinite(shownAt) || shownAt > nowMs) return true;
  return nowMs - shownAt >= showAgainAfterDays * DAY_MS;
}
