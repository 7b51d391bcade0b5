/**
 * The writes of a variant's stock between imports, all here: an order or a renewal takes units, a refund puts them
 * back, the owner sets or adjusts them. Each is one conditional statement inside the caller's transaction, so the
 * stock never goes below 0 and of two orders racing for the last unit exactly one takes it; deltas are applied in the
 * database (`qty_in_stock = qty_in_stock + delta`), never read, changed and written back by the process. Callers take
 * several SKUs in code-point order (as imports lock them, ./store.ts), so two PostgreSQL transactions never wait for
 * each other's rows. Every change moves the variant's stock_seq (migration 016), which keeps cached pages true
 * (./stockWatch.ts), and writes one row of the variant's history (stock_movements, migration 020) in the same
 * transaction.
 */
import { sql, type Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';
import { timeOrderedId } from '../../platform/timeOrderedId';
import type { StockMovementReason } from './tables';

/** Who and why, written with a change in the variant's history. */
export interface MovementInfo {
  /** What moved the stock (default: 'sale' for takeStock, 'refund' for putBack, 'edit' for setStock/adjustStock). */
  reason?: StockMovementReason;
  /** The order it belongs to (a sale, a renewal, a refund). */
  orderId?: string | null;
  /** Who made it, as shown: a staff member's e-mail, 'vitrine command'. */
  actor?: string | null;
  /** The owner's words ('Recount', 'Damaged in transit'). */
  note?: string | null;
}

const decrement = compiledQuery((db, v: { siteId: string; sku: string; quantity: number }) =>
  db
    .updateTable('variants')
    .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '-', v.quantity) }))
    .where('site_id', '=', v.siteId)
    .where('sku', '=', v.sku)
    .where('unlimited', '=', 0)
    .where('qty_in_stock', '>=', v.quantity)
    .returning(['qty_in_stock', 'product_id']),
);

const insertMovement = compiledQuery(
  (
    db,
    v: {
      id: string;
      siteId: string;
      sku: string;
      productId: string;
      delta: number;
      qtyAfter: number;
      reason: StockMovementReason;
      note: string | null;
      orderId: string | null;
      actor: string | null;
      createdAt: string;
    },
  ) =>
    db.insertInto('stock_movements').values({
      id: v.id,
      site_id: v.siteId,
      sku: v.sku,
      product_id: v.productId,
      delta: v.delta,
      qty_after: v.qtyAfter,
      reason: v.reason,
      note: v.note,
      order_id: v.orderId,
      actor: v.actor,
      created_at: v.createdAt,
    }),
);

/**
 * PostgreSQL: the conditional decrement and its row of the history in one statement (issue 27: a round trip fewer
 * for each line of an order). The movement is inserted from the decrement's RETURNING, so a variant with fewer units
 * than asked (or unlimited, or gone) updates no row and inserts none — nothing written, no row answered, as when the
 * decrement ran alone. The UPDATE waits for an order holding the row and then checks `qty_in_stock >= n` again on the
 * row as committed (READ COMMITTED's re-check of a changed row), so of two orders racing for the last unit exactly one
 * takes it, and qty_after is the stock its own decrement left. SQLite has no writable CTEs: it keeps the two
 * statements (run in-process, one after the other in its single writer). The values are cast: a parameter in a SELECT
 * list has no type of its own.
 */
const decrementWithMovement = compiledQuery(
  (
    db,
    v: {
      siteId: string;
      sku: string;
      quantity: number;
      id: string;
      delta: number;
      reason: StockMovementReason;
      note: string | null;
      orderId: string | null;
      actor: string | null;
      createdAt: string;
    },
  ) =>
    db
      .with('taken', (w) =>
        w
          .updateTable('variants')
          .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '-', v.quantity) }))
          .where('site_id', '=', v.siteId)
          .where('sku', '=', v.sku)
          .where('unlimited', '=', 0)
          .where('qty_in_stock', '>=', v.quantity)
          .returning(['site_id', 'sku', 'product_id', 'qty_in_stock']),
      )
      .insertInto('stock_movements')
      .columns([
        'id',
        'site_id',
        'sku',
        'product_id',
        'delta',
        'qty_after',
        'reason',
        'note',
        'order_id',
        'actor',
        'created_at',
      ])
      .expression((eb) =>
        eb
          .selectFrom('taken')
          .select([
            sql<string>`cast(${v.id} as text)`.as('id'),
            'taken.site_id',
            'taken.sku',
            'taken.product_id',
            sql<number>`cast(${v.delta} as integer)`.as('delta'),
            'taken.qty_in_stock as qty_after',
            sql<StockMovementReason>`cast(${v.reason} as text)`.as('reason'),
            sql<string | null>`cast(${v.note} as text)`.as('note'),
            sql<string | null>`cast(${v.orderId} as text)`.as('order_id'),
            sql<string | null>`cast(${v.actor} as text)`.as('actor'),
            sql<string>`cast(${v.createdAt} as text)`.as('created_at'),
          ]),
      )
      .returning(['qty_after', 'product_id']),
);

