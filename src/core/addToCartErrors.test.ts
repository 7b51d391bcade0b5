import { describe, expect, it } from 'vitest';
import {
  ADD_TO_CART_MESSAGES,
  alertTitle,
  failureMessage,
  requestFailureError,
  selectOptionsMessage,
  TRACKED_ERROR_TYPES,
  type AddRequestFailure,
} from './addToCartErrors';

describe('tracked error types (§8)', () => {
  it('are the 11 names of the spec', () => {
    expect(TRACKED_ERROR_TYPES).toEqual([
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
    ]);
  });

  it('messages are verbatim', () => {
    expect(ADD_TO_CART_MESSAGES).toEqual({
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
    });
  });
});

describe('selectOptionsMessage (§5)', () => {
  it.each<[string[], string]>([
    [['Size'], 'Please select the Size option.'],
    [['Size', 'Colour'], 'Please select the Size and Colour options.'],
    [['Size', 'Colour', 'Fit'], 'Please select the Size, Colour and Fit options.'],
    [['A', 'B', 'C', 'D'], 'Please select the A, B, C and D options.'],
  ])('%j → %s', (options, expected) => {
    expect(selectOptionsMessage(options)).toBe(expected);
  });
});

describe('alertTitle (§2)', () => {
  it.each<[object, string]>([
    [{}, 'Unable to Add Item'],
    [{ expressCheckout: true }, 'Unable to Purchase Item'],
    [{ isGiftCard: true }, 'Unable to purchase Gift Card'],
    [{ isGiftCard: true, expressCheckout: true }, 'Unable to purchase Gift Card'],
  ])('%j → %s', (context, expected) => {
    expect(alertTitle(context)).toBe(expected);
  });
});

describe('failureMessage (§8)', () => {
  it.each<[AddRequestFailure, string]>([
    [{ kind: 'crumb', cookiesEnabled: true }, 'Your session has expired. Please reload the page and try again.'],
    [
      { kind: 'crumb', cookiesEnabled: false },
      'Please enable cookies in your browser, reload the page, and try again.',
    ],
    [{ kind: 'http', status: 429, serverMessage: 'Slow down' }, 'Please try again in a few seconds.'],
    [
      { kind: 'http', status: 400, serverMessage: 'This product is no longer available.' },
      'This product is no longer available.',
    ],
    [{ kind: 'http', status: 500, serverMessage: '  ' }, 'Please try again.'],
    [{ kind: 'http', status: 500 }, 'Please try again.'],
    [{ kind: 'network' }, 'Please check your internet connection.'],
  ])('%j → %s', (failure, expected) => {
    expect(failureMessage(failure)).toBe(expected);
  });

  it('tracks subscription call failures separately', () => {
    expect(requestFailureError({ kind: 'http', status: 429 })).toEqual({
      type: 'API_FAILURE',
      message: 'Please try again in a few seconds.',
    });
    expect(requestFailureError({ kind: 'network' }, true)).toEqual({
      type: 'SUB_API_FAILURE',
      message: 'Please check your internet connection.',
    });
  });
});
