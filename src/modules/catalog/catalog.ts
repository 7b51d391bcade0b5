/**
 * Catalog reads for the page renderer and the cart: collections, products with their variants (and current stock),
 * pages, posts, forms, images. Each function is one or two queries; lists load all their variants in one query.
 * Records come back as the site file's types (src/modules/site/schema.ts).
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { utcTime } from '../../core/publishing';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';
import type { Database } from '../../platform/db/tables';
import type { ProductRow, VariantRow } from './tables';
import type { Collection, Form, Page, Post, Product, Variant } from '../site';
import type { SiteAsset } from '../site';

type Db = Kysely<Database>;

/**
 * The storefront's reads see what is live at `liveAt` (issue 26, src/core/publishing.ts): published pages, posts and
 * products, and scheduled ones whose time has come; drafts and those needing review never. Every read below takes it
 * last, the instant now by default; a staff member's preview passes EVERYTHING.
 */
const now = (): string => utcTime(Date.now());

/** `live_from IS NULL OR live_from <= liveAt` of the table (or alias) `table`. */
export const liveAtCondition =
  (table: 'products' | 'pages' | 'posts' | 'p', liveAt: string) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table varies; the column is every table's.
  (eb: ExpressionBuilder<any, any>) => {
    const column = sql.ref<string | null>(`${table}.live_from`);
    return eb.or([eb(column, 'is', null), eb(column, '<=', liveAt)]);
  };

export function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

export function variantFromRow(row: VariantRow): Variant {
  return {
    sku: row.sku,
    attributes: JSON.parse(row.data) as Record<string, string>,
    price: row.price,
    ...(row.sale_price === null ? {} : { salePrice: row.sale_price }),
    onSale: row.on_sale === 1,
    stock: row.unlimited === 1 ? { unlimited: true } : { qtyInStock: row.qty_in_stock },
  };
}

/**
 * A product's stored record (products.data) as parsed: the product without its variants, and its variants' weights by
 * SKU (`variantWeights`, only when one has a weight) — variants.data holds a variant's attributes alone, which the cart
 * and the inventory read as such.
 */
export type StoredProductRecord = Omit<Product, 'variants'> & { variantWeights?: Readonly<Record<string, number>> };

/** The text of a product's stored record (products.data): see `StoredProductRecord`. */
export function productRecordText(product: Omit<Product, 'variants'>, variants: readonly Variant[]): string {
  const weights = variants.flatMap((v) => (v.weight === undefined ? [] : [[v.sku, v.weight] as const]));
  return JSON.stringify(weights.length ? { ...product, variantWeights: Object.fromEntries(weights) } : product);
}

/** The variants of stored rows (in any order: sorted by position here) with their weights from the product's record. */
function variantsOf(rows: readonly VariantRow[], weights: StoredProductRecord['variantWeights']): Variant[] {
  return [...rows]
    .sort((a, b) => a.position - b.position)
    .map((row) => {
      const variant = variantFromRow(row);
      const weight = weights?.[row.sku];
      return weight === undefined ? variant : { ...variant, weight };
    });
}

/** The stored product with its variants (rows in any order; sorted by position here). */
export function productFromRows(row: Pick<ProductRow, 'data'>, variants: VariantRow[]): Product {
  const { variantWeights, ...product } = JSON.parse(row.data) as StoredProductRecord;
  return { ...product, variants: variantsOf(variants, variantWeights) };
}

