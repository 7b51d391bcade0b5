/**
 * Add-on and related products (issue 10; spec §2, §4, §7) on SQLite and PostgreSQL: the site file's
 * `addOnProductIds` / `relatedProductIds` refused with a message naming what is wrong (and nothing stored), the
 * product page's "Add-ons" list (compact add buttons in real forms, 'Choose' links for products that need a choice,
 * sold-out ones left out) and its "You may also like" cards (named, or the next ones of the collection in stock,
 * wrapping around), stock read at render, and an add-on added through its form without JavaScript.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { getSite } from '../../src/modules/site/sites';
import { importSite, SiteFileError } from '../../src/modules/site/import';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { seedSite } from '../support/cartSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const HOST = 'addons.test';
type Products = NonNullable<SiteFileInput['products']>;
const simple = (
  id: string,
  name: string,
  price: number,
  stock: { qtyInStock: number } | { unlimited: true } = { qtyInStock: 10 },
  extra: Partial<Products[number]> = {},
): Products[number] => ({
  id,
  collectionId: 'shop',
  slug: id,
  name,
  productType: 1,
  variants: [{ sku: id.toUpperCase(), price, stock }],
  ...extra,
});

/** The shop's order is the site file's: dripper, scoop, beans, sold, guide, gift, kettle; the towel is in 'kitchen'. */
const addOnSite = (stock: Record<string, number> = {}): SiteFileInput => ({
  version: 1,
  website: { id: 'addons', title: 'Add-on shop', domains: [HOST], default: true, currency: 'USD' },
  collections: [
    { id: 'shop', type: 'products', title: 'Shop', slug: 'shop' },
    { id: 'kitchen', type: 'products', title: 'Kitchen', slug: 'kitchen' },
  ],
  products: [
    {
      id: 'dripper',
      collectionId: 'shop',
      slug: 'dripper',
      name: 'Pour-over dripper',
      productType: 1,
      variantOptions: [{ name: 'Colour', values: ['White', 'Black'] }],
      variants: [
        { sku: 'DRIP-W', attributes: { Colour: 'White' }, price: 3200, stock: { qtyInStock: 5 } },
        { sku: 'DRIP-B', attributes: { Colour: 'Black' }, price: 3200, stock: { qtyInStock: 5 } },
      ],
      addOnProductIds: ['scoop', 'beans', 'sold', 'guide', 'gift', 'towel'],
    },
    simple('scoop', 'Walnut scoop', 1800, { qtyInStock: stock.SCOOP ?? 40 }),
    {
      id: 'beans',
      collectionId: 'shop',
      slug: 'beans',
      name: 'House beans',
      productType: 1,
      variantOptions: [{ name: 'Size', values: ['250 g', '1 kg'] }],
      variants: [
        { sku: 'BEANS-250', attributes: { Size: '250 g' }, price: 1400, stock: { unlimited: true } },
        { sku: 'BEANS-1K', attributes: { Size: '1 kg' }, price: 4200, stock: { unlimited: true } },
      ],
    },
    simple('sold', 'Paper filters', 600, { qtyInStock: 0 }),
    simple('guide', 'Brewing guide', 900, { unlimited: true }, { productType: 2 }),
    {
      id: 'gift',
      collectionId: 'shop',
      slug: 'gift',
      name: 'Gift card',
      productType: 4,
      variants: [{ sku: 'GIFT-25', price: 2500, stock: { unlimited: true } }],
    },
    simple('kettle', 'Gooseneck kettle', 6500, { qtyInStock: 3 }, { relatedProductIds: ['towel', 'sold', 'scoop'] }),
    simple('towel', 'Linen towel', 1600, { qtyInStock: 8 }, { collectionId: 'kitchen', relatedProductIds: [] }),
  ],
});

/** Posts as a browser without JavaScript does: the crumb in its cookie and its hidden field, the page as Referer. */
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A page's section by its class, or '' when it has none. */
const section = (html: string, className: string) =>
  new RegExp(`<section class="${className}"[\\s\\S]*?</section>`).exec(html)?.[0] ?? '';
