/**
 * Orders: writing one (inside the checkout's transaction), reading one, listing them for the merchant. Rows and API
 * types are mapped in one place (orderRowToOrder). Stock and coupon changes belong to the checkout's transaction
 * (src/modules/checkout/checkout.ts); this module owns the orders, order_lines and order_counters tables.
 */
import { putBack } from '../catalog';
import type { Kysely } from 'kysely';
import type { CheckoutTotals, PricedShippingOption, ShippingAddress } from '../../core/checkout/types';
import { ProductType } from '../../core/enums';
import { fulfilsItself } from '../../core/orderStates';
import type { FormAnswerSummary } from '../../core/forms/summary';
import { engineOf } from '../../platform/db/connect';
import { compiledQuery, type PreparedQuery } from '../../platform/db/sqlite/compiledQuery';
import type { Database } from '../../platform/db/tables';
import type { OrderLineRow, OrderRow, OrderStatus } from './tables';
import { randomToken } from '../../platform/randomToken';
import { returnGiftCardsOfOrder } from '../giftCards';
import { recordRestocks, type Restocked } from '../restock';
import type { Order, OrderLine } from './orderTypes';

type Db = Kysely<Database>;

export interface NewOrder {
  /** The order's id when the caller chose it first (its stock history names it); default: a new random one. */
  id?: string;
  /** Its number when the caller took it first (`takeOrderNumber`); default: the site's next, taken here. */
  number?: number;
  siteId: string;
  cartId: string;
  email: string;
  status: OrderStatus;
  currency: string;
  totals: CheckoutTotals;
  shippingAddress: ShippingAddress | null;
  shippingOption: PricedShippingOption | null;
  couponCode: string | null;
  paymentProvider: string;
  lines: Omit<OrderLine, 'position' | 'refundedQuantity'>[];
  now: Date;
}

/** Inserts the order and its lines with the site's next order number; call inside the checkout's transaction. */
/** A new order's id (random). */
export const newOrderId = (): string => randomToken(16);

export async function createOrder(trx: Db, input: NewOrder): Promise<Order> {
  const number = input.number ?? (await nextOrderNumber(trx, input.siteId));
  const now = input.now.toISOString();
  const row: OrderRow = {
    id: input.id ?? newOrderId(),
    site_id: input.siteId,
    number,
    cart_id: input.cartId,
    email: input.email,
    status: input.status,
    currency: input.currency,
    subtotal: input.totals.subtotalCents,
    shipping: input.totals.shippingCents,
    tax: input.totals.taxCents,
    discount: input.totals.discountCents,
    grand_total: input.totals.grandTotalCents,
    prices_include_tax: input.totals.pricesIncludeTax ? 1 : 0,
    tax_name: input.totals.taxName,
    shipping_address: input.shippingAddress ? JSON.stringify(input.shippingAddress) : null,
    shipping_option: input.shippingOption ? JSON.stringify(input.shippingOption) : null,
    coupon_code: input.couponCode,
    payment_provider: input.paymentProvider,
    // Digital products and gift cards fulfil themselves: nothing to ship.
    fulfilment: fulfilsItself(input.lines.map((line) => line.productType)) ? 'fulfilled' : 'pending',
    created_at: now,
    updated_at: now,
    refunded_total: 0,
  };
  const lines: OrderLineRow[] = input.lines.map((line, position) => ({
    order_id: row.id,
    position,
    item_id: line.itemId,
    sku: line.sku,
    title: line.title,
    product_type: line.productType,
    attributes: JSON.stringify(line.attributes),
    additional_fields: line.additionalFields,
    additional_fields_summary: JSON.stringify(line.additionalFieldsSummary),
    image: line.image ? JSON.stringify(line.image) : null,
    quantity: line.quantity,
    unit_price: line.unitPrice,
    line_total: line.lineTotal,
    refunded_quantity: 0,
  }));
  if (lines.length > 0 && engineOf(trx) === 'postgres') {
    await insertOrderWithLines(trx, row, lines);
  } else {
    await insertOrder.execute(trx, row);
    if (lines.length > 0) await insertLines(trx, lines);
  }
  return orderRowToOrder(row, lines);
}

