import { describe, expect, it } from 'vitest';
import { analyticsPath, isPrivatePath, isTokenLike, PRIVATE_PAGES, redactPrivatePaths } from './privatePath';

describe('isPrivatePath: what analytics never stores nor lists', () => {
  it('takes the checkout, order pages, the account area, per-visitor links and the report page', () => {
    for (const path of [
      '/checkout',
      '/checkout/',
      '/checkout/order/Q2xhdWRlIGlzIGdyZWF0IQ',
      '/checkout/order/abc',
      '/checkout/giftcard',
      '/checkout/subscribe',
      '/CHECKOUT/order/x',
      '/checkouts',
      '/commerce/goto-checkout',
      '/account',
      '/account/sign-in',
      '/account/restock',
      '/subscriptions/cancel/tok',
      '/restock/unsubscribe',
      '/newsletter/confirm',
      '/analytics/report',
      '/unlock-page',
      '/api/census/RecordHit',
    ])
      expect(isPrivatePath(path), path).toBe(true);
  });

  it('takes any path with a token-like segment', () => {
    expect(isPrivatePath('/gift/Xy3kQ9pLm2Rt7vWz8aBc4d')).toBe(true);
    expect(isPrivatePath('/files/0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isPrivatePath('/x/Xy3kQ9pLm2Rt7vWz%2D8aBc')).toBe(true);
  });

  it('keeps the shop pages, blog posts, the cart and the search', () => {
    for (const path of [
      '/',
      '/shop',
      '/shop/p/linen-shirt-oatmeal-2024',
      '/blog/2024/05/spring-collection-is-here',
      '/cart',
      '/search',
      '/checkout-tips',
      '/accounting',
      '/about-us',
      '/shop/p/SKU-123',
    ])
      expect(isPrivatePath(path), path).toBe(false);
  });

  it('isTokenLike: mixed case with a digit (16+), or long hexadecimal', () => {
    expect(isTokenLike('Q2xhdWRlIGlzIGdyZWF0IQ1')).toBe(true);
    expect(isTokenLike('linen-shirt-oatmeal-2024')).toBe(false);
    expect(isTokenLike('LinenShirtOatmeal')).toBe(false);
    expect(isTokenLike('Ab1')).toBe(false);
    expect(isTokenLike('deadbeef'.repeat(4))).toBe(true);
  });

  it('analyticsPath stores a private path as PRIVATE_PAGES', () => {
    expect(analyticsPath('/checkout/order/abc')).toBe(PRIVATE_PAGES);
    expect(analyticsPath('/shop')).toBe('/shop');
  });

  it('redactPrivatePaths hides private URLs and paths in free text, keeps scripts and other paths', () => {
    const id = 'Q2xhdWRlIGlzIGdyZWF0IQ';
    expect(redactPrivatePaths(`Failed to load https://shop.example/checkout/order/${id} (404)`)).toBe(
      `Failed to load https://shop.example${PRIVATE_PAGES} (404)`,
    );
    expect(redactPrivatePaths(`at render (/account/orders:3:14)`)).toBe(`at render (${PRIVATE_PAGES})`);
    expect(redactPrivatePaths('at main (https://shop.example/assets/main-B3xK9aZ1.js:1:200)')).toBe(
      'at main (https://shop.example/assets/main-B3xK9aZ1.js:1:200)',
    );
    expect(redactPrivatePaths('TypeError: x is undefined')).toBe('TypeError: x is undefined');
  });
});
