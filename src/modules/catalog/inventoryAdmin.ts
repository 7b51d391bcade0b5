/**
 * The owner's inventory (issue 25, /admin/inventory): every variant with its live stock, filtered (sold out, low on
 * stock: at or below the store's `lowStockThreshold`) and searched (product name or SKU), a page at a time; each
 * variant's history (stock_movements, newest first); and the owner's changes — set to N or adjust by ±N with a reason —
 * each written with its history row and its audit entry in one transaction.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { searchTerms } from '../../core/adminSearch';
import { ok, type Result } from '../../core/result';
import { engineOf } from '../../platform/db/connect';
import { ftsAllOf, pgAllOf } from '../../platform/db/trigramSearch';
import { inTransaction } from '../../platform/db/transaction';
import type { Database } from '../../platform/db/tables';
import { recordAudit, type Actor } from '../admin';
import { parsedRecord } from './catalog';
import { adjustStock, setStock, type StockEdit, type StockEditRefusal } from './stock';
import type { StockMovementReason } from './tables';

export type InventoryFilter = 'all' | 'sold-out' | 'low';

export interface InventoryItem {
  sku: string;
  productId: string;
  productName: string;
  /** The variant's options ('Size: L, Colour: Blue'), empty for a product without options. */
  attributes: Record<string, string>;
  /** null: unlimited. */
  qtyInStock: number | null;
  soldOut: boolean;
  low: boolean;
}

export interface InventoryPage {
  items: InventoryItem[];
  offset: number;
  limit: number;
  /** More variants after this page (no total is counted: a count would read every variant of the site). */
  hasNextPage: boolean;
  /** The search was too short to look for (src/core/adminSearch.ts): nothing was read. */
  tooShort?: true;
}

export const INVENTORY_PAGE_SIZE = 50;

type Db = Kysely<Database>;

interface InventoryRow {
  sku: string;
  product_id: string;
  unlimited: number;
  qty_in_stock: number | string;
  attributes: string;
  product: string;
}

const itemOf = (siteId: string, threshold: number, r: InventoryRow): InventoryItem => {
  const qty = Number(r.unlimited) === 1 ? null : Number(r.qty_in_stock);
  return {
    sku: r.sku,
    productId: r.product_id,
    productName: parsedRecord(siteId, r.product_id, r.product).name,
    attributes: JSON.parse(r.attributes) as Record<string, string>,
    qtyInStock: qty,
    soldOut: qty === 0,
    low: qty !== null && qty > 0 && qty <= threshold,
  };
};

/**
 * The site's variants (of a filter), in the inventory's order. `byKey`: SQLite reads a search's matches by their key
 * (the order's first column as `+column`, so that no index's order is walked instead, each variant looked for among
 * the matches).
 */
const variantsOf = (db: Db, siteId: string, filter: InventoryFilter, threshold: number, byKey = false) =>
  db
    .selectFrom('variants')
    .select(['sku', 'product_id', 'unlimited', 'qty_in_stock', 'data as attributes'])
    .where('site_id', '=', siteId)
    // `unlimited = 0` written as such (not a parameter): the partial index variants_counted is then known to serve it.
    .$if(filter === 'sold-out', (q) => q.where('unlimited', '=', sql.lit(0)).where('qty_in_stock', '=', 0))
    .$if(filter === 'low', (q) =>
      q.where('unlimited', '=', sql.lit(0)).where('qty_in_stock', '>', 0).where('qty_in_stock', '<=', threshold),
    )
    .$if(filter !== 'all', (q) => q.orderBy(byKey ? sql`+qty_in_stock` : 'qty_in_stock'))
    .orderBy(byKey && filter === 'all' ? sql`+product_position` : 'product_position')
    .orderBy('product_id')
    .orderBy('position');

