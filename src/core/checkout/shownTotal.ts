/**
 * The total a checkout page showed, posted back with the order (`shownTotal`, a hidden field of the checkout forms).
 * A page without JavaScript updates its totals only when the shopper asks (Update totals): one who chose a dearer
 * shipping method, or typed an address that is taxed, and went straight to Place order would be charged a total the
 * page never showed. So the order is placed only when the total it would be charged is the one posted; otherwise the
 * page comes back with the new totals and `totalChangedMessage`. A post without the field (a call, an older page) is
 * not checked.
 */
import type { CheckoutTotals } from './types';

/** The totals are final once a shipping method is chosen, or when nothing ships. */
export const totalsFinal = (quote: { requiresShipping: boolean; selectedShippingOptionId: string | null }): boolean =>
  !quote.requiresShipping || quote.selectedShippingOptionId !== null;

/** What the page posts back: the grand total in minor units, or '' while it is not final (no shipping method yet). */
export const shownTotalValue = (totals: Pick<CheckoutTotals, 'grandTotalCents'>, final: boolean): string =>
  final ? String(totals.grandTotalCents) : '';

/** True when a total was posted and it is not the one the order would be charged. */
export const totalChangedSinceShown = (
  posted: unknown,
  totals: Pick<CheckoutTotals, 'grandTotalCents'>,
  final: boolean,
): boolean => typeof posted === 'string' && posted !== shownTotalValue(totals, final);

/** The page's alert when it was: the new total, and what to do. */
export const totalChangedMessage = (total: string, button: string): string =>
  `Your total is now ${total} with the details you entered. Please check it and your card details, then press ${button} again.`;
