import { describe, expect, it } from 'vitest';
import { promoPopupAllowedOn, promoPopupDue, promoPopupStorageKey } from './promoPopup';

const DAY = 24 * 60 * 60 * 1000;

describe('promo popup rules', () => {
  it('never shows on the cart, the checkout or the purchase routes', () => {
    for (const path of [
      '/cart',
      '/checkout',
      '/checkout/order/abc',
      '/checkout/subscribe',
      '/commerce/goto-checkout',
    ]) {
      expect(promoPopupAllowedOn(path)).toBe(false);
    }
    for (const path of ['/', '/shop', '/shop/speckled-mug', '/contact', '/cartography', '/checkouts']) {
      expect(promoPopupAllowedOn(path)).toBe(true);
    }
  });

  it('is due when never shown, and again after its days', () => {
    const now = 100 * DAY;
    expect(promoPopupDue(null, now, 30)).toBe(true);
    expect(promoPopupDue(String(now - 29 * DAY), now, 30)).toBe(false);
    expect(promoPopupDue(String(now - 30 * DAY), now, 30)).toBe(true);
    expect(promoPopupDue(String(now - 1), now, 0)).toBe(true);
  });

  it('is never shown without localStorage, and an unreadable or future time counts as never shown', () => {
    expect(promoPopupDue(undefined, 0, 30)).toBe(false);
    expect(promoPopupDue('yesterday', DAY, 30)).toBe(true);
    expect(promoPopupDue(String(2 * DAY), DAY, 30)).toBe(true);
  });

  it('remembers per form', () => {
    expect(promoPopupStorageKey('newsletter')).toBe('vitrine:promo-popup:newsletter');
  });
});
