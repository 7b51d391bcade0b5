/**
 * The subscription tests' shop: the checkout site plus a monthly bean subscription for 3 cycles (stock 5, two options,
 * one with a form and its own button text) and a fortnightly tea subscription until cancelled (unlimited stock).
 */
import type { SiteFileInput } from '../../src/modules/site/schema';
import { checkoutSite } from './checkoutSite';

export { NEW_YORK, SHOP_HOST, seedSite, TEST_CARD, DECLINED_CARD } from './checkoutSite';

/** Pays at checkout, declines every renewal (the test provider's TEST_CARD_DECLINES_LATER). */
export const DECLINES_LATER_CARD = { cardNumber: '4000 0000 0000 0341', cardExpiry: '12 / 34', cardCvc: '123' };

export const subscriptionSite: SiteFileInput = {
  ...checkoutSite,
  website: { ...checkoutSite.website!, timeZone: 'America/New_York' } as SiteFileInput['website'],
  products: [
    ...(checkoutSite.products ?? []),
    {
      id: 'beans',
      collectionId: 'shop',
      slug: 'beans',
      name: 'Bean club',
      productType: 1,
      variantOptions: [{ name: 'Grind', values: ['Whole', 'Filter'] }],
      variants: [
        { sku: 'beans-whole', attributes: { Grind: 'Whole' }, price: 1500, stock: { qtyInStock: 5 } },
        { sku: 'beans-filter', attributes: { Grind: 'Filter' }, price: 1500, stock: { qtyInStock: 5 } },
      ],
      subscription: {
        billingPeriod: { value: 1, unit: 'MONTH' },
        numBillingCycles: 3,
        options: [
          { id: 'monthly', price: 1200 },
          {
            id: 'gift',
            price: 1500,
            salePrice: 1300,
            onSale: true,
            additionalFieldsFormId: 'note',
            customAddButtonText: 'Subscribe as a gift',
          },
        ],
      },
    },
    {
      id: 'tea',
      collectionId: 'shop',
      slug: 'tea',
      name: 'Tea club',
      productType: 1,
      variants: [{ sku: 'tea-1', price: 900, stock: { unlimited: true } }],
      subscription: { billingPeriod: { value: 2, unit: 'WEEK' } },
    },
  ],
  forms: [
    ...(checkoutSite.forms ?? []),
    {
      id: 'note',
      name: 'Gift note',
      submitLabel: 'Save',
      fields: [{ id: 'to', kind: 'text', title: 'To', required: true }],
    },
  ],
};
