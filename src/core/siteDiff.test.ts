import { describe, expect, it } from 'vitest';
import {
  describeSiteDiff,
  describeThingChange,
  isEmptyDiff,
  siteDiff,
  summarizeFirstVersion,
  summarizeSiteDiff,
  type SiteForDiff,
} from './siteDiff';

const mug = {
  id: 'mug',
  name: 'Speckled Mug',
  slug: 'speckled-mug',
  description: '<p>A mug.</p>',
  variants: [
    { sku: 'MUG-S', attributes: { Size: 'Small' }, price: 2400, onSale: false, stock: { qtyInStock: 5 } },
    { sku: 'MUG-L', attributes: { Size: 'Large' }, price: 2800, onSale: false, stock: { unlimited: true } },
  ],
  images: [{ file: 'images/mug.jpg', altText: '' }],
};

const base: SiteForDiff = {
  website: { id: 'shop', title: 'Shop', currency: 'USD', store: { minimumSubtotal: 0 } },
  collections: [{ id: 'shop', title: 'Shop', slug: 'shop', type: 'products' }],
  products: [mug, { id: 'bowl', name: 'Bowl', variants: [{ sku: 'BOWL', price: 1000, stock: { qtyInStock: 1 } }] }],
  forms: [{ id: 'contact', name: 'Contact', fields: [{ kind: 'text', label: 'Name' }] }],
  pages: [
    { id: 'home', title: 'Home', path: '/', blocks: [{ type: 'heading', text: 'Welcome' }] },
    { id: 'about', title: 'About', path: '/about', blocks: [{ type: 'image', image: { file: 'images/shop.jpg' } }] },
  ],
  posts: [{ id: 'hello', title: 'Hello', body: 'First post' }],
};

