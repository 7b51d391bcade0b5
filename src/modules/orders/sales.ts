/**
 * The shop's sales over a range of UTC days, read from the orders (never from browser events): what the report
 * (src/modules/analytics/report.ts) and the owner's pages show. Amounts are integer minor units of `currency`.
 *
 * What counts, as a shop owner reads it:
 *   - an order is a sale on the day it was placed once it is paid: status 'paid', or 'refunded' (paid, then given
 *     back). An order still 'awaiting-payment' (a manual payment not received yet) is not revenue: it is listed apart.
 *   - gross sales: the totals (shipping and tax included, discounts taken off) of those orders.
 *   - a refund counts on the day it was made, for what it gave back (each succeeded `refunds` row: a line, some
 *     units, an amount, a cancel; an order refunded whole before refunds were kept one by one counts on its last
 *     change, for its total): the refunds of a range may be of orders placed before it. Net sales are gross sales
 *     less refunds; the refunds' order count counts an order once.
 *     (A manual order refunded before it was ever paid shows as an order and its refund: net nothing.)
 *   - average order: gross sales per order.
 *   - top products: units and line totals (before discounts) of the paid orders placed in the range, refunded ones
 *     left out, by product.
 * Orders in another currency than `currency` (the site changed its currency) are counted apart, not added.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

type Db = Kysely<Database>;

export interface SalesDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  orders: number;
  grossSales: number;
  refunds: number;
  netSales: number;
}

export interface SalesSummary {
  currency: string;
  /** First and last day of the range, YYYY-MM-DD (UTC), both included. */
  from: string;
  to: string;
  orders: number;
  grossSales: number;
  refunds: { orders: number; amount: number };
  netSales: number;
  /** Gross sales per order, rounded to a minor unit; null without orders. */
  averageOrder: number | null;
  awaitingPayment: { orders: number; amount: number };
  /** Days with an order or a refund, oldest first. */
  daily: SalesDay[];
  topProducts: { itemId: string; title: string; units: number; sales: number }[];
  /** Orders placed in the range in another currency (not in the figures above). */
  otherCurrencyOrders: number;
}

const TOP_PRODUCTS = 10;
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The day after `day` (YYYY-MM-DD, UTC). */
const nextDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The sales of site `siteId` from day `from` to day `to` (YYYY-MM-DD, UTC, both included), in `currency`. */
export async function salesSummary(
  db: Db,
  siteId: string,
  from: string,
  to: string,
  currency: string,
): Promise<SalesSummary> {
  if (!DAY.test(from) || !DAY.test(to)) throw new Error(`salesSummary: days must be YYYY-MM-DD, not ${from}, ${to}`);
  // ISO-8601 UTC texts compare as their instants: [from, the day after to).
  const end = nextDay(to);
  const day = (column: 'created_at' | 'updated_at') => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

  const placed = await db
    .selectFrom('orders')
    .select([
      day('created_at').as('day'),
      'status',
      'currency',
      (eb) => eb.fn.countAll<string | number>().as('orders'),
      (eb) => eb.fn.sum<string | number>('grand_total').as('total'),
    ])
    .where('site_id', '=', siteId)
    .where('created_at', '>=', from)
    .where('created_at', '<', end)
    .groupBy([day('created_at'), 'status', 'currency'])
    .execute();

  // Refunds by the day they were made, whenever the order was placed: each refund that succeeded (by line, quantity
  // or amount, issue 25), and an order refunded whole before refunds were kept one by one (migration 019): its last
  // change, for its total.
  const given = await db
    .selectFrom('refunds')
    .innerJoin('orders', 'orders.id', 'refunds.order_id')
    .select([sql<string>`substr(refunds.created_at, 1, 10)`.as('day'), 'refunds.order_id', 'refunds.amount'])
    .where('refunds.site_id', '=', siteId)
    .where('refunds.status', '=', 'succeeded')
    .where('refunds.created_at', '>=', from)
    .where('refunds.created_at', '<', end)
    .where('orders.currency', '=', currency)
    .execute();
  const refundedWhole = await db
    .selectFrom('orders')
    .select([
      day('updated_at').as('day'),
      (eb) => eb.fn.countAll<string | number>().as('orders'),
      (eb) => eb.fn.sum<string | number>('grand_total').as('total'),
    ])
    .where('site_id', '=', siteId)
    .where('status', '=', 'refunded')
    .where('currency', '=', currency)
    .where('updated_at', '>=', from)
    .where('updated_at', '<', end)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('refunds').select('refunds.id').whereRef('refunds.order_id', '=', 'orders.id'))),
    )
    .groupBy(day('updated_at'))
    .execute();

  const products = await db
    .selectFrom('order_lines')
    .innerJoin('orders', 'orders.id', 'order_lines.order_id')
    .select([
      'order_lines.item_id as itemId',
      (eb) => eb.fn.max('order_lines.title').as('title'),
      (eb) => eb.fn.sum<string | number>('order_lines.quantity').as('units'),
      (eb) => eb.fn.sum<string | number>('order_lines.line_total').as('sales'),
    ])
    .where('orders.site_id', '=', siteId)
    .where('orders.status', '=', 'paid')
    .where('orders.currency', '=', currency)
    .where('orders.created_at', '>=', from)
    .where('orders.created_at', '<', end)
    .groupBy('order_lines.item_id')
    .execute();

  const days = new Map<string, SalesDay>();
  const dayOf = (d: string) => {
    let entry = days.get(d);
    if (!entry) {
      entry = { day: d, orders: 0, grossSales: 0, refunds: 0, netSales: 0 };
      days.set(d, entry);
    }
    return entry;
  };
  let orders = 0;
  let grossSales = 0;
  let otherCurrencyOrders = 0;
  const awaitingPayment = { orders: 0, amount: 0 };
  for (const row of placed) {
    const count = num(row.orders);
    const total = num(row.total);
    if (row.currency !== currency) otherCurrencyOrders += count;
    else if (row.status === 'awaiting-payment') {
      awaitingPayment.orders += count;
      awaitingPayment.amount += total;
    } else {
      orders += count;
      grossSales += total;
      const entry = dayOf(row.day);
      entry.orders += count;
      entry.grossSales += total;
    }
  }
  const refunds = { orders: 0, amount: 0 };
  for (const row of refundedWhole) {
    const total = num(row.total);
    refunds.orders += num(row.orders);
    refunds.amount += total;
    dayOf(row.day).refunds += total;
  }
  // An order refunded in parts within the range counts once.
  refunds.orders += new Set(given.map((r) => r.order_id)).size;
  for (const row of given) {
    refunds.amount += num(row.amount);
    dayOf(row.day).refunds += num(row.amount);
  }
  for (const entry of days.values()) entry.netSales = entry.grossSales - entry.refunds;

  return {
    currency,
    from,
    to,
    orders,
    grossSales,
    refunds,
    netSales: grossSales - refunds.amount,
    averageOrder: orders > 0 ? Math.round(grossSales / orders) : null,
    awaitingPayment,
    daily: [...days.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)),
    topProducts: products
      .map((p) => ({ itemId: p.itemId, title: String(p.title ?? p.itemId), units: num(p.units), sales: num(p.sales) }))
      .sort((a, b) => b.sales - a.sales || b.units - a.units || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
      .slice(0, TOP_PRODUCTS),
    otherCurrencyOrders,
  };
}
