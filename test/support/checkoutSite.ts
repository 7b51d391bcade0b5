/**
 * The cart tests' shop with checkout settings: two shipping options (one free over $75, one only to Canada), New York
 * sales tax, coupons (10 % off, $5 off over $50, a one-use coupon, a once-per-e-mail one, an expired one), and the
 * test payment provider; plus a one-of-a-kind print (stock 1) for the races.
 */
import type { SiteFileInput } from '../../src/modules/site/schema';
import { shopSite } from './cartSite';

export { SHOP_HOST, seedSite } from './cartSite';

export const checkoutSite: SiteFileInput = {
  ...shopSite,
  website: {
    ...shopSite.website,
    store: {
      checkout: {
        shopEmail: 'orders@shop.test',
        shipsTo: ['US', 'CA', 'GB'],
        shippingOptions: [
          { id: 'standard', name: 'Standard', rate: 600, freeOver: 7500 },
          { id: 'express', name: 'Express', rate: 1500 },
          { id: 'canada-post', name: 'Canada Post', rate: 900, countries: ['CA'] },
        ],
        tax: { rates: [{ country: 'US', region: 'NY', rate: 8.875, name: 'Sales tax' }] },
        coupons: [
          { code: 'WELCOME10', type: 'percent', amount: 10 },
          { code: 'FIVEOFF', type: 'fixed', amount: 500, minimumSubtotal: 5000 },
          { code: 'ONCE', type: 'percent', amount: 50, usageLimit: 1 },
          { code: 'PEREMAIL', type: 'fixed', amount: 100, oncePerEmail: true },
          { code: 'OLD', type: 'percent', amount: 10, endsAt: '2020-01-01T00:00:00Z' },
        ],
        payments: { provider: 'test' },
      },
    },
  },
  products: [
    ...(shopSite.products ?? []),
    {
      id: 'one-of-a-kind',
      collectionId: 'shop',
      slug: 'one-of-a-kind',
      name: 'One of a kind',
      productType: 1,
      variants: [{ sku: 'ooak-1', price: 12000, stock: { qtyInStock: 1 } }],
    },
  ],
};

export const NEW_YORK = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: '1 Main Street',
  address2: '',
  city: 'New York',
  country: 'US',
  region: 'NY',
  postalCode: '10001',
  phone: '',
};

export const TEST_CARD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' };
export const DECLINED_CARD = { cardNumber: '4000 0000 0000 0002', cardExpiry: '12 / 34', cardCvc: '123' };