/** One row of the history, in the change's transaction. */
async function recordMovement(
  trx: Kysely<Database>,
  row: { siteId: string; sku: string; productId: string; delta: number; qtyAfter: number },
  info: MovementInfo,
  reason: StockMovementReason,
): Promise<void> {
  await insertMovement.execute(trx, {
    id: timeOrderedId(),
    ...row,
    reason: info.reason ?? reason,
    note: info.note ?? null,
    orderId: info.orderId ?? null,
    actor: info.actor ?? null,
    createdAt: new Date().toISOString(),
  });
}

/** Records the import's changes of stock (only the variants whose stock changed), in the import's transaction. */
export async function recordImportMovements(
  trx: Kysely<Database>,
  siteId: string,
  changes: readonly { sku: string; productId: string; delta: number; qtyAfter: number; note?: string }[],
): Promise<void> {
  const createdAt = new Date().toISOString();
  for (let i = 0; i < changes.length; i += 200) {
    await trx
      .insertInto('stock_movements')
      .values(
        changes.slice(i, i + 200).map((c) => ({
          id: timeOrderedId(),
          site_id: siteId,
          sku: c.sku,
          product_id: c.productId,
          delta: c.delta,
          qty_after: c.qtyAfter,
          reason: 'import' as const,
          note: c.note ?? null,
          order_id: null,
          actor: null,
          created_at: createdAt,
        })),
      )
      .execute();
  }
}

/** Takes `quantity` units: true when taken (or the variant is unlimited), false when fewer are left (nothing moves). */
export async function takeStock(
  trx: Kysely<Database>,
  siteId: string,
  sku: string,
  quantity: number,
  movement: MovementInfo = {},
): Promise<boolean> {
  if (engineOf(trx) === 'postgres') {
    const taken = await decrementWithMovement.execute(trx, {
      siteId,
      sku,
      quantity,
      id: timeOrderedId(),
      delta: -quantity,
      reason: movement.reason ?? 'sale',
      note: movement.note ?? null,
      orderId: movement.orderId ?? null,
      actor: movement.actor ?? null,
      createdAt: new Date().toISOString(),
    });
    if (taken.rows.length > 0) return true;
    return isUnlimited(trx, siteId, sku);
  }
  const taken = (await decrement.execute(trx, { siteId, sku, quantity })).rows[0];
  if (taken) {
    const row = { siteId, sku, productId: taken.product_id, delta: -quantity, qtyAfter: Number(taken.qty_in_stock) };
    await recordMovement(trx, row, movement, 'sale');
    return true;
  }
  return isUnlimited(trx, siteId, sku);
}

/** Whether the variant's stock is not counted (no decrement matched it: unlimited, or too few units, or no such sku). */
async function isUnlimited(trx: Kysely<Database>, siteId: string, sku: string): Promise<boolean> {
  const row = await trx
    .selectFrom('variants')
    .select('unlimited')
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .executeTakeFirst();
  return row?.unlimited === 1;
}

/** Puts `quantity` units back (a refund); the variant's stock after, or undefined when it is unlimited or gone. */
export async function putBack(
  trx: Kysely<Database>,
  siteId: string,
  sku: string,
  quantity: number,
  movement: MovementInfo = {},
): Promise<{ productId: string; qtyInStock: number } | undefined> {
  const after = await trx
    .updateTable('variants')
    .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '+', quantity) }))
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .where('unlimited', '=', 0)
    .returning(['qty_in_stock', 'product_id'])
    .executeTakeFirst();
  if (!after) return undefined;
  const qtyInStock = Number(after.qty_in_stock);
  if (quantity !== 0)
    await recordMovement(
      trx,
      { siteId, sku, productId: after.product_id, delta: quantity, qtyAfter: qtyInStock },
      movement,
      'refund',
    );
  return { productId: after.product_id, qtyInStock };
}