const edit = (change: (site: SiteForDiff) => void): SiteForDiff => {
  const copy = structuredClone(base) as SiteForDiff;
  change(copy);
  return copy;
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const products = (site: SiteForDiff) => site.products as unknown as Mutable<Record<string, unknown>>[];

describe('siteDiff: what changed between two versions, in words', () => {
  it('finds nothing between a version and itself', () => {
    const diff = siteDiff(base, structuredClone(base) as SiteForDiff);
    expect(isEmptyDiff(diff)).toBe(true);
    expect(summarizeSiteDiff(diff)).toBe('No changes');
    expect(describeSiteDiff(diff)).toEqual([]);
  });

  it('ignores live stock: a variant sold in between is not a change', () => {
    const after = edit((s) => {
      const variants = products(s)[0]!.variants as { stock: unknown }[];
      variants[0]!.stock = { qtyInStock: 1 };
      variants[1]!.stock = { qtyInStock: 3 };
    });
    expect(isEmptyDiff(siteDiff(base, after))).toBe(true);
  });

  it('names a changed product by name and id, with which fields changed', () => {
    const after = edit((s) => {
      const p = products(s)[0]!;
      p.name = 'Speckled Mug II';
      p.description = '<p>A better mug.</p>';
      (p.variants as { price: number }[])[0]!.price = 2500;
    });
    const diff = siteDiff(base, after);
    expect(diff.things).toEqual([
      {
        kind: 'product',
        id: 'mug',
        name: 'Speckled Mug II',
        change: 'changed',
        fields: ['name', 'description', 'price'],
      },
    ]);
    expect(describeSiteDiff(diff)).toEqual(['Product “Speckled Mug II” (mug): name, description, price changed']);
    expect(summarizeSiteDiff(diff)).toBe('Product “Speckled Mug II”: name, description, price');
  });

  it('tells a sale price and a sale flag as the price', () => {
    const after = edit((s) => {
      const variant = (products(s)[0]!.variants as Record<string, unknown>[])[1]!;
      variant.salePrice = 2000;
      variant.onSale = true;
    });
    expect(siteDiff(base, after).things[0]!.fields).toEqual(['price']);
  });

  it('tells added, removed, reordered and re-attributed variants as the variants', () => {
    const added = edit((s) => {
      (products(s)[0]!.variants as unknown[]).push({ sku: 'MUG-XL', price: 3000, stock: { qtyInStock: 1 } });
    });
    expect(siteDiff(base, added).things[0]!.fields).toEqual(['variants']);
    const removed = edit((s) => {
      (products(s)[0]!.variants as unknown[]).pop();
    });
    expect(siteDiff(base, removed).things[0]!.fields).toEqual(['variants']);
    const reordered = edit((s) => {
      (products(s)[0]!.variants as unknown[]).reverse();
    });
    expect(siteDiff(base, reordered).things[0]!.fields).toEqual(['variants']);
    const renamedSku = edit((s) => {
      (products(s)[0]!.variants as { sku: string }[])[1]!.sku = 'MUG-LARGE';
    });
    expect(siteDiff(base, renamedSku).things[0]!.fields).toEqual(['variants']);
    const attributes = edit((s) => {
      (products(s)[0]!.variants as { attributes: unknown }[])[0]!.attributes = { Size: 'Tiny' };
    });
    expect(siteDiff(base, attributes).things[0]!.fields).toEqual(['variants']);
  });

  it('says fields in the owner’s words (collection, options, add-ons …)', () => {
    const after = edit((s) => {
      const p = products(s)[1]!;
      p.collectionId = 'other';
      p.variantOptions = [{ name: 'Size', values: ['S'] }];
      p.addOnProductIds = ['mug'];
      p.seoTitle = 'Bowl!';
    });
    expect(siteDiff(base, after).things[0]!.fields).toEqual(['collection', 'options', 'add-ons', 'seoTitle']);
  });

  it('lists added and removed things of every kind, named by name or title', () => {
    const after = edit((s) => {
      products(s).splice(1, 1);
      (s.products as unknown as unknown[]).push({ id: 'vase', name: 'Vase', variants: [] });
      (s.pages as unknown as unknown[]).splice(1, 1);
      (s.posts as unknown as unknown[]).push({ id: 'untitled' });
      (s.forms as unknown as unknown[]).splice(0, 1);
      (s.collections as unknown as unknown[]).push({ id: 'blog', title: 'Journal', slug: 'journal', type: 'blog' });
    });
    const diff = siteDiff(base, after);
    expect(describeSiteDiff(diff)).toEqual([
      'Product “Vase” (vase) added',
      'Product “Bowl” (bowl) removed',
      'Collection “Journal” (blog) added',
      'Page “About” (about) removed',
      'Post “untitled” (untitled) added',
      'Form “Contact” (contact) removed',
    ]);
    expect(summarizeSiteDiff(diff)).toBe(
      '1 product added; 1 product removed; 1 collection added; 1 page removed; 1 post added; 1 form removed',
    );
  });

  it('counts many changes of a kind rather than naming each', () => {
    const after = edit((s) => {
      for (let i = 0; i < 4; i++)
        (s.products as unknown as unknown[]).push({ id: `p${i}`, name: `P${i}`, variants: [] });
      products(s)[0]!.name = 'Renamed';
      products(s)[1]!.name = 'Renamed too';
    });
    expect(summarizeSiteDiff(siteDiff(base, after))).toBe('4 products added; 2 products changed');
  });

  it('tells changed blocks, page fields and posts', () => {
    const after = edit((s) => {
      const home = (s.pages as unknown as Record<string, unknown>[])[0]!;
      home.blocks = [{ type: 'heading', text: 'Hello' }];
      home.showInNavigation = false;
      (s.posts as unknown as Record<string, unknown>[])[0]!.body = 'Edited';
      (s.forms as unknown as Record<string, unknown>[])[0]!.submitLabel = 'Send';
      (s.collections as unknown as Record<string, unknown>[])[0]!.title = 'Store';
    });
    expect(describeSiteDiff(siteDiff(base, after))).toEqual([
      'Collection “Store” (shop): title changed',
      'Page “Home” (home): blocks, navigation changed',
      'Post “Hello” (hello): body changed',
      'Form “Contact” (contact): submit label changed',
    ]);
  });

  it('sees the same things in another order (the navigation) and changed website settings', () => {
    const after = edit((s) => {
      (s.pages as unknown as unknown[]).reverse();
      const website = s.website as Record<string, unknown>;
      website.title = 'The Shop';
      website.store = { minimumSubtotal: 500 };
      website.timeZone = 'Europe/Paris';
      delete website.currency;
    });
    const diff = siteDiff(base, after);
    expect(diff.reordered).toEqual(['page']);
    expect(diff.things).toEqual([]);
    expect(describeSiteDiff(diff)).toEqual([
      'Website settings: title, currency, store settings, time zone changed',
      'Pages reordered',
    ]);
    expect(summarizeSiteDiff(diff)).toBe('Pages reordered; settings: title, currency, store settings, time zone');
  });

  it('sees an image replaced under the same path by its hash, for products, blocks and posts', () => {
    const images = {
      from: { 'images/mug.jpg': 'aaa', 'images/shop.jpg': 'bbb' },
      to: { 'images/mug.jpg': 'ccc', 'images/shop.jpg': 'ddd' },
    };
    const diff = siteDiff(base, structuredClone(base) as SiteForDiff, images);
    expect(describeSiteDiff(diff)).toEqual([
      'Product “Speckled Mug” (mug): images changed',
      'Page “About” (about): images changed',
    ]);
    const removedImage = edit((s) => {
      products(s)[0]!.images = [];
    });
    expect(siteDiff(base, removedImage, images).things[0]!.fields).toEqual(['images']);
    const postImage = edit((s) => {
      (s.posts as unknown as Record<string, unknown>[])[0]!.image = { file: 'images/post.jpg' };
    });
    expect(siteDiff(base, postImage, { from: {}, to: { 'images/post.jpg': 'eee' } }).things[0]!.fields).toEqual([
      'image',
    ]);
  });

  it('describes a single change of each sort', () => {
    expect(describeThingChange({ kind: 'form', id: 'f', name: 'F', change: 'added', fields: [] })).toBe(
      'Form “F” (f) added',
    );
  });

  it('summarizes a first version by what it holds', () => {
    expect(summarizeFirstVersion(base)).toBe('First version: 2 products, 1 collection, 2 pages, 1 post, 1 form');
  });

  it('treats records without variants or with odd values without failing', () => {
    const from: SiteForDiff = { ...base, products: [{ id: 'x', name: '', variants: 'none' }] };
    const to: SiteForDiff = {
      ...base,
      products: [{ id: 'x', name: '', variants: [null], images: [[{ file: 'a.jpg' }]] }],
    };
    const diff = siteDiff(from, to, { from: { 'a.jpg': '1' }, to: { 'a.jpg': '2' } });
    expect(diff.things).toEqual([
      { kind: 'product', id: 'x', name: 'x', change: 'changed', fields: ['images', 'variants'] },
    ]);
  });

  it('takes the products the caller knows to be the same as they are, even given as their id alone', () => {
    const from = { ...base, products: [{ id: 'mug' }, base.products[1]!] };
    const to = edit((s) => {
      products(s)[1]!.name = 'Big Bowl';
    });
    expect(describeSiteDiff(siteDiff(from, to, undefined, new Set(['mug'])))).toEqual([
      'Product “Big Bowl” (bowl): name changed',
    ]);
  });
});
