import { describe, expect, it } from 'vitest';
import {
  ADDED_POPOVER_CLOSE_LABEL,
  addedToCartPopoverText,
  CART_MESSAGES,
  cartCountText,
  cartItemNoun,
  cartPillView,
  cartSpokenLabel,
  isBelowMinimumSubtotal,
  isCartPillPlacedOn,
  isCartPillShown,
  minimumSubtotalMessage,
} from './cartPill';

describe('where the floating cart pill is placed (issue 23)', () => {
  it.each<[string, boolean]>([
    ['/', true],
    ['/shop', true],
    ['/shop/p/mug', true],
    ['/cartography', true],
    ['/cart', false],
    ['/checkout', false],
    ['/checkout/giftcard', false],
    ['/commerce/goto-checkout', false],
  ])('%s: %s', (path, placed) => {
    expect(isCartPillPlacedOn(path)).toBe(placed);
  });
});

describe('cart pill (§4, §8, §9)', () => {
  it.each<[number, string, string, string, boolean]>([
    [0, '0', 'items', '0 items in cart', false],
    [1, '1', 'item', '1 items in cart', true],
    [2, '2', 'items', '2 items in cart', true],
    [100, '100', 'items', '100 items in cart', true],
    [101, '100+', 'items', 'More than 100 items in cart', true],
    [5000, '100+', 'items', 'More than 100 items in cart', true],
    [-3, '0', 'items', '0 items in cart', false],
    [NaN, '0', 'items', '0 items in cart', false],
  ])('%s → count %s, %s, "%s", shown %s', (n, count, noun, spoken, shown) => {
    expect(cartCountText(n)).toBe(count);
    expect(cartItemNoun(n)).toBe(noun);
    expect(cartSpokenLabel(n)).toBe(spoken);
    expect(isCartPillShown(n)).toBe(shown);
  });

  it('view trims a zero fraction of the subtotal', () => {
    expect(cartPillView({ totalQuantity: 2, subtotalCents: 1200 }, 'USD')).toEqual({
      shown: true,
      count: '2',
      noun: 'items',
      spokenLabel: '2 items in cart',
      subtotal: '$12',
    });
    expect(cartPillView({ totalQuantity: 1, subtotalCents: 1250 }, 'USD').subtotal).toBe('$12.50');
    expect(cartPillView({ totalQuantity: 0, subtotalCents: 0 }, 'EUR').shown).toBe(false);
  });

  it('cart UI strings are verbatim', () => {
    expect(Object.values(CART_MESSAGES)).toEqual([
      'Unable to update quantity',
      'Unable to remove item',
      'Unable to add item',
      'Unable to update form',
      'Unable to open form',
      'Please check your internet connection.',
      'Please try again.',
      'You have nothing in your shopping cart.',
    ]);
    expect(minimumSubtotalMessage({ minorUnits: 2500, currency: 'USD' })).toBe(
      'To check out, your order subtotal must be $25.00 or more.',
    );
  });
});

describe("'Added to cart' popover (§2)", () => {
  it.each<[string, string]>([
    ['Speckled Mug', 'Speckled Mug was added to your cart.'],
    ['Tee – Blue / M', 'Tee – Blue / M was added to your cart.'],
    ['', ' was added to your cart.'],
  ])('%s → "%s"', (name, text) => {
    expect(addedToCartPopoverText(name)).toBe(text);
  });

  it('has a Close button', () => {
    expect(ADDED_POPOVER_CLOSE_LABEL).toBe('Close');
  });
});

describe('minimum subtotal (§8)', () => {
  it.each<[number, number, boolean]>([
    [1000, 0, false],
    [1000, -5, false],
    [2499, 2500, true],
    [2500, 2500, false],
    [3000, 2500, false],
    [NaN, 2500, true],
  ])('subtotal %s, minimum %s → below %s', (subtotal, minimum, expected) => {
    expect(isBelowMinimumSubtotal(subtotal, minimum)).toBe(expected);
  });
});
