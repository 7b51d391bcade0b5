/**
 * A small shop for the cart tests: products with 0, 2 and 3 options, stock that runs out, a sale price, a digital
 * product, a gift card, a subscription, a product with a form (engraving), and a second site on its own domain. Loaded through the site-file
 * validation and the same replaceSite the import uses.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/platform/db/tables';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { validateSite } from '../../src/modules/site/validate';
import { replaceSite } from '../../src/modules/site/sites';

export const SHOP_HOST = 'shop.test';
export const OTHER_HOST = 'other.test';

const collections = [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }] as const;

export const shopSite: SiteFileInput = {
  version: 1,
  website: { id: 'shop', title: 'Shop', domains: [SHOP_HOST], default: true, currency: 'USD' },
  collections: [...collections],
  products: [
    {
      id: 'tee',
      collectionId: 'shop',
      slug: 'tee',
      name: 'Tee',
      productType: 1,
      variantOptions: [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Colour', values: ['Red', 'Blue'] },
      ],
      variants: [
        { sku: 'tee-s-red', attributes: { Size: 'S', Colour: 'Red' }, price: 2500, stock: { qtyInStock: 3 } },
        { sku: 'tee-m-red', attributes: { Size: 'M', Colour: 'Red' }, price: 2500, stock: { qtyInStock: 0 } },
        {
          sku: 'tee-s-blue',
          attributes: { Size: 'S', Colour: 'Blue' },
          price: 2500,
          salePrice: 1999,
          onSale: true,
          stock: { qtyInStock: 100 },
        },
      ],
    },
    {
      id: 'kit',
      collectionId: 'shop',
      slug: 'kit',
      name: 'Kit',
      productType: 1,
      variantOptions: [
        { name: 'Size', values: ['S'] },
        { name: 'Colour', values: ['Red'] },
        { name: 'Material', values: ['Wool'] },
      ],
      variants: [
        {
          sku: 'kit-1',
          attributes: { Size: 'S', Colour: 'Red', Material: 'Wool' },
          price: 9900,
          stock: { qtyInStock: 5 },
        },
      ],
    },
    {
      id: 'limited',
      collectionId: 'shop',
      slug: 'limited',
      name: 'Limited print',
      productType: 1,
      variants: [{ sku: 'limited-1', price: 4000, stock: { qtyInStock: 7 } }],
    },
    {
      id: 'ebook',
      collectionId: 'shop',
      slug: 'ebook',
      name: 'E-book',
      productType: 2,
      variants: [{ sku: 'ebook-1', price: 999, stock: { unlimited: true } }],
    },
    {
      id: 'gift',
      collectionId: 'shop',
      slug: 'gift',
      name: 'Gift card',
      productType: 4,
      variantOptions: [{ name: 'Amount', values: ['25', '50'] }],
      variants: [
        { sku: 'gift-25', attributes: { Amount: '25' }, price: 2500, stock: { unlimited: true } },
        { sku: 'gift-50', attributes: { Amount: '50' }, price: 5000, stock: { unlimited: true } },
      ],
    },
    {
      id: 'coffee',
      collectionId: 'shop',
      slug: 'coffee',
      name: 'Coffee club',
      productType: 1,
      variants: [{ sku: 'coffee-1', price: 1500, stock: { qtyInStock: 100 } }],
      subscription: { billingPeriod: { value: 1, unit: 'MONTH' }, options: [{ id: 'monthly', price: 1400 }] },
    },
    {
      id: 'engraved',
      collectionId: 'shop',
      slug: 'engraved',
      name: 'Engraved mug',
      productType: 1,
      variants: [{ sku: 'engraved-1', price: 3900, stock: { qtyInStock: 5 } }],
      additionalFieldsFormId: 'engraving',
    },
  ],
  forms: [
    {
      id: 'engraving',
      name: 'Engraving',
      submitLabel: 'Add To Cart',
      noAnswerText: 'None',
      fields: [
        { id: 'engraving-text', kind: 'text', title: 'Engraving text', required: true },
        { id: 'lettering', kind: 'radio', title: 'Lettering', required: true, options: ['Serif', 'Sans serif'] },
        { id: 'notes', kind: 'textarea', title: 'Notes', maxLength: 20 },
      ],
    },
  ],
};

export const otherSite: SiteFileInput = {
  version: 1,
  website: { id: 'other', title: 'Other', domains: [OTHER_HOST], currency: 'EUR' },
  collections: [...collections],
  products: [
    {
      id: 'tee',
      collectionId: 'shop',
      slug: 'tee',
      name: 'Other tee',
      productType: 1,
      variants: [{ sku: 'other-tee', price: 1000, stock: { qtyInStock: 50 } }],
    },
  ],
};

/** Stores the test site as given, stock included (as `vitrine import --stock file`: tests seed it again to set stock). */
export async function seedSite(db: Kysely<Database>, input: SiteFileInput): Promise<void> {
  const validation = validateSite(input);
  if (!validation.ok) throw new Error(`test site file is invalid:\n${validation.problems.join('\n')}`);
  await replaceSite(db, validation.site, [], { stock: 'file' });
}
