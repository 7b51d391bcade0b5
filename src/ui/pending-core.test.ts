import { describe, expect, it } from 'vitest';
import { addedToCartPopoverText, scarcityText, shouldLoadCartAtStart } from './pending-core';

describe('pending core rules', () => {
  it('words the list popover as §2 does', () => {
    expect(addedToCartPopoverText('Speckled Mug')).toBe('Speckled Mug was added to your cart.');
  });

  it('loads the cart at start only when signed in, hasCart is true or a cart cookie exists (§4)', () => {
    expect(shouldLoadCartAtStart({})).toBe(false);
    expect(shouldLoadCartAtStart({ hasCart: 'true' })).toBe(true);
    expect(shouldLoadCartAtStart({ hasCart: 'false' })).toBe(false);
    expect(shouldLoadCartAtStart({ cartCookie: true })).toBe(true);
    expect(shouldLoadCartAtStart({ siteUserInfo: encodeURIComponent('{"authenticated":true,"siteUserId":"u1"}') })).toBe(true);
    expect(shouldLoadCartAtStart({ siteUserInfo: encodeURIComponent('{"authenticated":false}') })).toBe(false);
    expect(shouldLoadCartAtStart({ siteUserInfo: '%E0%A4%A' })).toBe(false);
    expect(shouldLoadCartAtStart({ siteUserInfo: 'not json' })).toBe(false);
  });

  it('fills the scarcity template only at or below the threshold', () => {
    expect(scarcityText('Only {qty} left in stock', 2, 3)).toBe('Only 2 left in stock');
    expect(scarcityText('Only {qty} left in stock', 3, 3)).toBe('Only 3 left in stock');
    expect(scarcityText('Only {qty} left in stock', 4, 3)).toBeNull();
    expect(scarcityText('Only {qty} left in stock', 0, 3)).toBeNull();
    expect(scarcityText('Only {qty} left in stock', Infinity, 3)).toBeNull();
  });
});