// The statements every order runs are built once (src/platform/db/sqlite/compiledQuery.ts), not on every order.

const ORDER_COLUMNS = [
  'id',
  'site_id',
  'number',
  'cart_id',
  'email',
  'status',
  'currency',
  'subtotal',
  'shipping',
  'tax',
  'discount',
  'grand_total',
  'prices_include_tax',
  'tax_name',
  'shipping_address',
  'shipping_option',
  'coupon_code',
  'payment_provider',
  'fulfilment',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof OrderRow)[];

const insertOrder = compiledQuery((db, v: OrderRow) =>
  db.insertInto('orders').values(Object.fromEntries(ORDER_COLUMNS.map((column) => [column, v[column]])) as OrderRow),
);

const LINE_COLUMNS = [
  'order_id',
  'position',
  'item_id',
  'sku',
  'title',
  'product_type',
  'attributes',
  'additional_fields',
  'additional_fields_summary',
  'image',
  'quantity',
  'unit_price',
  'line_total',
] as const satisfies readonly (keyof OrderLineRow)[];

/** Orders of up to this many lines insert them with a statement built once per number of lines; longer ones build theirs. */
const COMPILED_LINE_COUNTS = 20;
const insertLinesOfCount = new Map<number, PreparedQuery<Record<string, unknown>, unknown>>();

/** The lines in one statement; the value of line i's column c is named `i.c`. */
async function insertLines(trx: Db, lines: readonly OrderLineRow[]): Promise<void> {
  if (lines.length > COMPILED_LINE_COUNTS) {
    await trx.insertInto('order_lines').values(lines).execute();
    return;
  }
  let insert = insertLinesOfCount.get(lines.length);
  if (insert === undefined) {
    const count = lines.length;
    insert = compiledQuery((db, v: Record<string, unknown>) =>
      db
        .insertInto('order_lines')
        .values(
          Array.from(
            { length: count },
            (_, i) => Object.fromEntries(LINE_COLUMNS.map((column) => [column, v[`${i}.${column}`]])) as OrderLineRow,
          ),
        ),
    );
    insertLinesOfCount.set(count, insert);
  }
  const values: Record<string, unknown> = {};
  lines.forEach((line, i) => {
    for (const column of LINE_COLUMNS) values[`${i}.${column}`] = line[column];
  });
  await insert.execute(trx, values);
}

/**
 * PostgreSQL: the order and its lines in one statement (issue 27: a round trip fewer per order), `WITH new_order AS
 * (INSERT INTO orders …) INSERT INTO order_lines VALUES …`. The lines name the order by its id, chosen here, so they
 * need nothing of the CTE; their foreign key to orders is checked at the end of the statement, when the order's row is
 * there (both rows or, on any error, neither: one statement). SQLite has no writable CTEs: it keeps the two statements
 * (in-process, no round trip to save). Up to COMPILED_LINE_COUNTS lines the statement is built once per number of
 * lines; the value of the order's column c is named `order.c`, of line i's `i.c`.
 */
async function insertOrderWithLines(trx: Db, order: OrderRow, lines: readonly OrderLineRow[]): Promise<void> {
  if (lines.length > COMPILED_LINE_COUNTS) {
    await orderWithLines(trx, order, lines).execute();
    return;
  }
  let insert = insertOrderWithLinesOfCount.get(lines.length);
  if (insert === undefined) {
    const count = lines.length;
    insert = compiledQuery((db, v: Record<string, unknown>) =>
      orderWithLines(
        db,
        Object.fromEntries(ORDER_COLUMNS.map((column) => [column, v[`order.${column}`]])) as OrderRow,
        Array.from(
          { length: count },
          (_, i) => Object.fromEntries(LINE_COLUMNS.map((column) => [column, v[`${i}.${column}`]])) as OrderLineRow,
        ),
      ),
    );
    insertOrderWithLinesOfCount.set(count, insert);
  }
  const values: Record<string, unknown> = {};
  for (const column of ORDER_COLUMNS) values[`order.${column}`] = order[column];
  lines.forEach((line, i) => {
    for (const column of LINE_COLUMNS) values[`${i}.${column}`] = line[column];
  });
  await insert.execute(trx, values);
}

const insertOrderWithLinesOfCount = new Map<number, PreparedQuery<Record<string, unknown>, unknown>>();

