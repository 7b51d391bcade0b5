import type { CurrencyCode } from './currency';
import { formatMoney, formatMoneyTrimmed, type Money } from './money';
import { ROUTES } from './purchaseRoute';

/** §9: counts above this show as '100+'. */
export const CART_COUNT_CAP = 100;

/** Quantities from a cart answer may be missing or odd; the pill treats those as an empty cart. */
const normalise = (totalQuantity: number): number =>
  Number.isFinite(totalQuantity) && totalQuantity > 0 ? Math.floor(totalQuantity) : 0;

export const cartCountText = (totalQuantity: number): string => {
  const count = normalise(totalQuantity);
  return count > CART_COUNT_CAP ? `${CART_COUNT_CAP}+` : String(count);
};

export const cartItemNoun = (totalQuantity: number): 'item' | 'items' =>
  normalise(totalQuantity) === 1 ? 'item' : 'items';

/** §8, verbatim: '{n} items in cart' even for one item. */
export const cartSpokenLabel = (totalQuantity: number): string => {
  const count = normalise(totalQuantity);
  return count > CART_COUNT_CAP ? 'More than 100 items in cart' : `${count} items in cart`;
};

export const isCartPillShown = (totalQuantity: number): boolean => normalise(totalQuantity) > 0;

/** Where the shopper already is in the cart or paying: the pill, which leads to the cart, is left out there. */
const NO_PILL_PREFIXES = [ROUTES.cart, '/checkout', '/commerce'];

/**
 * Whether a page at `path` carries the floating pill: not the cart page itself nor the checkout, where it would lead
 * nowhere new and, fixed at the bottom of a phone's screen, would cover the page's last buttons and its footer.
 */
export const isCartPillPlacedOn = (path: string): boolean =>
  !NO_PILL_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

export interface CartPillView {
  shown: boolean;
  count: string;
  noun: 'item' | 'items';
  spokenLabel: string;
  subtotal: string;
}

/** Everything a cart indicator renders, from the cart's totals (subtotal in minor units, §3 subtotalCents). */
export function cartPillView(
  cart: { totalQuantity: number; subtotalCents: number },
  currency: CurrencyCode,
): CartPillView {
  return {
    shown: isCartPillShown(cart.totalQuantity),
    count: cartCountText(cart.totalQuantity),
    noun: cartItemNoun(cart.totalQuantity),
    spokenLabel: cartSpokenLabel(cart.totalQuantity),
    subtotal: formatMoneyTrimmed({ minorUnits: cart.subtotalCents, currency }),
  };
}

/** Cart UI strings of §8. */
export const CART_MESSAGES = {
  unableToUpdateQuantity: 'Unable to update quantity',
  unableToRemoveItem: 'Unable to remove item',
  unableToAddItem: 'Unable to add item',
  unableToUpdateForm: 'Unable to update form',
  unableToOpenForm: 'Unable to open form',
  checkConnection: 'Please check your internet connection.',
  tryAgain: 'Please try again.',
  emptyCart: 'You have nothing in your shopping cart.',
} as const;

/** §8: checkout needs at least the store's minimum subtotal (minor units; 0 or less means no minimum). */
export const isBelowMinimumSubtotal = (subtotalCents: number, minimumCents: number): boolean =>
  minimumCents > 0 && !(subtotalCents >= minimumCents);

/** The minimum shows in full ('$25.00'): it is a threshold the shopper compares with, not a running total. */
export const minimumSubtotalMessage = (minimum: Money): string =>
  `To check out, your order subtotal must be ${formatMoney(minimum)} or more.`;

/** §2: the 'Added to cart' popover on product list pages, and its Close button. */
export const ADDED_POPOVER_CLOSE_LABEL = 'Close';
export const addedToCartPopoverText = (productName: string): string => `${productName} was added to your cart.`;
