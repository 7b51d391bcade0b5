import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { siteFileJsonSchema } from '../../src/modules/site/jsonSchema';
import { validateSite } from '../../src/modules/site/validate';

const ROOT = join(import.meta.dirname, '../..');

describe('site file schema', () => {
  it('is published as docs/site.schema.json, up to date (run scripts/generate-schema.ts after a change)', () => {
    expect(readFileSync(join(ROOT, 'docs/site.schema.json'), 'utf8')).toBe(siteFileJsonSchema());
  });

  it('accepts the demo site, and so does the published JSON Schema', () => {
    const demo: unknown = JSON.parse(readFileSync(join(ROOT, 'sites/demo/site.json'), 'utf8'));
    const result = validateSite(demo);
    expect(result.ok ? [] : result.problems).toEqual([]);
    // ajv comes with Fastify; it checks the JSON Schema as editors and other tools will read it.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const check = ajv.compile(JSON.parse(siteFileJsonSchema()) as object);
    expect(check(demo) ? [] : check.errors).toEqual([]);
    expect(check({ version: 1, website: { id: 'x', title: 'X' }, products: [{ id: 'p' }] })).toBe(false);
  });

  it('lists shape and reference problems together, by JSON path', () => {
    const result = validateSite({
      version: 2,
      website: { id: 'Shop', title: 'Shop', currency: 'XXX', surprise: true },
      collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
      products: [
        {
          id: 'mug',
          collectionId: 'shop',
          slug: 'mug',
          name: 'Mug',
          productType: 9,
          variants: [{ sku: 'M', price: 10.5, stock: { qtyInStock: -1 } }],
        },
        {
          id: 'bowl',
          collectionId: 'shop',
          slug: 'bowl',
          name: 'Bowl',
          productType: 1,
          additionalFieldsFormId: 'nope',
          variantOptions: [{ name: 'Size', values: ['S'] }],
          variants: [{ sku: 'B', attributes: { Size: 'XL' }, price: 100, salePrice: 200, stock: { unlimited: true } }],
        },
      ],
      forms: [{ id: 'f', name: 'F', fields: [{ id: 'a', kind: 'colour', title: 'A' }] }],
      pages: [
        {
          id: 'home',
          path: '/',
          title: 'Home',
          blocks: [
            { type: 'form', formId: 'f' },
            { type: 'product', productId: 'cup' },
          ],
        },
        { id: 'shop', path: '/shop', title: 'Shop' },
      ],
    });
    expect(result.ok ? [] : result.problems).toEqual([
      'version: must be 1',
      'website.id: must be 1-64 lower-case letters, digits or dashes, starting with a letter or digit',
      "website.currency: must be one of 'EUR', 'USD', 'AUD', 'NOK', 'CAD', 'NZD', 'DKK', 'GBP', 'HKD', 'CHF', 'MXN', 'SGD', 'SEK', 'CZK', 'ILS', 'PHP', 'RUB', 'PLN', 'THB', 'MYR', 'ARS', 'BRL', 'COP', 'IDR', 'INR', 'JPY', 'ZAR'",
      "website: unknown key 'surprise'",
      `products[0] (id 'mug', "Mug").productType: must be one of 1, 2, 3, 4, 5`,
      `products[0] (id 'mug', "Mug").variants[0].price: must be a whole number of minor units (cents)`,
      `products[0] (id 'mug', "Mug").variants[0].stock.qtyInStock: must be at least 0`,
      `forms[0] (id 'f', "F").fields[0].kind: must be one of 'text', 'textarea', 'email', 'url', 'number', 'date', 'time', 'name', 'address', 'phone', 'checkbox', 'radio', 'select', 'likert', 'hidden'`,
      `products[1] (id 'bowl', "Bowl").additionalFieldsFormId: form 'nope' does not exist`,
      `products[1] (id 'bowl', "Bowl").variants[0].salePrice: must not be above price`,
      `products[1] (id 'bowl', "Bowl").variants[0].attributes.Size: 'XL' is not a value of option 'Size'`,
      `pages[1] (id 'shop', "Shop").path: '/shop' collides with collection '/shop'`,
      `pages[0] (id 'home', "Home").blocks[1].productId: product 'cup' does not exist`,
    ]);
  });

  it("checks that a product image's attributes name the product's options and their values", () => {
    const result = validateSite({
      version: 1,
      website: { id: 'shop', title: 'Shop' },
      collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
      products: [
        {
          id: 'mug',
          collectionId: 'shop',
          slug: 'mug',
          name: 'Mug',
          productType: 1,
          variantOptions: [{ name: 'Color', values: ['Slate', 'Sage'] }],
          variants: [
            { sku: 'SLA', attributes: { Color: 'Slate' }, price: 100, stock: { qtyInStock: 1 } },
            { sku: 'SAG', attributes: { Color: 'Sage' }, price: 100, stock: { qtyInStock: 1 } },
          ],
          images: [
            { file: 'images/slate.jpg', attributes: { Color: 'Slate' } },
            { file: 'images/red.jpg', attributes: { Color: 'Red' } },
            { file: 'images/large.jpg', attributes: { Size: 'L' } },
          ],
        },
      ],
    });
    expect(result.ok ? [] : result.problems).toEqual([
      `products[0] (id 'mug', "Mug").images[1].attributes.Color: 'Red' is not a value of option 'Color'`,
      `products[0] (id 'mug', "Mug").images[2].attributes.Size: 'Size' is not a variant option of this product`,
    ]);
  });

  it('does not report a reference to a record that is itself invalid as missing', () => {
    const result = validateSite({
      version: 1,
      website: { id: 'shop', title: 'Shop' },
      forms: [{ id: 'contact', name: 'Contact', fields: [] }],
      pages: [{ id: 'home', path: '/', title: 'Home', blocks: [{ type: 'form', formId: 'contact' }] }],
    });
    expect(result.ok ? [] : result.problems).toEqual([
      `forms[0] (id 'contact', "Contact").fields: must have at least 1 item`,
    ]);
  });
});