const orderWithLines = (db: Db, order: OrderRow, lines: readonly OrderLineRow[]) =>
  db
    .with('new_order', (w) =>
      w
        .insertInto('orders')
        .values(Object.fromEntries(ORDER_COLUMNS.map((column) => [column, order[column]])) as OrderRow),
    )
    .insertInto('order_lines')
    .values(
      lines.map((line) => Object.fromEntries(LINE_COLUMNS.map((column) => [column, line[column]])) as OrderLineRow),
    );

/**
 * The site's next order number, in one statement: the counter row is created at 1 or incremented (PostgreSQL: the
 * upsert row-locks it until commit; SQLite: the transaction holds the write lock), so two orders placed at once never
 * share a number.
 */
async function nextOrderNumber(trx: Db, siteId: string): Promise<number> {
  return takeOrderNumber(trx, siteId);
}

/**
 * Takes the site's next order number in a statement of its own (outside the order's transaction, its lock held only
 * until that statement commits): PostgreSQL's checkout does, so that one shop's orders do not wait for each other's
 * whole transactions on the counter row (issue 27). Numbers stay unique and increase in the order they were taken; an
 * order refused inside its transaction afterwards (the last unit sold meanwhile) leaves its number unused — a gap.
 */
export async function takeOrderNumber(db: Db, siteId: string): Promise<number> {
  const counter = (await countOrder.execute(db, { siteId })).rows[0];
  if (counter === undefined) throw new Error(`no order number for site ${siteId}`);
  return counter.last_number;
}

const countOrder = compiledQuery((db, v: { siteId: string }) =>
  db
    .insertInto('order_counters')
    .values({ site_id: v.siteId, last_number: 1 })
    .onConflict((oc) =>
      oc.column('site_id').doUpdateSet((eb) => ({ last_number: eb('order_counters.last_number', '+', 1) })),
    )
    .returning('last_number'),
);

/** An order of this site by its unguessable id, or undefined. */
export async function getOrder(db: Db, siteId: string, orderId: string): Promise<Order | undefined> {
  if (!/^[A-Za-z0-9_-]{22}$/.test(orderId)) return undefined;
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  return row && withLines(db, row);
}

/** An order of this site by its number (the merchant's handle), or undefined. */
export async function getOrderByNumber(db: Db, siteId: string, number: number): Promise<Order | undefined> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('number', '=', number)
    .executeTakeFirst();
  return row && withLines(db, row);
}

export interface OrderListItem {
  id: string;
  number: number;
  websiteId: string;
  email: string;
  status: OrderStatus;
  currency: string;
  grandTotalCents: number;
  createdAt: string;
}

/** Newest first. */
export async function listOrders(
  db: Db,
  filter: { siteId?: string; status?: OrderStatus; limit?: number } = {},
): Promise<OrderListItem[]> {
  let query = db
    .selectFrom('orders')
    .select(['id', 'number', 'site_id', 'email', 'status', 'currency', 'grand_total', 'created_at']);
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('number', 'desc')
    .limit(filter.limit ?? 100)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    websiteId: r.site_id,
    email: r.email,
    status: r.status,
    currency: r.currency,
    grandTotalCents: r.grand_total,
    createdAt: r.created_at,
  }));
}

/**
 * Marks an order fully refunded (the whole-order refund, the provider's webhook), puts back the stock of the units no
 * refund has covered yet (physical goods and services, not unlimited stock) and gives what gift cards paid back to
 * them (src/modules/giftCards/giftCards.ts) — only when its status moves, so whichever refund comes first (the
 * merchant's, the provider's webhook) restocks, once. Call inside a transaction. True when this call moved it.
 */
