/**
 * Subscriptions as the rest of the code sees them: reading, listing and cancelling. Rows are mapped in one place.
 */
import type { Kysely } from 'kysely';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { storedPlan, planPriceText, type SubscriptionPlan } from '../../core/subscriptionPlan';
import type { SubscriptionStatus } from '../../core/subscriptionSchedule';
import type { Database } from '../../platform/db/tables';
import type { SubscriptionBillStatus, SubscriptionRow } from './tables';
import type { OrderLine } from '../orders';

type Db = Kysely<Database>;

export interface Subscription {
  id: string;
  siteId: string;
  status: SubscriptionStatus;
  email: string;
  itemId: string;
  sku: string;
  quantity: number;
  unitPrice: number;
  currency: string;
  line: Omit<OrderLine, 'position'>;
  subscriptionOptionId: string | null;
  plan: SubscriptionPlan | null;
  /** '$13.00 every 2 weeks' (the price being the unit price times the quantity). */
  planText: string;
  shippingAddress: Record<string, string> | null;
  shippingOptionId: string | null;
  paymentProvider: string;
  paymentMethod: string;
  firstOrderId: string;
  baseUrl: string;
  periodsBilled: number;
  startedAt: string;
  nextBillingAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
}

export interface SubscriptionBill {
  periodNumber: number;
  status: SubscriptionBillStatus;
  amount: number;
  orderId: string | null;
  orderNumber: number | null;
  createdAt: string;
}

export function subscriptionFromRow(row: SubscriptionRow): Subscription {
  const plan = storedPlan(row.billing_unit, Number(row.billing_value), Number(row.num_billing_cycles));
  const currency = parseCurrencyCode(row.currency) ?? DEFAULT_CURRENCY;
  const perPeriod = Number(row.unit_price) * Number(row.quantity);
  return {
    id: row.id,
    siteId: row.site_id,
    status: row.status,
    email: row.email,
    itemId: row.item_id,
    sku: row.sku,
    quantity: Number(row.quantity),
    unitPrice: Number(row.unit_price),
    currency: row.currency,
    line: JSON.parse(row.line) as Omit<OrderLine, 'position'>,
    subscriptionOptionId: row.subscription_option_id,
    plan,
    planText: plan
      ? planPriceText(plan, { minorUnits: perPeriod, currency })
      : planPriceText({ billingPeriod: null }, null),
    shippingAddress:
      row.shipping_address === null ? null : (JSON.parse(row.shipping_address) as Record<string, string>),
    shippingOptionId: row.shipping_option_id,
    paymentProvider: row.payment_provider,
    paymentMethod: row.payment_method,
    firstOrderId: row.first_order_id,
    baseUrl: row.base_url,
    periodsBilled: Number(row.periods_billed),
    startedAt: row.started_at,
    nextBillingAt: row.next_billing_at,
    cancelledAt: row.cancelled_at,
    createdAt: row.created_at,
  };
}

export async function getSubscription(db: Db, id: string, siteId?: string): Promise<Subscription | undefined> {
  let query = db.selectFrom('subscriptions').selectAll().where('id', '=', id);
  if (siteId !== undefined) query = query.where('site_id', '=', siteId);
  const row = await query.executeTakeFirst();
  return row && subscriptionFromRow(row);
}

export async function getSubscriptionByFirstOrder(
  db: Db,
  siteId: string,
  orderId: string,
): Promise<Subscription | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('first_order_id', '=', orderId)
    .executeTakeFirst();
  return row && subscriptionFromRow(row);
}

/** The subscription an order belongs to (its first period, or a renewal); undefined for an order of the cart. */
export async function subscriptionOfOrder(db: Db, siteId: string, orderId: string): Promise<Subscription | undefined> {
  // Two indexed lookups (by first order, then by a renewal bill's order) rather than one OR that reads every subscription.
  const first = await getSubscriptionByFirstOrder(db, siteId, orderId);
  if (first) return first;
  const row = await db
    .selectFrom('subscription_bills as b')
    .innerJoin('subscriptions as s', 's.id', 'b.subscription_id')
    .selectAll('s')
    .where('b.order_id', '=', orderId)
    .where('s.site_id', '=', siteId)
    .executeTakeFirst();
  return row && subscriptionFromRow(row);
}

export async function listSubscriptions(
  db: Db,
  filter: { siteId?: string; status?: SubscriptionStatus; limit?: number; offset?: number } = {},
): Promise<Subscription[]> {
  let query = db
    .selectFrom('subscriptions')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(filter.limit ?? 100)
    .$if((filter.offset ?? 0) > 0, (q) => q.offset(filter.offset!));
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return (await query.execute()).map(subscriptionFromRow);
}

export async function listBills(db: Db, subscriptionId: string): Promise<SubscriptionBill[]> {
  const rows = await db
    .selectFrom('subscription_bills as b')
    .leftJoin('orders as o', 'o.id', 'b.order_id')
    .select(['b.period_number', 'b.status', 'b.amount', 'b.order_id', 'b.created_at', 'o.number'])
    .where('b.subscription_id', '=', subscriptionId)
    .orderBy('b.period_number')
    .execute();
  return rows.map((r) => ({
    periodNumber: Number(r.period_number),
    status: r.status,
    amount: Number(r.amount),
    orderId: r.order_id,
    orderNumber: r.number === null ? null : Number(r.number),
    createdAt: r.created_at,
  }));
}

export type CancelOutcome =
  | { cancelled: true; subscription: Subscription }
  | { cancelled: false; reason: 'not-found' | 'already-ended'; subscription?: Subscription };

/**
 * Cancels an active, past-due or paused subscription (a conditional update: a bill being written at the same moment sees the
 * status and rolls back). Cancelling again, or a completed one, changes nothing.
 */
export async function cancelSubscription(db: Db, id: string, now: Date, siteId?: string): Promise<CancelOutcome> {
  let update = db
    .updateTable('subscriptions')
    .set({ status: 'cancelled', next_billing_at: null, cancelled_at: now.toISOString(), updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', ['active', 'past_due', 'paused']);
  if (siteId !== undefined) update = update.where('site_id', '=', siteId);
  const row = await update.returningAll().executeTakeFirst();
  if (row) return { cancelled: true, subscription: subscriptionFromRow(row) };
  const existing = await getSubscription(db, id, siteId);
  return existing
    ? { cancelled: false, reason: 'already-ended', subscription: existing }
    : { cancelled: false, reason: 'not-found' };
}