/** The variants whose SKU or product name holds every term, from a trigram index (migration 027). */
const searchedVariants =
  (db: Db, siteId: string, terms: readonly string[]) =>
  (eb: ExpressionBuilder<Database, 'variants'>): Expression<SqlBool> =>
    engineOf(db) === 'postgres'
      ? pgAllOf([sql<string>`lower(sku)`, sql<string>`lower(product_name)`], terms)
      : eb(
          'sku',
          'in',
          sql<string>`(SELECT s.sku FROM variants_search_fts f JOIN variants_search s ON s.id = f.rowid
            WHERE variants_search_fts MATCH ${ftsAllOf(terms)} AND s.site_id = ${siteId})`,
        );

/** The products' JSON of `ids` (by their key). */
async function productsOf(db: Db, siteId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const byId = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('products')
      .select(['id', 'data'])
      .where('site_id', '=', siteId)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) byId.set(r.id, r.data);
  }
  return byId;
}

/**
 * A page of the site's variants, read in SQL in an index's order (migration 026), no total counted; then the page's
 * products by their key:
 * - all: the catalog's order (a product's position, then the variant's): variants_in_catalog_order;
 * - sold out: the catalog's order; low on stock (1 to the threshold): fewest in stock first, then the catalog's order —
 *   both from variants_counted (the counted variants by stock), only the variants that match;
 * - a search (a part of a product's name or SKU, every word of it: src/core/adminSearch.ts): the matching variants
 *   from a trigram index (migration 027: PostgreSQL's variants_sku_trigrams and variants_name_trigrams on
 *   variants.product_name, the product's name the import copies; SQLite's FTS5 table variants_search_fts), of the
 *   filter if any, in the catalog's order.
 */
export async function listInventory(
  db: Db,
  siteId: string,
  options: { filter?: InventoryFilter; q?: string; offset?: number; limit?: number; lowStockThreshold: number },
): Promise<InventoryPage> {
  const filter = options.filter ?? 'all';
  const limit = options.limit ?? INVENTORY_PAGE_SIZE;
  const offset = options.offset ?? 0;
  const threshold = options.lowStockThreshold;
  const search = options.q?.trim() ?? '';
  const terms = search === '' ? undefined : searchTerms(search);
  if (terms === null) return { items: [], offset, limit, hasNextPage: false, tooShort: true };
  const rows = await variantsOf(db, siteId, filter, threshold, terms !== undefined && engineOf(db) === 'sqlite')
    .$if(terms !== undefined, (q) => q.where(searchedVariants(db, siteId, terms!)))
    .limit(limit + 1)
    .offset(offset)
    .execute();
  const products = await productsOf(db, siteId, [...new Set(rows.map((r) => r.product_id))]);
  const items = rows
    .filter((r) => products.has(r.product_id))
    .map((r) => itemOf(siteId, threshold, { ...r, product: products.get(r.product_id)! }));
  return { items: items.slice(0, limit), offset, limit, hasNextPage: rows.length > limit };
}