export async function markOrderRefunded(trx: Db, orderId: string, now: Date): Promise<boolean> {
  const moved = await trx
    .updateTable('orders')
    .set((eb) => ({ status: 'refunded', refunded_total: eb.ref('grand_total'), updated_at: now.toISOString() }))
    .where('id', '=', orderId)
    .where('status', '!=', 'refunded')
    .returning(['site_id'])
    .executeTakeFirst();
  if (!moved) return false;
  // The orders row is locked (PostgreSQL) or the database is (SQLite) until commit: the lines read are the lines now.
  const lines = await trx
    .selectFrom('order_lines')
    .select(['sku', 'product_type', 'quantity', 'refunded_quantity'])
    .where('order_id', '=', orderId)
    .execute();
  await trx
    .updateTable('order_lines')
    .set((eb) => ({ refunded_quantity: eb.ref('quantity') }))
    .where('order_id', '=', orderId)
    .execute();
  const left = lines.map((l) => ({
    sku: l.sku,
    productType: l.product_type,
    quantity: l.quantity - Number(l.refunded_quantity),
  }));
  await restockLines(trx, moved.site_id, left, now, orderId);
  // What gift cards paid goes back to them; the cards the order bought can no longer be spent.
  await returnGiftCardsOfOrder(trx, orderId, now);
  return true;
}

/**
 * Puts back `quantity` units of each line (counted goods only) and tells the restock service of the variants that
 * were sold out until now; lines in the SKUs' code-point order, in which orders and imports lock variants too
 * (checkout.ts `takeStock`): no deadlock. Call inside the refund's transaction.
 */
export async function restockLines(
  trx: Db,
  siteId: string,
  lines: readonly { sku: string; productType: number; quantity: number }[],
  now: Date,
  orderId?: string,
): Promise<number> {
  const sorted = [...lines].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
  const restocked: Restocked[] = [];
  let units = 0;
  for (const line of sorted) {
    if (line.quantity <= 0) continue;
    if (line.productType !== ProductType.PHYSICAL && line.productType !== ProductType.SERVICE) continue;
    const after = await putBack(trx, siteId, line.sku, line.quantity, { reason: 'refund', orderId });
    if (!after) continue;
    units += line.quantity;
    // Sold out until this refund: the restock service's news (src/modules/restock).
    if (after.qtyInStock === line.quantity) restocked.push({ sku: line.sku, ...after });
  }
  await recordRestocks(trx, siteId, restocked, 'refund', now);
  return units;
}

export async function setOrderStatus(db: Db, orderId: string, status: OrderStatus, now: Date): Promise<void> {
  await db.updateTable('orders').set({ status, updated_at: now.toISOString() }).where('id', '=', orderId).execute();
}

async function withLines(db: Db, row: OrderRow): Promise<Order> {
  const lines = await db
    .selectFrom('order_lines')
    .selectAll()
    .where('order_id', '=', row.id)
    .orderBy('position')
    .execute();
  return orderRowToOrder(row, lines);
}

// ---------------------------------------------------------------- the one row ↔ API mapper

function parse<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function orderRowToOrder(row: OrderRow, lines: readonly OrderLineRow[]): Order {
  const shippingOption = parse<PricedShippingOption | null>(row.shipping_option, null);
  const address = parse<ShippingAddress | null>(row.shipping_address, null);
  return {
    id: row.id,
    number: row.number,
    websiteId: row.site_id,
    email: row.email,
    status: row.status,
    currency: row.currency,
    subtotalCents: row.subtotal,
    shippingCents: row.shipping,
    taxCents: row.tax,
    discountCents: row.discount,
    grandTotalCents: row.grand_total,
    pricesIncludeTax: row.prices_include_tax === 1,
    taxName: row.tax_name,
    shippingAddress: address,
    shippingOption,
    couponCode: row.coupon_code,
    paymentProvider: row.payment_provider,
    createdAt: row.created_at,
    refundedTotalCents: Number(row.refunded_total ?? 0),
    lines: lines.map(lineRowToOrderLine),
  };
}

function lineRowToOrderLine(row: OrderLineRow): OrderLine {
  return {
    position: row.position,
    itemId: row.item_id,
    sku: row.sku,
    title: row.title,
    productType: row.product_type,
    attributes: parse<Record<string, string>>(row.attributes, {}),
    additionalFieldsSummary: parse<FormAnswerSummary[]>(row.additional_fields_summary, []),
    additionalFields: row.additional_fields,
    image: parse<{ file: string; altText: string } | null>(row.image, null),
    quantity: row.quantity,
    unitPrice: row.unit_price,
    lineTotal: row.line_total,
    refundedQuantity: Number(row.refunded_quantity ?? 0),
  };
}
