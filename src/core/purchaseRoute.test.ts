import { describe, expect, it } from 'vitest';
import { ProductType } from './enums';
import {
  giftCardCheckoutUrl,
  purchaseFlow,
  purchaseRoute,
  ROUTES,
  subscriptionCheckoutUrl,
  type PurchaseRouteInput,
} from './purchaseRoute';

const base: PurchaseRouteInput = {
  productType: ProductType.PHYSICAL,
  isSubscribable: false,
  websiteId: 'w1',
  productId: 'p1',
};

describe('routes (§2)', () => {
  it('are verbatim', () => {
    expect(ROUTES).toEqual({
      cart: '/cart',
      gotoCheckout: '/commerce/goto-checkout',
      subscriptionCheckout: '/checkout/subscribe',
      giftCardCheckout: '/checkout/giftcard',
      search: '/search',
    });
    expect(subscriptionCheckoutUrl('abc')).toBe('/checkout/subscribe?cartToken=abc');
    expect(subscriptionCheckoutUrl('a&b=c')).toBe('/checkout/subscribe?cartToken=a%26b%3Dc');
    expect(giftCardCheckoutUrl({ websiteId: 'w1', giftCardProductId: 'g1' })).toBe(
      '/checkout/giftcard?websiteId=w1&giftCardProductId=g1',
    );
    expect(giftCardCheckoutUrl({ websiteId: 'w1', giftCardProductId: 'g1', sku: 'SQ 50' })).toBe(
      '/checkout/giftcard?websiteId=w1&giftCardProductId=g1&sku=SQ%2050',
    );
  });
});

describe('purchase routing after a successful add (§4)', () => {
  it.each<[string, Partial<PurchaseRouteInput>, ReturnType<typeof purchaseRoute>]>([
    ['plain add updates the cart', {}, { flow: 'cart', url: '/cart' }],
    ['express checkout', { expressCheckout: true }, { flow: 'express-checkout', url: '/commerce/goto-checkout' }],
    [
      'subscription',
      { isSubscribable: true, cartToken: 'tok' },
      { flow: 'subscription-checkout', url: '/checkout/subscribe?cartToken=tok' },
    ],
    [
      'subscription wins over express',
      { isSubscribable: true, expressCheckout: true, cartToken: 'tok' },
      { flow: 'subscription-checkout', url: '/checkout/subscribe?cartToken=tok' },
    ],
    ['subscription without a cart token', { isSubscribable: true }, null],
    [
      'gift card',
      { productType: ProductType.GIFT_CARD, sku: 'GC-50', expressCheckout: true },
      { flow: 'gift-card-checkout', url: '/checkout/giftcard?websiteId=w1&giftCardProductId=p1&sku=GC-50' },
    ],
  ])('%s', (_, overrides, expected) => {
    expect(purchaseRoute({ ...base, ...overrides })).toEqual(expected);
  });

  it('purchaseFlow alone', () => {
    expect(purchaseFlow({ productType: ProductType.DIGITAL, isSubscribable: false })).toBe('cart');
  });
});