/** Why an owner's change of stock was refused (the message is for them). */
export interface StockEditRefusal {
  type: 'UNKNOWN_SKU' | 'UNLIMITED' | 'BELOW_ZERO';
  message: string;
}

/** A variant's stock after an owner's change. */
export interface StockEdit {
  sku: string;
  productId: string;
  /** Before and after (null: unlimited). */
  before: number | null;
  after: number;
  delta: number;
}

const unknownSku = (sku: string): StockEditRefusal => ({
  type: 'UNKNOWN_SKU',
  message: `There is no variant with SKU ${sku}.`,
});

/**
 * Sets the variant's stock to `qty` (an unlimited variant becomes counted, with `qty` units). The row is locked (on
 * PostgreSQL; SQLite's write transactions are serialized) while its old stock is read for the history's delta.
 */
export async function setStock(
  trx: Kysely<Database>,
  siteId: string,
  sku: string,
  qty: number,
  movement: MovementInfo = {},
): Promise<Result<StockEdit, StockEditRefusal>> {
  if (!Number.isSafeInteger(qty) || qty < 0)
    return err({ type: 'BELOW_ZERO', message: 'Stock must be a whole number, 0 or more.' });
  const query = trx
    .selectFrom('variants')
    .select(['product_id', 'unlimited', 'qty_in_stock'])
    .where('site_id', '=', siteId)
    .where('sku', '=', sku);
  const before = await (engineOf(trx) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  if (!before) return err(unknownSku(sku));
  const old = before.unlimited === 1 ? null : Number(before.qty_in_stock);
  await trx
    .updateTable('variants')
    .set({ qty_in_stock: qty, unlimited: 0 })
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .execute();
  const delta = qty - (old ?? 0);
  if (delta !== 0 || old === null)
    await recordMovement(trx, { siteId, sku, productId: before.product_id, delta, qtyAfter: qty }, movement, 'edit');
  return ok({ sku, productId: before.product_id, before: old, after: qty, delta });
}

/**
 * Adds `delta` units (negative: takes them) in the database — `qty_in_stock = qty_in_stock + delta`, only when that
 * stays 0 or more — so concurrent adjustments all count. Refused for an unlimited variant, and when it would go
 * below 0 (nothing changes).
 */
export async function adjustStock(
  trx: Kysely<Database>,
  siteId: string,
  sku: string,
  delta: number,
  movement: MovementInfo = {},
): Promise<Result<StockEdit, StockEditRefusal>> {
  if (!Number.isSafeInteger(delta)) return err({ type: 'BELOW_ZERO', message: 'The change must be a whole number.' });
  const after = await trx
    .updateTable('variants')
    .set((eb) => ({ qty_in_stock: eb('qty_in_stock', '+', delta) }))
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .where('unlimited', '=', 0)
    .where(sql<boolean>`qty_in_stock + ${delta} >= 0`)
    .returning(['qty_in_stock', 'product_id'])
    .executeTakeFirst();
  if (after) {
    const qtyAfter = Number(after.qty_in_stock);
    if (delta !== 0)
      await recordMovement(trx, { siteId, sku, productId: after.product_id, delta, qtyAfter }, movement, 'edit');
    return ok({ sku, productId: after.product_id, before: qtyAfter - delta, after: qtyAfter, delta });
  }
  const row = await trx
    .selectFrom('variants')
    .select(['unlimited', 'qty_in_stock'])
    .where('site_id', '=', siteId)
    .where('sku', '=', sku)
    .executeTakeFirst();
  if (!row) return err(unknownSku(sku));
  if (row.unlimited === 1)
    return err({
      type: 'UNLIMITED',
      message: `${sku} has unlimited stock: set a number of units first to count its stock.`,
    });
  const left = Number(row.qty_in_stock);
  return err({
    type: 'BELOW_ZERO',
    message: `Stock cannot go below 0: ${sku} has ${left} in stock, so it can go down by ${left} at most.`,
  });
}
