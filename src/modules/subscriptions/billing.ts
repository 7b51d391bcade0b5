/**
 * Renewals: bills what is due. Safe with several processes and runs at once — one bill per subscription per period:
 *   1. a short transaction claims the period: it inserts the bill row (UNIQUE (subscription_id, period_number), ON
 *      CONFLICT DO NOTHING) — of twenty runs at once exactly one inserts; a claim whose run died is taken over once
 *      its lease (`locked_until`) has passed;
 *   2. a sold-out period is not charged: the bill says so, the subscription moves on to the next period, the shopper
 *      is told;
 *   3. the saved payment method is charged off-session, outside any transaction, with the bill's idempotency key;
 *   4. one transaction checks the subscription is still where the claim found it (not cancelled meanwhile), takes the
 *      stock with the checkout's conditional decrement, writes the order (its cart id is unique per period: a second
 *      order for a period cannot exist), the bill, the next billing date (conditional on the period) and the e-mails
 *      — or rolls back whole and the charge is voided;
 *   5. the charge is captured.
 * A declined charge makes the subscription past due and e-mails the shopper. The payment service being unreachable
 * leaves the claim to be tried again after its lease.
 */
import { takeStock } from '../catalog';
import { storedLinkOrigin } from '../../core/linkOrigin';
import type { Kysely } from 'kysely';
import { chooseShippingOption, shippingOptionsFor } from '../../core/checkout/shipping';
import { taxRateFor } from '../../core/checkout/tax';
import { checkoutTotals } from '../../core/checkout/totals';
import type { CheckoutTotals, PricedShippingOption, ShippingAddress } from '../../core/checkout/types';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { ProductType } from '../../core/enums';
import { formatMoney } from '../../core/money';
import { err, ok } from '../../core/result';
import { afterPeriod, billingDate, billingDateText } from '../../core/subscriptionSchedule';
import { inTransaction } from '../../platform/db/transaction';
import type { Database } from '../../platform/db/tables';
import type { SubscriptionBillStatus } from './tables';
import { randomToken } from '../../platform/randomToken';
import { enqueueEmail } from '../../platform/mail/outbox';
import { enqueueNewOrderNotice } from '../orders';
import { createOrder, newOrderId } from '../orders';
import type { Order } from '../orders';
import { beginAttempt, finishAttempt, recordAttemptFailure, rememberReference } from '../payments';
import type { AuthorizeOutcome, PaymentProvider } from '../payments';
import { getSite, type Site } from '../site';
import { subscriptionEmail, type SubscriptionEmailKind } from './mail';
import { cancelPath, newCancelToken } from './links';
import { subscriptionFromRow, type Subscription } from './store';
import { leaseEnd, leaseOpen } from '../../platform/jobs/lease';

type Db = Kysely<Database>;

/** How long a run owns a claimed bill; a run that died is taken over after it. */
export const BILL_LEASE_MS = 10 * 60_000;
/** Subscriptions looked at per pass. */
const BATCH = 200;
/** Passes per run: a subscription behind by several periods catches up one period per pass. */
const MAX_PASSES = 50;

export const RENEWAL_MESSAGES = {
  noSavedPayments: 'The shop’s payment provider cannot charge saved payment methods.',
} as const;

export interface BillingContext {
  /** The site's payment provider (AppContext.paymentsFor, or paymentProviderFor with the environment's keys). */
  paymentsFor: (site: Site) => PaymentProvider;
  /** What counts as due: next_billing_at at or before this. */
  now: Date;
  /** PUBLIC_URL: the origin of the e-mails' links for the site it names (src/core/linkOrigin.ts). */
  publicUrl?: string | undefined;
}

export type BillOutcome = 'paid' | 'awaiting-payment' | 'declined' | 'sold-out' | 'failed' | 'skipped';

export interface BillingSummary {
  paid: number;
  awaitingPayment: number;
  declined: number;
  soldOut: number;
  /** The payment service failed: tried again after the lease. */
  failed: number;
  /** Claimed by another run, or no longer due. */
  skipped: number;
  /** Orders written (paid or awaiting payment). */
  orderIds: string[];
  errors: { subscriptionId: string; error: string }[];
}