async function withVariants(db: Db, siteId: string, rows: ProductRow[]): Promise<Product[]> {
  if (rows.length === 0) return [];
  const variants = await db
    .selectFrom('variants')
    .selectAll()
    .where('site_id', '=', siteId)
    .where(
      'product_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const byProduct = groupBy(variants, (v) => v.product_id);
  return rows.map((r) => productFromRows(r, byProduct.get(r.id) ?? []));
}

/** Products per page of a product list (/{collection}, /{collection}/page/N) and most a grid block shows. */
export const PRODUCT_LIST_PAGE_SIZE = 48;

/** The products of a collection, in the site file's order; `range` reads one slice of them (a page). */
export async function listProducts(
  db: Db,
  siteId: string,
  collectionId: string,
  range?: { offset: number; limit: number },
  liveAt: string = now(),
): Promise<Product[]> {
  let query = db
    .selectFrom('products')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('collection_id', '=', collectionId)
    .where(liveAtCondition('products', liveAt))
    .orderBy('position');
  if (range) query = query.limit(range.limit).offset(range.offset);
  return withVariants(db, siteId, await query.execute());
}

/**
 * A product and at most `limit` products after it in its collection, in the site file's order (the related products'
 * default candidates, src/core/relatedProducts.ts); empty when it is not in that collection.
 */
export async function listProductsFrom(
  db: Db,
  siteId: string,
  collectionId: string,
  productId: string,
  limit: number,
  liveAt: string = now(),
): Promise<Product[]> {
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('collection_id', '=', collectionId)
    .where(liveAtCondition('products', liveAt))
    .where('position', '>=', (eb) =>
      eb
        .selectFrom('products')
        .select('position')
        .where('site_id', '=', siteId)
        .where('collection_id', '=', collectionId)
        .where('id', '=', productId),
    )
    .orderBy('position')
    .limit(limit + 1)
    .execute();
  return withVariants(db, siteId, rows);
}

/** How many products a collection holds. */
export async function countProducts(
  db: Db,
  siteId: string,
  collectionId: string,
  liveAt: string = now(),
): Promise<number> {
  const row = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('site_id', '=', siteId)
    .where('collection_id', '=', collectionId)
    .where(liveAtCondition('products', liveAt))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Several products by id (e.g. a cart's items), in no particular order; unknown (and not live) ids are left out. */
export async function getProducts(
  db: Db,
  siteId: string,
  productIds: readonly string[],
  liveAt: string = now(),
): Promise<Product[]> {
  if (productIds.length === 0) return [];
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', 'in', [...new Set(productIds)])
    .where(liveAtCondition('products', liveAt))
    .execute();
  return withVariants(db, siteId, rows);
}

export async function getProduct(
  db: Db,
  siteId: string,
  productId: string,
  liveAt: string = now(),
): Promise<Product | undefined> {
  return (await getProducts(db, siteId, [productId], liveAt))[0];
}

/** The product row joined with each of its variants' rows (one row with no variant columns when it has none). */
const selectProductWithVariants = compiledQuery((db, v: { siteId: string; productId: string; liveAt: string }) =>
  db
    .selectFrom('products as p')
    .leftJoin('variants as v', (join) => join.onRef('v.site_id', '=', 'p.site_id').onRef('v.product_id', '=', 'p.id'))
    .select([
      'p.data as product_data',
      'v.sku',
      'v.product_id',
      'v.position',
      'v.price',
      'v.sale_price',
      'v.on_sale',
      'v.unlimited',
      'v.qty_in_stock',
      'v.data',
    ])
    .where('p.site_id', '=', v.siteId)
    .where('p.id', '=', v.productId)
    .where(liveAtCondition('p', v.liveAt)),
);

/** A product as getProduct reads it, with the stored text of its record and its variants' rows. */
export interface ProductWithRows {
  product: Product;
  /** The product's stored record (products.data). */
  record: string;
  variants: VariantRow[];
}

/**
 * getProduct's product in one statement rather than two (what an add to cart reads inside its transaction, issue 13),
 * with the stored rows it was made from: a cart line shows the record's name and the variant's attributes as stored.
 * The product's record is parsed once per stored text (see parsedRecord): its parts are shared and frozen.
 */
export async function getProductWithRows(
  db: Db,
  siteId: string,
  productId: string,
  liveAt: string = now(),
): Promise<ProductWithRows | undefined> {
  const { rows } = await selectProductWithVariants.execute(db, { siteId, productId, liveAt });
  const first = rows[0];
  if (first === undefined) return undefined;
  const variants: VariantRow[] = [];
  for (const { sku, product_id, position, price, sale_price, on_sale, unlimited, qty_in_stock, data } of rows) {
    // The join's columns are all null (no variant) or, NOT NULL columns of a variant, all set.
    if (sku === null) continue;
    variants.push({
      site_id: siteId,
      sku,
      product_id: product_id!,
      position: position!,
      price: price!,
      sale_price,
      on_sale: on_sale!,
      unlimited: unlimited!,
      qty_in_stock: qty_in_stock!,
      data: data!,
    });
  }
  const { variantWeights, ...record } = parsedRecord(siteId, productId, first.product_data);
  const product: Product = { ...record, variants: variantsOf(variants, variantWeights) };
  return { product, record: first.product_data, variants };
}

/** The last record parsed of each product (by site and id), kept with its text; forgotten all at once past the limit. */
const parsedRecords = new Map<string, { text: string; record: Readonly<StoredProductRecord> }>();
const PARSED_RECORDS_LIMIT = 1000;

/**
 * A product's stored record parsed, reused while its text stays the same: every add to cart reads its product's record
 * again (stock must be read inside the transaction), and parsing it was the largest part of reading it (issue 13);
 * every read of a cart (./cart.ts) takes its lines' records from here too (an order reads its cart twice).
 * Comparing the text costs a fraction of parsing it; a re-import that changes it is parsed on the next read.
 */
export function parsedRecord(siteId: string, productId: string, text: string): Readonly<StoredProductRecord> {
  const key = `${siteId}\u0000${productId}`;
  const kept = parsedRecords.get(key);
  if (kept !== undefined && kept.text === text) return kept.record;
  const record = deepFreeze(JSON.parse(text) as StoredProductRecord);
  if (parsedRecords.size >= PARSED_RECORDS_LIMIT) parsedRecords.clear();
  parsedRecords.set(key, { text, record });
  return record;
}

/** Shared parts must never change under their next reader: any write to them throws. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const part of Object.values(value)) deepFreeze(part);
  }
  return value;
}

/** The variants (current stock) of several products, by product id, each list in the site file's order. */
export async function getVariants(
  db: Db,
  siteId: string,
  productIds: readonly string[],
): Promise<Map<string, Variant[]>> {
  const byProduct = new Map<string, Variant[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .selectFrom('variants')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('product_id', 'in', [...new Set(productIds)])
    .orderBy('product_id')
    .orderBy('position')
    .execute();
  for (const [productId, list] of groupBy(rows, (v) => v.product_id))
    byProduct.set(productId, list.map(variantFromRow));
  return byProduct;
}

/**
 * A product's stored record without its variants (which change with stock), by its collection id and slug: what
 * the page renderer keeps per site version (see src/render/renderPath.tsx).
 */
export async function getProductRecordBySlug(
  db: Db,
  siteId: string,
  collectionId: string,
  productSlug: string,
  liveAt: string = now(),
): Promise<Omit<Product, 'variants'> | undefined> {
  const row = await db
    .selectFrom('products')
    .select('data')
    .where('site_id', '=', siteId)
    .where('collection_id', '=', collectionId)
    .where('slug', '=', productSlug)
    .where(liveAtCondition('products', liveAt))
    .executeTakeFirst();
  if (!row) return undefined;
  const { variantWeights: _weights, ...record } = JSON.parse(row.data) as StoredProductRecord;
  return record;
}

/** The product at /{collectionSlug}/p/{productSlug}. */
export async function getProductBySlug(
  db: Db,
  siteId: string,
  collectionSlug: string,
  productSlug: string,
  liveAt: string = now(),
): Promise<Product | undefined> {
  const row = await db
    .selectFrom('products')
    .innerJoin('collections', (j) =>
      j.onRef('collections.site_id', '=', 'products.site_id').onRef('collections.id', '=', 'products.collection_id'),
    )
    .selectAll('products')
    .where('products.site_id', '=', siteId)
    .where('collections.slug', '=', collectionSlug)
    .where('products.slug', '=', productSlug)
    .where(liveAtCondition('products', liveAt))
    .executeTakeFirst();
  return row ? (await withVariants(db, siteId, [row]))[0] : undefined;
}

export async function listCollections(db: Db, siteId: string): Promise<Collection[]> {
  const rows = await db
    .selectFrom('collections')
    .select('data')
    .where('site_id', '=', siteId)
    .orderBy('position')
    .execute();
  return rows.map((r) => JSON.parse(r.data) as Collection);
}

export async function getCollection(db: Db, siteId: string, collectionId: string): Promise<Collection | undefined> {
  const row = await db
    .selectFrom('collections')
    .select('data')
    .where('site_id', '=', siteId)
    .where('id', '=', collectionId)
    .executeTakeFirst();
  return row && (JSON.parse(row.data) as Collection);
}

export async function getCollectionBySlug(db: Db, siteId: string, slug: string): Promise<Collection | undefined> {
  const row = await db
    .selectFrom('collections')
    .select('data')
    .where('site_id', '=', siteId)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row && (JSON.parse(row.data) as Collection);
}

/** All forms of a site, in the site file's order (product forms are looked up here once per site version). */
export async function listForms(db: Db, siteId: string): Promise<Form[]> {
  const rows = await db.selectFrom('forms').select('data').where('site_id', '=', siteId).orderBy('position').execute();
  return rows.map((r) => JSON.parse(r.data) as Form);
}

/** The live pages in the site file's order (navigation shows those with showInNavigation). */
export async function listPages(db: Db, siteId: string, liveAt: string = now()): Promise<Page[]> {
  const rows = await db
    .selectFrom('pages')
    .select('data')
    .where('site_id', '=', siteId)
    .where(liveAtCondition('pages', liveAt))
    .orderBy('position')
    .execute();
  return rows.map((r) => JSON.parse(r.data) as Page);
}

export async function getPageByPath(
  db: Db,
  siteId: string,
  path: string,
  liveAt: string = now(),
): Promise<Page | undefined> {
  const row = await db
    .selectFrom('pages')
    .select('data')
    .where('site_id', '=', siteId)
    .where('path', '=', path)
    .where(liveAtCondition('pages', liveAt))
    .executeTakeFirst();
  return row && (JSON.parse(row.data) as Page);
}

/** The posts of a blog collection in the site file's order (write the newest first); at most `limit`. */
export async function listPosts(
  db: Db,
  siteId: string,
  collectionId: string,
  limit?: number,
  liveAt: string = now(),
): Promise<Post[]> {
  let query = db
    .selectFrom('posts')
    .select('data')
    .where('site_id', '=', siteId)
    .where('collection_id', '=', collectionId)
    .where(liveAtCondition('posts', liveAt))
    .orderBy('position');
  if (limit !== undefined) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map((r) => JSON.parse(r.data) as Post);
}

/** The post at /{collectionSlug}/{postSlug}. */
export async function getPostBySlug(
  db: Db,
  siteId: string,
  collectionSlug: string,
  postSlug: string,
  liveAt: string = now(),
): Promise<Post | undefined> {
  const row = await db
    .selectFrom('posts')
    .innerJoin('collections', (j) =>
      j.onRef('collections.site_id', '=', 'posts.site_id').onRef('collections.id', '=', 'posts.collection_id'),
    )
    .select('posts.data')
    .where('posts.site_id', '=', siteId)
    .where('collections.slug', '=', collectionSlug)
    .where('posts.slug', '=', postSlug)
    .where(liveAtCondition('posts', liveAt))
    .executeTakeFirst();
  return row && (JSON.parse(row.data) as Post);
}

export async function getForm(db: Db, siteId: string, formId: string): Promise<Form | undefined> {
  const row = await db
    .selectFrom('forms')
    .select('data')
    .where('site_id', '=', siteId)
    .where('id', '=', formId)
    .executeTakeFirst();
  return row && (JSON.parse(row.data) as Form);
}

/** An image of the site by its path as written in the site file (e.g. `images/mug.jpg`). */
/** Width and height (pixels) of every image of a site, by path: pages give them to <img> so nothing shifts as it loads. */
export async function listImageSizes(db: Db, siteId: string): Promise<Map<string, ImageSize>> {
  const rows = await db
    .selectFrom('assets')
    .select(['path', 'width', 'height'])
    .where('site_id', '=', siteId)
    .execute();
  return new Map(
    rows.filter((r) => r.width > 0 && r.height > 0).map((r) => [r.path, { width: r.width, height: r.height }]),
  );
}

export interface ImageSize {
  width: number;
  height: number;
}

export async function getAsset(db: Db, siteId: string, path: string): Promise<SiteAsset | undefined> {
  const row = await db
    .selectFrom('assets')
    .select(['path', 'content_type', 'width', 'height', 'bytes'])
    .where('site_id', '=', siteId)
    .where('path', '=', path)
    .executeTakeFirst();
  return (
    row && {
      path: row.path,
      contentType: row.content_type,
      width: row.width,
      height: row.height,
      bytes: Buffer.from(row.bytes),
    }
  );
}
