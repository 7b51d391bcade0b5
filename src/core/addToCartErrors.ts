/** The add-to-cart error catalogue of spec §2, §5 and §8. */

/** §8: the closed set of error types tracked when an add fails. */
export const TRACKED_ERROR_TYPES = [
  'NO_VARIANT_SELECTED',
  'VARIANT_UNAVAILABLE',
  'OUT_OF_STOCK',
  'QUANTITY_NOT_A_NUMBER',
  'SUB_WITH_FORM_FAILURE',
  'SUB_QUANTITY_NOT_A_WHOLE_NUMBER',
  'SUB_API_FAILURE',
  'EXPRESS_CHECKOUT_FAILURE',
  'CUSTOM_FORM_RENDER_ERROR',
  'CUSTOM_FORM_RENDER_ERROR_OUT_OF_STOCK',
  'API_FAILURE',
] as const;
export type TrackedErrorType = (typeof TRACKED_ERROR_TYPES)[number];

export interface AddToCartError {
  type: TrackedErrorType;
  /** The text the shopper sees (in the alert, or none on a list-grid button for NO_VARIANT_SELECTED). */
  message: string;
  /** For NO_VARIANT_SELECTED: the options still to choose, so the button or selectors can be highlighted. */
  unselectedOptions?: readonly string[];
}

export const ADD_TO_CART_MESSAGES = {
  selectGiftCardDenomination: 'Select a denomination for the Gift Card',
  variantUnavailable: 'Sorry, that item variant is unavailable. Please select another variant.',
  outOfStock: 'Sorry, we do not have enough of that item available.',
  quantityNotANumber: 'Quantity must be a number.',
  quantityNotAWholeNumber: 'Quantity must be a whole number',
  expressCheckoutNoSession:
    'Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.',
  sessionExpired: 'Your session has expired. Please reload the page and try again.',
  enableCookies: 'Please enable cookies in your browser, reload the page, and try again.',
  tooManyRequests: 'Please try again in a few seconds.',
} as const;

/**
 * 'Please select the Size option.', 'Please select the Size and Colour options.',
 * 'Please select the Size, Colour and Material options.' For three or more we follow the spec's template
 * '{optionsList} and {lastOption}' literally, without a comma before 'and'.
 */
export function selectOptionsMessage(options: readonly string[]): string {
  if (options.length <= 1) return `Please select the ${options[0] ?? ''} option.`;
  const last = options[options.length - 1];
  return `Please select the ${options.slice(0, -1).join(', ')} and ${last} options.`;
}

export const ALERT_TITLES = {
  addItem: 'Unable to Add Item',
  purchaseItem: 'Unable to Purchase Item',
  purchaseGiftCard: 'Unable to purchase Gift Card',
} as const;

/** A gift card button always purchases, so its own title wins over the express-checkout one. */
export function alertTitle(context: { isGiftCard?: boolean; expressCheckout?: boolean }): string {
  if (context.isGiftCard) return ALERT_TITLES.purchaseGiftCard;
  if (context.expressCheckout) return ALERT_TITLES.purchaseItem;
  return ALERT_TITLES.addItem;
}

/** Why an add request did not succeed, as the caller observed it. */
export type AddRequestFailure =
  /** The crumb (CSRF token) check failed; cookiesEnabled is the browser's first check. */
  | { kind: 'crumb'; cookiesEnabled: boolean }
  /** The request never got an answer. */
  | { kind: 'network' }
  | { kind: 'http'; status: number; serverMessage?: string | null };

/** Used when neither the spec nor the server gives a text (cart UI strings of §8). */
export const FALLBACK_FAILURE_MESSAGES = {
  network: 'Please check your internet connection.',
  other: 'Please try again.',
} as const;

/** §8: the shopper message for a failed add request. */
export function failureMessage(failure: AddRequestFailure): string {
  switch (failure.kind) {
    case 'crumb':
      return failure.cookiesEnabled ? ADD_TO_CART_MESSAGES.sessionExpired : ADD_TO_CART_MESSAGES.enableCookies;
    case 'network':
      return FALLBACK_FAILURE_MESSAGES.network;
    default: {
      if (failure.status === 429) return ADD_TO_CART_MESSAGES.tooManyRequests;
      const server = typeof failure.serverMessage === 'string' ? failure.serverMessage.trim() : '';
      return server !== '' ? server : FALLBACK_FAILURE_MESSAGES.other;
    }
  }
}

/** The tracked error for a failed request: subscription purchases use their own API and error type. */
export const requestFailureError = (failure: AddRequestFailure, isSubscription = false): AddToCartError => ({
  type: isSubscription ? 'SUB_API_FAILURE' : 'API_FAILURE',
  message: failureMessage(failure),
});