/** How many counted variants of the site a filter keeps, from the partial index variants_counted: as many rows as it counts. */
async function countFiltered(
  db: Db,
  siteId: string,
  filter: Exclude<InventoryFilter, 'all'>,
  lowStockThreshold: number,
): Promise<number> {
  const row = await db
    .selectFrom('variants')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('site_id', '=', siteId)
    // A literal, as in variantsOf: the partial index variants_counted is then known to serve it.
    .where('unlimited', '=', sql.lit(0))
    .$if(filter === 'sold-out', (q) => q.where('qty_in_stock', '=', 0))
    .$if(filter === 'low', (q) => q.where('qty_in_stock', '>', 0).where('qty_in_stock', '<=', lowStockThreshold))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many variants of the site are low on stock (1 to the threshold). */
export const countLowStock = (db: Db, siteId: string, lowStockThreshold: number): Promise<number> =>
  countFiltered(db, siteId, 'low', lowStockThreshold);

/** How many of the site's variants are low on stock and sold out (the owner's home, /admin): the filters' counts. */
export async function countStockAlerts(
  db: Db,
  siteId: string,
  lowStockThreshold: number,
): Promise<{ low: number; soldOut: number }> {
  return {
    low: await countFiltered(db, siteId, 'low', lowStockThreshold),
    soldOut: await countFiltered(db, siteId, 'sold-out', lowStockThreshold),
  };
}

/** One variant as the inventory shows it, or undefined. */
export async function getInventoryItem(
  db: Kysely<Database>,
  siteId: string,
  sku: string,
  lowStockThreshold: number,
): Promise<InventoryItem | undefined> {
  const r = await db
    .selectFrom('variants')
    .innerJoin('products', (j) =>
      j.onRef('products.site_id', '=', 'variants.site_id').onRef('products.id', '=', 'variants.product_id'),
    )
    .select([
      'variants.sku',
      'variants.product_id',
      'variants.unlimited',
      'variants.qty_in_stock',
      'variants.data as attributes',
      'products.data as product',
    ])
    .where('variants.site_id', '=', siteId)
    .where('variants.sku', '=', sku)
    .executeTakeFirst();
  if (!r) return undefined;
  const qty = r.unlimited === 1 ? null : Number(r.qty_in_stock);
  return {
    sku: r.sku,
    productId: r.product_id,
    productName: parsedRecord(siteId, r.product_id, r.product).name,
    attributes: JSON.parse(r.attributes) as Record<string, string>,
    qtyInStock: qty,
    soldOut: qty === 0,
    low: qty !== null && qty > 0 && qty <= lowStockThreshold,
  };
}

export interface StockMovement {
  id: string;
  at: string;
  delta: number;
  qtyAfter: number;
  reason: StockMovementReason;
  note: string | null;
  orderId: string | null;
  actor: string | null;
}

/** A variant's history, newest first (`limit` rows; `before`: the id of the last row of the page before). */
export async function stockHistory(
  db: Kysely<Database>,
  siteId: string,
  sku: string,
  options: { limit?: number } = {},
): Promise<StockMovement[]> {
  const rows = await db
    .selectFrom('stock_movements')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    at: r.created_at,
    delta: Number(r.delta),
    qtyAfter: Number(r.qty_after),
    reason: r.reason,
    note: r.note,
    orderId: r.order_id,
    actor: r.actor,
  }));
}

/** An owner's change: set the stock to `qty`, or adjust it by `delta`. */
export type StockChange = { set: number } | { adjust: number };

const actorName = (actor: Actor): string => ('id' in actor ? actor.email : 'vitrine command');

/** Makes the owner's change with its history row and its audit entry, in one transaction. */
export async function changeStock(
  db: Kysely<Database>,
  siteId: string,
  sku: string,
  change: StockChange,
  by: { actor: Actor; reason?: string },
): Promise<Result<StockEdit, StockEditRefusal>> {
  const note = by.reason?.trim() ? by.reason.trim() : null;
  const movement = { reason: 'edit' as const, actor: actorName(by.actor), note };
  return inTransaction(db, async (trx) => {
    const done =
      'set' in change
        ? await setStock(trx, siteId, sku, change.set, movement)
        : await adjustStock(trx, siteId, sku, change.adjust, movement);
    if (!done.ok) return done;
    const e = done.value;
    const what =
      'set' in change
        ? `Set the stock of ${sku} to ${e.after}`
        : `Adjusted the stock of ${sku} by ${e.delta > 0 ? '+' : ''}${e.delta} to ${e.after}`;
    await recordAudit(trx, {
      siteId,
      actor: by.actor,
      action: 'set' in change ? 'stock.set' : 'stock.adjusted',
      subject: { type: 'variant', id: sku },
      summary: note ? `${what} (${note})` : what,
      before: { qtyInStock: e.before ?? 'unlimited' },
      after: { qtyInStock: e.after },
    });
    return ok(e);
  });
}