/** Bills every period due at `ctx.now`. */
export async function billDueSubscriptions(db: Db, ctx: BillingContext): Promise<BillingSummary> {
  const summary: BillingSummary = {
    paid: 0,
    awaitingPayment: 0,
    declined: 0,
    soldOut: 0,
    failed: 0,
    skipped: 0,
    orderIds: [],
    errors: [],
  };
  const attempted = new Set<string>();
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const due = await db
      .selectFrom('subscriptions')
      .select(['id', 'periods_billed'])
      .where('status', '=', 'active')
      .where('next_billing_at', '<=', ctx.now.toISOString())
      .orderBy('next_billing_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    // A period tried in this run (declined, failed, claimed elsewhere) is not tried again in it.
    const fresh = due.filter((d) => !attempted.has(`${d.id}:${Number(d.periods_billed) + 1}`));
    if (fresh.length === 0) break;
    for (const { id, periods_billed } of fresh) {
      attempted.add(`${id}:${Number(periods_billed) + 1}`);
      try {
        const outcome = await billSubscription(db, id, ctx);
        count(summary, outcome);
      } catch (error) {
        summary.errors.push({ subscriptionId: id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return summary;
}

function count(summary: BillingSummary, outcome: { outcome: BillOutcome; orderId?: string }): void {
  const keys: Record<BillOutcome, keyof Omit<BillingSummary, 'orderIds' | 'errors'>> = {
    paid: 'paid',
    'awaiting-payment': 'awaitingPayment',
    declined: 'declined',
    'sold-out': 'soldOut',
    failed: 'failed',
    skipped: 'skipped',
  };
  summary[keys[outcome.outcome]] += 1;
  if (outcome.orderId) summary.orderIds.push(outcome.orderId);
}

interface Claim {
  subscription: Subscription;
  billId: string;
  period: number;
}

/** Bills the next period of one subscription if it is due and no other run has it. */
export async function billSubscription(
  db: Db,
  subscriptionId: string,
  ctx: BillingContext,
): Promise<{ outcome: BillOutcome; orderId?: string }> {
  const { now } = ctx;
  const claimed = await claimPeriod(db, subscriptionId, now);
  if (!claimed) return { outcome: 'skipped' };
  const { billId, period } = claimed;
  const site = await getSite(db, claimed.subscription.siteId);
  if (!site) return { outcome: 'skipped' };
  // The e-mails' links: the stored origin when it is the site's own address, else the site's address now (rows stored
  // before issue 23 hold the Host of the request that placed them, which a client could forge).
  const sub: Subscription = {
    ...claimed.subscription,
    baseUrl: storedLinkOrigin(claimed.subscription.baseUrl, site.domains, ctx.publicUrl),
  };
  const timeZone = site.settings.timeZone;
  const currency = parseCurrencyCode(sub.currency) ?? DEFAULT_CURRENCY;
  const priced = renewalTotals(site, sub);

  if (!(await inStock(db, sub))) {
    await skipSoldOut(db, site, sub, billId, period, now);
    return { outcome: 'sold-out' };
  }

  const payments = ctx.paymentsFor(site);
  const amount = priced.totals.grandTotalCents;
  const attempt = (
    await beginAttempt(db, {
      siteId: site.id,
      idempotencyKey: `renewal:${billId}`,
      requestHash: `renewal:${sub.id}:${period}`,
      cartId: renewalCartId(sub.id, period),
      provider: payments.name,
      amount,
      currency,
      now: new Date(),
    })
  ).attempt;
  const charged: AuthorizeOutcome = payments.chargeSavedMethod
    ? await payments.chargeSavedMethod({
        amount,
        currency,
        idempotencyKey: `renewal:${billId}`,
        token: sub.paymentMethod,
        email: sub.email,
        description: `${site.title} — subscription renewal`,
        now,
      })
    : { status: 'declined', message: RENEWAL_MESSAGES.noSavedPayments };

  if (charged.status === 'failed') {
    await recordAttemptFailure(
      db,
      attempt.id,
      'failed',
      { type: 'PAYMENT_FAILED', message: charged.message },
      new Date(),
    );
    // The claim stays, and is taken over after its lease by a later run.
    return { outcome: 'failed' };
  }
  if (charged.status === 'declined') {
    await recordAttemptFailure(
      db,
      attempt.id,
      'declined',
      { type: 'PAYMENT_DECLINED', message: charged.message },
      new Date(),
    );
    await inTransaction(db, async (trx) => {
      await setBill(trx, billId, 'declined', amount, null, now);
      const moved = await trx
        .updateTable('subscriptions')
        .set({ status: 'past_due', updated_at: now.toISOString() })
        .where('id', '=', sub.id)
        .where('status', '=', 'active')
        .where('periods_billed', '=', period - 1)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) > 0) await sendEmail(trx, site, sub, 'declined', { next: null, now });
      return ok(undefined);
    });
    return { outcome: 'declined' };
  }
  await rememberReference(db, attempt.id, charged.reference);

  const awaiting = charged.status === 'awaiting-payment';
  const written = await inTransaction<Order, 'sold-out' | 'ended'>(db, async (trx) => {
    // One guarded update, first: it locks the row (PostgreSQL), so a pause or cancel racing this renewal either
    // happened before (nothing matches: no order, the charge is voided) or waits for this commit.
    const current = await trx
      .updateTable('subscriptions')
      .set({ updated_at: now.toISOString() })
      .where('id', '=', sub.id)
      .where('status', '=', 'active')
      .where('periods_billed', '=', period - 1)
      .returning('id')
      .executeTakeFirst();
    if (!current) return err('ended');
    const orderId = newOrderId();
    const order = await createOrder(trx, {
      id: orderId,
      siteId: site.id,
      cartId: renewalCartId(sub.id, period),
      email: sub.email,
      status: awaiting ? 'awaiting-payment' : 'paid',
      currency: sub.currency,
      totals: priced.totals,
      shippingAddress: sub.shippingAddress as ShippingAddress | null,
      shippingOption: priced.shippingOption,
      couponCode: null,
      paymentProvider: payments.name,
      lines: [
        { ...sub.line, quantity: sub.quantity, unitPrice: sub.unitPrice, lineTotal: sub.unitPrice * sub.quantity },
      ],
      now,
    });
    await setBill(trx, billId, awaiting ? 'awaiting-payment' : 'paid', amount, order.id, now);
    const { next } = await advance(trx, sub, period, timeZone);
    await finishAttempt(
      trx,
      attempt.id,
      { status: awaiting ? 'awaiting-payment' : 'authorized', orderId: order.id, reference: charged.reference },
      new Date(),
    );
    const orderUrl = sub.baseUrl + orderPath(order.id);
    await sendEmail(trx, site, sub, 'renewed', {
      next,
      now,
      order: {
        number: order.number,
        url: orderUrl,
        total: formatMoney({ minorUnits: order.grandTotalCents, currency }),
        awaitingPayment: awaiting,
      },
      orderId: order.id,
    });
    // Sent as soon as the outbox runs, whatever date the bill was made for (`bill --now` a day ahead bills now).
    await enqueueNewOrderNotice(trx, site, order, orderUrl);
    // Last, as a checkout takes its stock (checkout.ts placeOrder): after the site's order counter, so that the two
    // never each hold a row the other waits for, and a best seller's row is held for the fewest round trips.
    if (!(await takeUnits(trx, sub, orderId))) return err('sold-out');
    return ok(order);
  });

  if (!written.ok) {
    const voided = await payments.void(charged.reference, `renewal:${billId}:void`);
    await recordAttemptFailure(
      db,
      attempt.id,
      voided.ok ? 'voided' : 'failed',
      { type: 'OUT_OF_STOCK', message: written.error },
      new Date(),
      charged.reference,
    );
    if (written.error === 'sold-out') {
      await skipSoldOut(db, site, sub, billId, period, now);
      return { outcome: 'sold-out' };
    }
    await db.deleteFrom('subscription_bills').where('id', '=', billId).where('status', '=', 'pending').execute();
    return { outcome: 'skipped' };
  }
  if (charged.status === 'authorized') {
    const captured = await payments.capture(charged.reference, amount, `renewal:${billId}:capture`);
    if (captured.ok) await finishAttempt(db, attempt.id, { status: 'captured' }, new Date());
  }
  return { outcome: awaiting ? 'awaiting-payment' : 'paid', orderId: written.value.id };
}

const renewalCartId = (subscriptionId: string, period: number): string => `subscription:${subscriptionId}:${period}`;
const orderPath = (orderId: string): string => `/checkout/order/${orderId}`;

/** Claims the next period of an active, due subscription; undefined when it is not due or another run holds it. */
async function claimPeriod(db: Db, subscriptionId: string, now: Date): Promise<Claim | undefined> {
  const claimed = await inTransaction<Claim, 'none'>(db, async (trx) => {
    const row = await trx
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', subscriptionId)
      .where('status', '=', 'active')
      .where('next_billing_at', '<=', now.toISOString())
      .executeTakeFirst();
    if (!row) return err('none');
    const period = Number(row.periods_billed) + 1;
    const stamp = now.toISOString();
    const lease = leaseEnd(now, BILL_LEASE_MS);
    const inserted = await trx
      .insertInto('subscription_bills')
      .values({
        id: randomToken(16),
        subscription_id: row.id,
        period_number: period,
        status: 'pending',
        amount: 0,
        order_id: null,
        locked_until: lease,
        created_at: stamp,
        updated_at: stamp,
      })
      .onConflict((oc) => oc.columns(['subscription_id', 'period_number']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return ok({ subscription: subscriptionFromRow(row), billId: inserted.id, period });
    // A claim whose run died (still pending after its lease) is taken over.
    const taken = await trx
      .updateTable('subscription_bills')
      .set({ locked_until: lease, updated_at: stamp })
      .where('subscription_id', '=', row.id)
      .where('period_number', '=', period)
      .where('status', '=', 'pending')
      .where(leaseOpen(now))
      .returning('id')
      .executeTakeFirst();
    return taken ? ok({ subscription: subscriptionFromRow(row), billId: taken.id, period }) : err('none');
  });
  return claimed.ok ? claimed.value : undefined;
}

/** Whether the goods and services of a subscription count stock (digital goods and gift cards never run out). */
const countsStock = (sub: Subscription): boolean =>
  sub.line.productType === ProductType.PHYSICAL || sub.line.productType === ProductType.SERVICE;

async function inStock(db: Db, sub: Subscription): Promise<boolean> {
  if (!countsStock(sub)) return true;
  const row = await db
    .selectFrom('variants')
    .select(['unlimited', 'qty_in_stock'])
    .where('site_id', '=', sub.siteId)
    .where('sku', '=', sub.sku)
    .executeTakeFirst();
  return row !== undefined && (row.unlimited === 1 || Number(row.qty_in_stock) >= sub.quantity);
}

/** The renewal's units, taken as an order takes them (the catalog's takeStock). */
async function takeUnits(trx: Db, sub: Subscription, orderId: string): Promise<boolean> {
  if (!countsStock(sub)) return true;
  return takeStock(trx, sub.siteId, sub.sku, sub.quantity, { reason: 'renewal', orderId });
}

async function skipSoldOut(
  db: Db,
  site: Site,
  sub: Subscription,
  billId: string,
  period: number,
  now: Date,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const moved = await advance(trx, sub, period, site.settings.timeZone);
    if (!moved.advanced) {
      // Paused or cancelled meanwhile: the period was not passed over, so its claim goes (a resume bills it).
      await trx.deleteFrom('subscription_bills').where('id', '=', billId).where('status', '=', 'pending').execute();
      return ok(undefined);
    }
    await setBill(trx, billId, 'sold-out', 0, null, now);
    await sendEmail(trx, site, sub, 'sold-out', { next: moved.next, now });
    return ok(undefined);
  });
}

/**
 * Moves an active subscription past `period`: the next billing date, or completed after its last cycle (a guarded
 * update: a subscription paused or cancelled meanwhile does not move). Returns whether it moved and the next date.
 */
async function advance(
  trx: Db,
  sub: Subscription,
  period: number,
  timeZone: string,
): Promise<{ advanced: boolean; next: Date | null }> {
  const next = nextBillingAfter(sub, period, timeZone);
  const moved = await trx
    .updateTable('subscriptions')
    .set({
      periods_billed: period,
      next_billing_at: next ? next.toISOString() : null,
      status: next ? 'active' : 'completed',
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', sub.id)
    .where('status', '=', 'active')
    .where('periods_billed', '=', period - 1)
    .executeTakeFirst();
  return { advanced: Number(moved.numUpdatedRows) > 0, next };
}

/** When a subscription bills after `period` (billed or skipped): null when that was its last cycle. */
export function nextBillingAfter(sub: Subscription, period: number, timeZone: string): Date | null {
  const { completed, nextPeriod } = afterPeriod(period, sub.plan?.numBillingCycles ?? null);
  return completed || !sub.plan
    ? null
    : billingDate(new Date(sub.startedAt), sub.plan.billingPeriod, nextPeriod, timeZone);
}

async function setBill(
  trx: Db,
  billId: string,
  status: SubscriptionBillStatus,
  amount: number,
  orderId: string | null,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('subscription_bills')
    .set({ status, amount, order_id: orderId, locked_until: null, updated_at: now.toISOString() })
    .where('id', '=', billId)
    .execute();
}

async function sendEmail(
  trx: Db,
  site: Site,
  sub: Subscription,
  kind: SubscriptionEmailKind,
  details: {
    next: Date | null;
    now: Date;
    order?: { number: number; url: string; total: string; awaitingPayment: boolean };
    orderId?: string;
  },
): Promise<void> {
  const token = await newCancelToken(trx, sub.id, details.now);
  const email = subscriptionEmail(kind, sub, {
    siteTitle: site.title,
    cancelUrl: sub.baseUrl + cancelPath(token),
    ...(details.order ? { order: details.order } : {}),
    nextBilling: details.next ? billingDateText(details.next, site.settings.timeZone) : null,
  });
  // Sent as soon as the outbox runs, whatever date the bill was made for (`bill --now` a day ahead bills now).
  await enqueueEmail(
    trx,
    { siteId: site.id, kind: `subscription-${kind}`, to: sub.email, ...email, orderId: details.orderId ?? null },
    new Date(),
  );
}

/**
 * A renewal's totals with the core's checkout rules and the shop's settings now: the period's price, the shipping
 * option chosen at checkout (or the first one offered for the address), tax for the address. No coupon.
 */
export function renewalTotals(
  site: Site,
  sub: Subscription,
): { totals: CheckoutTotals; shippingOption: PricedShippingOption | null } {
  const settings = site.settings.store.checkout;
  const subtotalCents = sub.unitPrice * sub.quantity;
  const address = sub.shippingAddress;
  const country = address?.country;
  const shippingOption = address
    ? chooseShippingOption(
        shippingOptionsFor(settings.shippingOptions, country, subtotalCents, address.postalCode),
        sub.shippingOptionId,
      )
    : null;
  const totals = checkoutTotals({
    subtotalCents,
    discountCents: 0,
    shipping: shippingOption,
    taxRate:
      country === undefined
        ? undefined
        : taxRateFor(settings.tax.rates, country, (address?.region ?? '').toUpperCase()),
    pricesIncludeTax: settings.tax.pricesIncludeTax,
    taxShipping: settings.tax.taxShipping,
  });
  return { totals, shippingOption };
}
