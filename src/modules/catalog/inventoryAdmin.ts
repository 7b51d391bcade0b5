/**
 * The owner's inventory (issue 25, /admin/inventory): every variant with its live stock, filtered (sold out, low on
 * stock: at or below the store's `lowStockThreshold`) and searched (product name or SKU), a page at a time; each
 * variant's history (stock_movements, newest first); and the owner's changes — set to N or adjust by ±N with a reason —
 * each written with its history row and its audit entry in one transaction.
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { ok, type Result } from '../../core/result';
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
  total: number;
  offset: number;
  limit: number;
}

export const INVENTORY_PAGE_SIZE = 50;

/** The variants a filter keeps: sold out (0 in stock), or low (1 to the threshold); never the unlimited ones. */
const filtered =
  (filter: Exclude<InventoryFilter, 'all'>, threshold: number) =>
  (eb: ExpressionBuilder<Database, 'variants'>): Expression<SqlBool> =>
    filter === 'sold-out'
      ? eb.and([eb('variants.unlimited', '=', 0), eb('variants.qty_in_stock', '=', 0)])
      : eb.and([
          eb('variants.unlimited', '=', 0),
          eb('variants.qty_in_stock', '>', 0),
          eb('variants.qty_in_stock', '<=', threshold),
        ]);

/**
 * How many of the site's variants are low on stock and sold out (the owner's home, /admin): the counts of the
 * inventory's filters, each read from the index variants_by_stock (migration 022) — as many rows as it counts.
 */
export async function countStockAlerts(
  db: Kysely<Database>,
  siteId: string,
  lowStockThreshold: number,
): Promise<{ low: number; soldOut: number }> {
  const count = async (filter: Exclude<InventoryFilter, 'all'>): Promise<number> => {
    const row = await db
      .selectFrom('variants')
      .innerJoin('products', (j) =>
        j.onRef('products.site_id', '=', 'variants.site_id').onRef('products.id', '=', 'variants.product_id'),
      )
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('variants.site_id', '=', siteId)
      .where(filtered(filter, lowStockThreshold))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };
  return { low: await count('low'), soldOut: await count('sold-out') };
}

/** The site's variants in the catalog's order (product, then variant position), filtered and searched. */
export async function listInventory(
  db: Kysely<Database>,
  siteId: string,
  options: { filter?: InventoryFilter; q?: string; offset?: number; limit?: number; lowStockThreshold: number },
): Promise<InventoryPage> {
  const filter = options.filter ?? 'all';
  const limit = options.limit ?? INVENTORY_PAGE_SIZE;
  const offset = options.offset ?? 0;
  const threshold = options.lowStockThreshold;
  const rows = await db
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
    .$if(filter !== 'all', (q) => q.where(filtered(filter as Exclude<InventoryFilter, 'all'>, threshold)))
    .orderBy('products.position')
    .orderBy('variants.position')
    .execute();
  const needle = options.q?.trim().toLowerCase() ?? '';
  const items = rows
    .map((r): InventoryItem => {
      const qty = r.unlimited === 1 ? null : Number(r.qty_in_stock);
      return {
        sku: r.sku,
        productId: r.product_id,
        productName: parsedRecord(siteId, r.product_id, r.product).name,
        attributes: JSON.parse(r.attributes) as Record<string, string>,
        qtyInStock: qty,
        soldOut: qty === 0,
        low: qty !== null && qty > 0 && qty <= threshold,
      };
    })
    .filter(
      (item) =>
        needle === '' || item.sku.toLowerCase().includes(needle) || item.productName.toLowerCase().includes(needle),
    );
  return { items: items.slice(offset, offset + limit), total: items.length, offset, limit };
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