const decode = (text: string) => text.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&#x27;', "'");
const islandProps = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`data-island="${name}" data-island-id="[^"]*" data-props="([^"]*)"`, 'g'))].map(
    (m) => JSON.parse(decode(m[1]!)) as Record<string, unknown>,
  );

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), addOnSite());
    app = await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await seedSite(getDb(), addOnSite());
    await getDb().deleteFrom('cart_entries').execute();
    await getDb().deleteFrom('carts').execute();
  });

  const page = async (path: string) => {
    const response = await app.inject({ method: 'GET', url: path, headers: { host: HOST, accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  describe('the site file', () => {
    const refused = async (edit: (products: Products) => void) => {
      const site = addOnSite();
      edit(site.products!);
      const before = (await getSite(getDb(), 'addons'))!.version;
      const error = await importSite(getDb(), JSON.stringify(site), '.').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SiteFileError);
      // Nothing stored: the site is the one imported before.
      expect((await getSite(getDb(), 'addons'))!.version).toBe(before);
      return (error as SiteFileError).problems;
    };
    const product = (products: Products, id: string) => products.find((p) => p.id === id)!;

    it('refuses add-ons that do not exist, repeat, or name the product itself, each by its path', async () => {
      const problems = await refused((products) => {
        product(products, 'dripper').addOnProductIds = ['dripper', 'nope', 'scoop', 'scoop'];
      });
      expect(problems).toEqual([
        `products[0] (id 'dripper', "Pour-over dripper").addOnProductIds[0]: a product cannot be its own add-on`,
        `products[0] (id 'dripper', "Pour-over dripper").addOnProductIds[1]: product 'nope' does not exist`,
        `products[0] (id 'dripper', "Pour-over dripper").addOnProductIds[3]: add-on 'scoop' is named twice`,
      ]);
    });

    it('refuses related products the same way, and more than 6 add-ons or 8 related products', async () => {
      expect(
        await refused((products) => {
          product(products, 'kettle').relatedProductIds = ['kettle', 'towel', 'ghost', 'towel'];
        }),
      ).toEqual([
        `products[6] (id 'kettle', "Gooseneck kettle").relatedProductIds[0]: a product cannot be its own related product`,
        `products[6] (id 'kettle', "Gooseneck kettle").relatedProductIds[2]: product 'ghost' does not exist`,
        `products[6] (id 'kettle', "Gooseneck kettle").relatedProductIds[3]: related product 'towel' is named twice`,
      ]);
      expect(
        await refused((products) => {
          product(products, 'dripper').addOnProductIds = ['scoop', 'beans', 'sold', 'guide', 'gift', 'towel', 'kettle'];
          product(products, 'kettle').relatedProductIds = [
            'dripper',
            'scoop',
            'beans',
            'sold',
            'guide',
            'gift',
            'towel',
            'a',
            'b',
          ];
        }),
      ).toEqual([
        `products[0] (id 'dripper', "Pour-over dripper").addOnProductIds: must name at most 6 add-ons`,
        `products[6] (id 'kettle', "Gooseneck kettle").relatedProductIds: must name at most 8 related products`,
      ]);
      expect(
        await refused((products) => {
          product(products, 'dripper').addOnProductIds = ['Scoop'];
        }),
      ).toContain(
        `products[0] (id 'dripper', "Pour-over dripper").addOnProductIds[0]: must be 1-64 lower-case letters, digits or dashes, starting with a letter or digit`,
      );
    });
  });

  describe('the product page', () => {
    it('lists the add-ons in the order named under the buying area, without sold-out ones', async () => {
      const html = await page('/shop/p/dripper');
      const addOns = section(html, 'add-ons');
      expect(addOns).toContain('<h2 id="add-ons-title" class="add-ons__title">Add-ons</h2>');
      expect(html.indexOf('data-island="ProductPurchase"')).toBeLessThan(html.indexOf('<section class="add-ons"'));
      const names = [...addOns.matchAll(/<a class="add-on__name" href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [
        m[1],
        m[2],
      ]);
      expect(names).toEqual([
        ['/shop/p/scoop', 'Walnut scoop'],
        ['/shop/p/beans', 'House beans'],
        ['/shop/p/guide', 'Brewing guide'],
        ['/shop/p/gift', 'Gift card'],
        ['/kitchen/p/towel', 'Linen towel'],
      ]);
      expect(addOns).not.toContain('Paper filters');
      expect(addOns).toContain('$18.00');
      expect(addOns).toContain('$14.00 – $42.00');
    });

    it('gives products with one variant a compact add button in a real form, and the others a Choose link', async () => {
      const addOns = section(await page('/shop/p/dripper'), 'add-ons');
      // The add buttons: islands (loaded on their own), each a form posting to /cart/add with its SKU.
      expect(islandProps(addOns, 'AddOnButton').map((p) => (p.product as { id: string }).id)).toEqual([
        'scoop',
        'guide',
        'towel',
      ]);
      const forms = [
        ...addOns.matchAll(/<form class="add-to-cart-form" action="\/cart\/add" method="post">([\s\S]*?)<\/form>/g),
      ].map((m) => m[1]!);
      expect(forms).toHaveLength(3);
      expect(forms[0]).toContain('name="itemId" value="scoop"');
      expect(forms[0]).toContain('name="sku" value="SCOOP"');
      expect(forms[0]).toMatch(
        /<button type="submit" class="add-on__button add-on__button--idle" aria-label="Add Walnut scoop">/,
      );
      expect(forms[0]).toContain('<svg class="add-on__icon"');
      expect(forms[2]).toContain('aria-label="Add Linen towel"');
      // Options and gift cards are chosen on their own page.
      expect(addOns).toContain(
        '<a class="add-on__button add-on__button--choose" href="/shop/p/beans" aria-label="Choose House beans">Choose</a>',
      );
      expect(addOns).toContain(
        '<a class="add-on__button add-on__button--choose" href="/shop/p/gift" aria-label="Choose Gift card">Choose</a>',
      );
      // A polite status for the outcome.
      expect(addOns.match(/role="status"/g)).toHaveLength(3);
    });

    it('shows the next 4 products of the collection in stock under the page, as cards with their add buttons', async () => {
      const html = await page('/shop/p/dripper');
      const related = section(html, 'related-products');
      expect(html.indexOf('</article>')).toBeLessThan(html.indexOf('<section class="related-products"'));
      expect(related).toContain(
        '<h2 id="related-products-title" class="related-products__title">You may also like</h2>',
      );
      const cards = [
        ...related.matchAll(
          /<h3 class="product-card__name"><a href="([^"]+)" class="product-card__link">([^<]+)<\/a><\/h3>/g,
        ),
      ].map((m) => m[2]);
      expect(cards).toEqual(['Walnut scoop', 'House beans', 'Brewing guide', 'Gift card']);
      // Their add buttons name the page's product for §7's RelatedProductAdd; the tracker knows the cards.
      expect(islandProps(related, 'GridAddToCart').map((p) => [(p.product as { id: string }).id, p.relatedTo])).toEqual(
        [
          ['scoop', 'dripper'],
          ['beans', 'dripper'],
          ['guide', 'dripper'],
          ['gift', 'dripper'],
        ],
      );
      expect(islandProps(related, 'RelatedProductsTracking')).toEqual([
        { productId: 'dripper', itemIds: ['scoop', 'beans', 'guide', 'gift'] },
      ]);
    });

    it('wraps around to the collection’s first products after the last ones', async () => {
      const related = section(await page('/shop/p/guide'), 'related-products');
      const cards = [...related.matchAll(/class="product-card__link">([^<]+)</g)].map((m) => m[1]);
      expect(cards).toEqual(['Gift card', 'Gooseneck kettle', 'Pour-over dripper', 'Walnut scoop']);
    });

    it('shows named related products in their order (from any collection, without sold-out ones), and none for []', async () => {
      const related = section(await page('/shop/p/kettle'), 'related-products');
      expect(
        [...related.matchAll(/<a href="([^"]+)" class="product-card__link">([^<]+)</g)].map((m) => [m[1], m[2]]),
      ).toEqual([
        ['/kitchen/p/towel', 'Linen towel'],
        ['/shop/p/scoop', 'Walnut scoop'],
      ]);
      const towel = await page('/kitchen/p/towel');
      expect(towel).not.toContain('related-products');
      expect(towel).not.toContain('You may also like');
      // No add-ons named: no list.
      expect(towel).not.toContain('add-ons');
    });

    it('reads stock at render: a sold-out add-on and related product leave both lists', async () => {
      await seedSite(getDb(), addOnSite({ SCOOP: 0 }));
      const html = await page('/shop/p/dripper');
      expect(section(html, 'add-ons')).not.toContain('Walnut scoop');
      expect(
        [...section(html, 'related-products').matchAll(/class="product-card__link">([^<]+)</g)].map((m) => m[1]),
      ).toEqual(['House beans', 'Brewing guide', 'Gift card', 'Gooseneck kettle']);
    });
  });

  describe('adding an add-on without JavaScript', () => {
    it('its form adds it to the cart and comes back to the product page with §2’s text', async () => {
      const post: LightMyRequestResponse = await app.inject({
        method: 'POST',
        url: '/cart/add',
        headers: {
          host: HOST,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `crumb=${TEST_CRUMB}`,
          origin: `http://${HOST}`,
          referer: `http://${HOST}/shop/p/dripper`,
        },
        payload: formBody({ crumb: TEST_CRUMB, itemId: 'scoop', sku: 'SCOOP' }),
      });
      expect(post.statusCode).toBe(303);
      expect(post.headers.location).toBe('/shop/p/dripper#cart-notice');
      const cart = post.cookies.find((c) => c.name === 'CART')?.value;
      expect(cart).toBeDefined();
      const back = await app.inject({
        method: 'GET',
        url: '/shop/p/dripper',
        headers: {
          host: HOST,
          accept: 'text/html',
          cookie: post.cookies
            .map((c) => `${c.name}=${c.value}`)
            .concat(`crumb=${TEST_CRUMB}`)
            .join('; '),
        },
      });
      expect(back.body.replaceAll('<!-- -->', '')).toContain('Walnut scoop was added to your cart.');
      const entries = await getDb().selectFrom('cart_entries').select(['item_id', 'sku', 'quantity']).execute();
      expect(entries).toEqual([{ item_id: 'scoop', sku: 'SCOOP', quantity: 1 }]);
    });
  });
});
