import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  getAsset,
  getCollection,
  getCollectionBySlug,
  getForm,
  getPageByPath,
  getPostBySlug,
  getProduct,
  getProductBySlug,
  getProducts,
  listCollections,
  listPages,
  listPosts,
  listProducts,
} from '../../src/modules/catalog/catalog';
import { importSiteFile } from '../../src/modules/site/import';
import { forEachEngine } from '../support/engines';

const DEMO = join(import.meta.dirname, '../../sites/demo/site.json');

forEachEngine((_engine, getDb) => {
  beforeAll(async () => {
    await importSiteFile(getDb(), DEMO);
  });

  it('lists a collection’s products in file order, with variants and stock', async () => {
    const products = await listProducts(getDb(), 'demo', 'shop');
    expect(products).toHaveLength(18);
    expect(products.slice(0, 3).map((p) => p.id)).toEqual(['speckled-mug', 'stoneware-bowl', 'pour-over-dripper']);
    expect(products[0]?.variants.map((v) => [v.sku, v.stock])).toEqual([
      ['MUG-OAT', { qtyInStock: 14 }],
      ['MUG-SLA', { qtyInStock: 2 }],
      ['MUG-SAG', { qtyInStock: 0 }],
    ]);
    expect(await listProducts(getDb(), 'demo', 'journal')).toEqual([]);
    expect(await listProducts(getDb(), 'nope', 'shop')).toEqual([]);
  });

  it('reads one product by id or by slugs, with the current stock', async () => {
    const db = getDb();
    await db
      .updateTable('variants')
      .set({ qty_in_stock: 7 })
      .where('site_id', '=', 'demo')
      .where('sku', '=', 'ESP-PAIR')
      .execute();
    const byId = await getProduct(db, 'demo', 'espresso-cups');
    expect(byId?.variants).toEqual([
      { sku: 'ESP-PAIR', attributes: {}, price: 3000, salePrice: 2200, onSale: true, stock: { qtyInStock: 7 } },
    ]);
    expect(await getProductBySlug(db, 'demo', 'shop', 'espresso-cups')).toEqual(byId);
    expect(await getProductBySlug(db, 'demo', 'blog', 'espresso-cups')).toBeUndefined();
    expect(await getProduct(db, 'demo', 'nope')).toBeUndefined();
    const gift = await getProduct(db, 'demo', 'gift-card');
    expect(gift?.productType).toBe(4);
    expect(gift?.variants.map((v) => v.stock)).toEqual([{ unlimited: true }, { unlimited: true }, { unlimited: true }]);
    expect((await getProducts(db, 'demo', ['gift-card', 'nope', 'bud-vase'])).map((p) => p.id).sort()).toEqual([
      'bud-vase',
      'gift-card',
    ]);
  });

  it('reads collections, pages, posts and forms', async () => {
    const db = getDb();
    expect((await listCollections(db, 'demo')).map((c) => c.slug)).toEqual(['shop', 'blog']);
    expect(await getCollectionBySlug(db, 'demo', 'blog')).toEqual({
      id: 'journal',
      type: 'blog',
      title: 'Journal',
      slug: 'blog',
    });
    expect((await getCollection(db, 'demo', 'shop'))?.type).toBe('products');
    expect((await listPages(db, 'demo')).map((p) => p.path)).toEqual([
      '/',
      '/about',
      '/contact',
      '/coming-soon',
      '/wholesale',
    ]);
    expect((await getPageByPath(db, 'demo', '/contact'))?.blocks.at(-1)).toEqual({ type: 'form', formId: 'contact' });
    expect(await getPageByPath(db, 'demo', '/nope')).toBeUndefined();
    expect((await listPosts(db, 'demo', 'journal')).map((p) => p.slug)).toEqual([
      'glaze-notes-cobalt',
      'the-only-brew-ratio-you-need',
      'studio-open-day',
    ]);
    expect(await listPosts(db, 'demo', 'journal', 1)).toHaveLength(1);
    expect((await getPostBySlug(db, 'demo', 'blog', 'studio-open-day'))?.title).toBe('Studio open day');
    expect(await getPostBySlug(db, 'demo', 'shop', 'studio-open-day')).toBeUndefined();
    expect((await getForm(db, 'demo', 'engraving'))?.fields.map((f) => f.id)).toEqual([
      'engraving-text',
      'lettering',
      'notes',
    ]);
    expect(await getForm(db, 'demo', 'nope')).toBeUndefined();
  });

  it('serves the site’s images with their size', async () => {
    const asset = await getAsset(getDb(), 'demo', 'images/hero.jpg');
    expect(asset).toMatchObject({ path: 'images/hero.jpg', contentType: 'image/jpeg', width: 1500, height: 1500 });
    expect(asset?.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await getAsset(getDb(), 'demo', 'images/nope.jpg')).toBeUndefined();
  });
});
