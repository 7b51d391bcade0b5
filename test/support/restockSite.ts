/**
 * The restock tests' shop (the checkout tests' shop, so orders can be placed and refunded), without CAPTCHA, with:
 * a mug whose Sage and Slate are sold out (restock on, mailing list offered and ticked by default), a print with
 * no options, sold out, whose form hides behind its call to action (its own success text), a bowl sold out without
 * restock, the one-of-a-kind print with restock on. `restockStock(site, sku, qty)` gives the same file with another
 * stock (an import that restocks). A second site on its own host uses ALTCHA.
 */
import type { SiteFileInput } from '../../src/modules/site/schema';
import { checkoutSite } from './checkoutSite';

export { seedSite, SHOP_HOST } from './cartSite';

export const CAPTCHA_HOST = 'captcha.test';

export const MUG_CTA = 'Sold out for now. Leave your e-mail and we will tell you when it is back.';
export const PRINT_SUCCESS = 'We will e-mail you when the next edition is printed.';

const restockProducts: NonNullable<SiteFileInput['products']> = [
  {
    id: 'mug',
    collectionId: 'shop',
    slug: 'mug',
    name: 'Speckled mug',
    productType: 1,
    variantOptions: [{ name: 'Colour', values: ['Oat', 'Sage', 'Slate'] }],
    variants: [
      { sku: 'MUG-OAT', attributes: { Colour: 'Oat' }, price: 2800, stock: { qtyInStock: 5 } },
      { sku: 'MUG-SAGE', attributes: { Colour: 'Sage' }, price: 2800, stock: { qtyInStock: 0 } },
      { sku: 'MUG-SLATE', attributes: { Colour: 'Slate' }, price: 2800, stock: { qtyInStock: 0 } },
    ],
    merchandising: {
      restockNotifications: {
        enabled: true,
        message: MUG_CTA,
        mailingListSignUpEnabled: true,
        mailingListOptInByDefault: true,
      },
    },
  },
  {
    id: 'print',
    collectionId: 'shop',
    slug: 'print',
    name: 'Harbour print',
    productType: 1,
    variants: [{ sku: 'PRINT', price: 6000, stock: { qtyInStock: 0 } }],
    merchandising: { restockNotifications: { enabled: true, successMessage: PRINT_SUCCESS, hiddenByDefault: true } },
  },
  {
    id: 'bowl',
    collectionId: 'shop',
    slug: 'bowl',
    name: 'Bowl',
    productType: 1,
    variants: [{ sku: 'BOWL', price: 3000, stock: { qtyInStock: 0 } }],
  },
];

export const restockSite: SiteFileInput = {
  ...checkoutSite,
  website: { ...checkoutSite.website, captcha: { provider: 'none' } },
  products: [
    ...(checkoutSite.products ?? []).map((p) =>
      p.id === 'one-of-a-kind'
        ? { ...p, merchandising: { restockNotifications: { enabled: true } } }
        : p.id === 'ebook'
          ? { ...p, merchandising: { restockNotifications: { enabled: true } } }
          : p,
    ),
    ...restockProducts,
  ],
};

/** The site file with `sku`'s stock set (and, optionally, the store's automatic send): an import that restocks. */
export function withStock(
  site: SiteFileInput,
  stock: Record<string, number>,
  options: { autoSend?: boolean } = {},
): SiteFileInput {
  return {
    ...site,
    website:
      options.autoSend === undefined
        ? site.website
        : { ...site.website, store: { ...site.website.store, restock: { autoSend: options.autoSend } } },
    products: (site.products ?? []).map((p) => ({
      ...p,
      variants: p.variants.map((v) =>
        stock[v.sku] === undefined ? v : { ...v, stock: { qtyInStock: stock[v.sku]! } },
      ),
    })),
  };
}

/** The same shop, on its own host, with ALTCHA. */
export const captchaRestockSite: SiteFileInput = {
  version: 1,
  website: {
    id: 'captcha-shop',
    title: 'Captcha shop',
    domains: [CAPTCHA_HOST],
    currency: 'USD',
    captcha: { provider: 'altcha' },
  },
  collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
  products: restockProducts,
};
