/**
 * Refunds (issue 25): by line and quantity or by an amount, with a reason, optionally putting the units back in stock;
 * the whole order (`vitrine orders refund N`); and cancelling an order (everything left, restocked).
 *
 * Money moves once, as at checkout (src/modules/payments/attempts.ts):
 * 1. one transaction writes the refund row (pending) under the request's idempotency key — unique per site, so the
 *    same key again finds this refund and answers it, never a second one — and reserves what it gives back as deltas
 *    guarded in the same statements: `orders.refunded_total + amount <= grand_total`, each line's
 *    `refunded_quantity + quantity <= quantity`. Refunds made at once never exceed the order: the one that would is
 *    refused before any provider is called;
 * 2. the payment provider is called outside any transaction, with a key derived from the refund's id;
 * 3. one transaction records the outcome: succeeded (stock put back, the order 'refunded' once nothing is left, the
 *    audit entry, the customer's e-mail) or refused (the reservation given back, the provider's message kept).
 *
 * What goes back where: the payment provider took what the gift cards did not pay, so a refund goes back to the card
 * first (the first `payment.amount` refunded), and what is beyond it goes back to the gift cards when the order is
 * fully refunded. An order whose money was not taken (a manual payment awaiting payment) can only be refunded whole
 * (or cancelled): its payment is released.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { paymentState, type PaymentState } from '../../core/orderStates';
import { lineRefundAmount, refundableLeft, refundAmount, type RefundableOrder } from '../../core/refundAmount';
import { parseCurrencyCode, type CurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import { enqueueEmail } from '../../platform/mail/outbox';
import { randomToken } from '../../platform/randomToken';
import { recordAudit, type Actor } from '../admin';
import { returnGiftCardsOfOrder } from '../giftCards';
import { finishAttempt, paymentOfOrder, type PaymentAttempt, type PaymentProvider } from '../payments';
import { getSite } from '../site';
import { refundEmail } from './mail';
import { getOrderByNumber, restockLines } from './orders';
import type { Order } from './orderTypes';
import type { RefundRow } from './tables';

type Db = Kysely<Database>;

export interface RefundLineRequest {
  position: number;
  quantity: number;
}

export interface RefundRequest {
  /** One per press of the button (the page's hidden field, the API's Idempotency-Key): the same key is the same refund. */
  idempotencyKey: string;
  /** Units of lines to refund (their amount: src/core/refundAmount.ts). */
  lines?: readonly RefundLineRequest[];
  /** An amount to refund besides the lines (shipping, a goodwill amount), in minor units. */
  amount?: number;
  /** Everything left (the whole order; a cancel). */
  all?: boolean;
  reason: string;
  /** Put the refunded units back in stock. */
  restock: boolean;
  /** Cancel the order: everything left, restocked. */
  cancel?: boolean;
  actor: Actor;
}

export interface Refund {
  id: string;
  orderNumber: number;
  amountCents: number;
  currency: string;
  reason: string;
  restock: boolean;
  lines: RefundLineRequest[] | null;
  cancel: boolean;
  status: 'pending' | 'succeeded' | 'failed';
  createdAt: string;
  createdBy: string;
}

export interface RefundOutcome {
  refund: Refund;
  /** The order's payment state after it. */
  paymentState: PaymentState;
  refundedTotalCents: number;
  /** True when the key was used before: this is that refund, nothing was done again. */
  repeated: boolean;
}

export type RefundFailure = {
  type:
    | 'ORDER_NOT_FOUND'
    | 'ALREADY_REFUNDED'
    | 'NOTHING_TO_REFUND'
    | 'TOO_MUCH'
    | 'INVALID'
    | 'KEY_REUSED'
    | 'IN_PROGRESS'
    | 'NOT_PAID'
    | 'NOT_CANCELABLE'
    | 'PROVIDER_REFUSED';
  message: string;
};

export const REFUND_REASON_MAX_LENGTH = 500;

const moneyOf = (order: Pick<Order, 'currency'>, minorUnits: number): string =>
  formatMoney({ minorUnits, currency: parseCurrencyCode(order.currency) ?? (order.currency as CurrencyCode) });

const refundable = (order: Order): RefundableOrder => ({
  subtotal: order.subtotalCents,
  discount: order.discountCents,
  tax: order.taxCents,
  shipping: order.shippingCents,
  pricesIncludeTax: order.pricesIncludeTax,
  grandTotal: order.grandTotalCents,
  refundedTotal: order.refundedTotalCents,
});

const requestHash = (request: RefundRequest): string =>
  createHash('sha256')
    .update(
      JSON.stringify({
        lines: request.all ? null : [...(request.lines ?? [])].sort((a, b) => a.position - b.position),
        amount: request.all ? null : (request.amount ?? 0),
        all: request.all === true,
        reason: request.reason.trim(),
        restock: request.restock,
        cancel: request.cancel === true,
      }),
    )
    .digest('hex');

function rowToRefund(row: RefundRow, order: Pick<Order, 'number' | 'currency'>): Refund {
  return {
    id: row.id,
    orderNumber: order.number,
    amountCents: Number(row.amount),
    currency: order.currency,
    reason: row.reason,
    restock: row.restock === 1,
    lines: row.lines === null ? null : (JSON.parse(row.lines) as RefundLineRequest[]),
    cancel: row.cancel === 1,
    status: row.status,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

/** An order's refunds, oldest first (the order page's "Payments and refunds"). */
export async function listRefunds(db: Db, order: Pick<Order, 'id' | 'number' | 'currency'>): Promise<Refund[]> {
  const rows = await db
    .selectFrom('refunds')
    .selectAll()
    .where('order_id', '=', order.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => rowToRefund(row, order));
}

const WAIT_MS = 20_000;
const POLL_MS = 40;

/** The answer to a key used before: that refund (waiting while it is pending), or why the key cannot be reused. */
async function answerExisting(
  db: Db,
  siteId: string,
  request: RefundRequest,
  hash: string,
  orderNumber: number,
): Promise<Result<RefundOutcome, RefundFailure>> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await db
      .selectFrom('refunds')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('idempotency_key', '=', request.idempotencyKey)
      .executeTakeFirstOrThrow();
    const order = await getOrderByNumber(db, siteId, orderNumber);
    if (!order || row.order_id !== order.id || row.request_hash !== hash)
      return err({
        type: 'KEY_REUSED',
        message: 'This refund key was used for another refund. Reload the page and try again.',
      });
    if (row.status === 'failed')
      return err({ type: 'PROVIDER_REFUSED', message: row.failure ?? 'The payment provider refused the refund.' });
    if (row.status === 'succeeded')
      return ok({
        refund: rowToRefund(row, order),
        paymentState: paymentState(order.status, order.refundedTotalCents, order.grandTotalCents),
        refundedTotalCents: order.refundedTotalCents,
        repeated: true,
      });
    if (Date.now() > deadline)
      return err({ type: 'IN_PROGRESS', message: 'This refund is still being made. Reload the page in a moment.' });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What refunding the request takes: the lines' units (checked against what is left of each) and the amount. */
function plan(
  order: Order,
  request: RefundRequest,
): Result<{ lines: RefundLineRequest[]; amount: number }, RefundFailure> {
  const reason = request.reason.trim();
  if (reason === '') return err({ type: 'INVALID', message: 'Please say why you are refunding.' });
  if (reason.length > REFUND_REASON_MAX_LENGTH)
    return err({ type: 'INVALID', message: `Please keep the reason under ${REFUND_REASON_MAX_LENGTH} characters.` });
  const left = refundableLeft(refundable(order));
  if (order.status === 'refunded' || left === 0)
    return err({ type: 'ALREADY_REFUNDED', message: `Order #${order.number} is already refunded.` });
  if (request.all) {
    const lines = order.lines
      .map((l) => ({ position: l.position, quantity: l.quantity - l.refundedQuantity }))
      .filter((l) => l.quantity > 0);
    return ok({ lines, amount: left });
  }
  const lines: RefundLineRequest[] = [];
  const seen = new Set<number>();
  for (const asked of request.lines ?? []) {
    if (asked.quantity === 0) continue;
    const line = order.lines.find((l) => l.position === asked.position);
    if (!line || seen.has(asked.position) || !Number.isSafeInteger(asked.quantity) || asked.quantity < 0)
      return err({ type: 'INVALID', message: `Order #${order.number} has no line ${asked.position + 1} to refund.` });
    seen.add(asked.position);
    const unitsLeft = line.quantity - line.refundedQuantity;
    if (asked.quantity > unitsLeft)
      return err({
        type: 'TOO_MUCH',
        message:
          unitsLeft === 0
            ? `Every unit of ${line.title} is already refunded.`
            : `Only ${unitsLeft} of ${line.title} ${unitsLeft === 1 ? 'is' : 'are'} left to refund.`,
      });
    lines.push({ position: asked.position, quantity: asked.quantity });
  }
  const extra = request.amount ?? 0;
  if (!Number.isSafeInteger(extra) || extra < 0)
    return err({ type: 'INVALID', message: 'Please enter an amount above zero, like 12.50.' });
  const asked =
    lines.reduce((sum, l) => sum + lineRefundAmount(refundable(order), order.lines[l.position]!, l.quantity), 0) +
    extra;
  if (asked === 0)
    return err({ type: 'NOTHING_TO_REFUND', message: 'Choose the units to refund, or enter an amount.' });
  // An amount asked for on its own is never cut down: it is refused when it is more than is left.
  if (extra > 0 && asked > left)
    return err({
      type: 'TOO_MUCH',
      message: `Order #${order.number} has only ${moneyOf(order, left)} left to refund; ${moneyOf(order, asked)} is more.`,
    });
  const amount = refundAmount(
    refundable(order),
    lines.map((l) => ({ line: order.lines.find((x) => x.position === l.position)!, quantity: l.quantity })),
    extra,
  );
  return ok({ lines, amount });
}

export interface RefundContext {
  siteId: string;
  siteTitle: string;
  provider: PaymentProvider;
  now?: Date;
}

/** Refunds part (or all) of order `orderNumber` as `request` asks; see the top of this file. */
export async function refundOrderPart(
  db: Db,
  ctx: RefundContext,
  orderNumber: number,
  request: RefundRequest,
): Promise<Result<RefundOutcome, RefundFailure>> {
  const { siteId } = ctx;
  const now = ctx.now ?? new Date();
  const key = request.idempotencyKey.trim();
  if (key === '' || key.length > 200)
    return err({ type: 'INVALID', message: 'A refund needs an idempotency key of 1 to 200 characters.' });
  const hash = requestHash(request);
  const order = await getOrderByNumber(db, siteId, orderNumber);
  if (!order) return err({ type: 'ORDER_NOT_FOUND', message: `There is no order #${orderNumber}.` });

  const known = await db
    .selectFrom('refunds')
    .select('id')
    .where('site_id', '=', siteId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (known) return answerExisting(db, siteId, { ...request, idempotencyKey: key }, hash, orderNumber);

  const planned = plan(order, request);
  if (!planned.ok) return planned;
  const { lines, amount } = planned.value;
  const payment = await paymentOfOrder(db, order.id);
  const taken = payment?.status === 'captured' || payment?.status === 'refunded';
  const released = payment !== undefined && !taken && payment.status !== 'voided';
  if (released && !request.all)
    return err({
      type: 'NOT_PAID',
      message: `Order #${order.number} is awaiting payment: nothing was paid to refund in part. Refund it whole or cancel it instead.`,
    });
  const created = now.toISOString();
  const id = randomToken(16);
  const actorName = 'id' in request.actor ? request.actor.email : 'vitrine command';

  // 1. The refund row and its reservation, or nothing.
  const reserved = await inTransaction<{ providerAmount: number } | 'exists', RefundFailure>(db, async (trx) => {
    const inserted = await trx
      .insertInto('refunds')
      .values({
        id,
        site_id: siteId,
        order_id: order.id,
        idempotency_key: key,
        request_hash: hash,
        amount,
        provider_amount: 0,
        reason: request.reason.trim(),
        restock: request.restock ? 1 : 0,
        lines: JSON.stringify(lines),
        cancel: request.cancel ? 1 : 0,
        provider_reference: null,
        status: 'pending',
        failure: null,
        created_at: created,
        updated_at: created,
        created_by: actorName,
      })
      .onConflict((oc) => oc.columns(['site_id', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return ok('exists' as const);
    // A cancel takes the order out of fulfilment first, guarded like a fulfil: of a cancel and a fulfil at once, one
    // wins (a shipped order is refunded, not canceled). A refused refund gives the order back to 'pending'.
    if (request.cancel) {
      const canceled = await trx
        .updateTable('orders')
        .set({ fulfilment: 'canceled' })
        .where('id', '=', order.id)
        .where('fulfilment', '=', 'pending')
        .executeTakeFirst();
      if (Number(canceled.numUpdatedRows) === 0) return err(notCancelable(order.number));
    }
    const after = await trx
      .updateTable('orders')
      .set((eb) => ({ refunded_total: eb('refunded_total', '+', amount), updated_at: created }))
      .where('id', '=', order.id)
      .where('status', '!=', 'refunded')
      .where((eb) => eb(eb('refunded_total', '+', amount), '<=', eb.ref('grand_total')))
      .returning(['refunded_total', 'grand_total'])
      .executeTakeFirst();
    if (!after) {
      const now = await trx
        .selectFrom('orders')
        .select(['refunded_total', 'grand_total', 'status'])
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow();
      const left = Number(now.grand_total) - Number(now.refunded_total);
      return err(
        now.status === 'refunded' || left <= 0
          ? { type: 'ALREADY_REFUNDED', message: `Order #${order.number} is already refunded.` }
          : {
              type: 'TOO_MUCH',
              message: `Order #${order.number} has only ${moneyOf(order, left)} left to refund; ${moneyOf(order, amount)} is more.`,
            },
      );
    }
    for (const line of lines) {
      const moved = await trx
        .updateTable('order_lines')
        .set((eb) => ({ refunded_quantity: eb('refunded_quantity', '+', line.quantity) }))
        .where('order_id', '=', order.id)
        .where('position', '=', line.position)
        .where((eb) => eb(eb('refunded_quantity', '+', line.quantity), '<=', eb.ref('quantity')))
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) {
        const title = order.lines.find((l) => l.position === line.position)?.title ?? `line ${line.position + 1}`;
        return err({ type: 'TOO_MUCH', message: `Fewer than ${line.quantity} of ${title} are left to refund.` });
      }
    }
    // The card is refunded first: of [before, before + amount), the part below what the provider took.
    const before = Number(after.refunded_total) - amount;
    const providerTook = taken || released ? (payment?.amount ?? 0) : 0;
    const providerAmount = Math.max(0, Math.min(before + amount, providerTook) - before);
    await trx.updateTable('refunds').set({ provider_amount: providerAmount }).where('id', '=', id).execute();
    return ok({ providerAmount });
  });
  if (!reserved.ok) return reserved;
  if (reserved.value === 'exists')
    return answerExisting(db, siteId, { ...request, idempotencyKey: key }, hash, orderNumber);
  const { providerAmount } = reserved.value;

  // 2. The provider, once, outside any transaction.
  let refused: string | null = null;
  if (payment?.reference && (released || providerAmount > 0)) {
    const returned = released
      ? await ctx.provider.void(payment.reference, `${payment.id}:void`)
      : await ctx.provider.refund(payment.reference, providerAmount, `refund:${id}`);
    if (!returned.ok) refused = `The payment provider refused the refund: ${returned.error}`;
  }

  // 3. The outcome.
  if (refused !== null) {
    const message = refused;
    await inTransaction<true, never>(db, async (trx) => {
      await trx
        .updateTable('refunds')
        .set({ status: 'failed', failure: message, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      await trx
        .updateTable('orders')
        .set((eb) => ({
          refunded_total: eb('refunded_total', '-', amount),
          ...(request.cancel ? { fulfilment: 'pending' as const } : {}),
        }))
        .where('id', '=', order.id)
        .execute();
      for (const line of lines)
        await trx
          .updateTable('order_lines')
          .set((eb) => ({ refunded_quantity: eb('refunded_quantity', '-', line.quantity) }))
          .where('order_id', '=', order.id)
          .where('position', '=', line.position)
          .execute();
      await recordAudit(trx, {
        siteId,
        actor: request.actor,
        action: 'order.refund-refused',
        subject: { type: 'order', id: order.id },
        summary: `Refund of ${moneyOf(order, amount)} refused by the payment provider`,
        after: { amount, failure: message },
        at: now,
      });
      return ok(true);
    });
    return err({ type: 'PROVIDER_REFUSED', message });
  }

  const finished = await inTransaction<{ refundedTotal: number; status: Order['status'] }, never>(db, async (trx) => {
    await trx
      .updateTable('refunds')
      .set({ status: 'succeeded', updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    if (request.restock || request.cancel) {
      await restockLines(
        trx,
        siteId,
        lines.map((l) => {
          const line = order.lines.find((x) => x.position === l.position)!;
          return { sku: line.sku, productType: line.productType, quantity: l.quantity };
        }),
        now,
        order.id,
      );
    }
    // Nothing left: the order is refunded (once), its payment marked, what gift cards paid given back to them.
    const full = await trx
      .updateTable('orders')
      .set({ status: 'refunded', updated_at: now.toISOString() })
      .where('id', '=', order.id)
      .where('status', '!=', 'refunded')
      .where((eb) => eb('refunded_total', '>=', eb.ref('grand_total')))
      .executeTakeFirst();
    if (Number(full.numUpdatedRows) > 0) {
      if (payment) await finishPayment(trx, payment, taken, now);
      await returnGiftCardsOfOrder(trx, order.id, now);
    }
    const state = await trx
      .selectFrom('orders')
      .select(['refunded_total', 'status'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    const what = request.cancel ? 'Canceled' : 'Refunded';
    await recordAudit(trx, {
      siteId,
      actor: request.actor,
      action: request.cancel ? 'order.canceled' : 'order.refunded',
      subject: { type: 'order', id: order.id },
      summary: `${what} ${moneyOf(order, amount)} of order #${order.number}: ${request.reason.trim()}`,
      before: { refundedTotal: Number(state.refunded_total) - amount, status: order.status },
      after: {
        refundedTotal: Number(state.refunded_total),
        status: state.status,
        lines,
        restocked: request.restock || request.cancel === true,
        ...(request.cancel ? { fulfilment: 'canceled' } : {}),
      },
      at: now,
    });
    const mail = refundEmail(order, {
      siteTitle: ctx.siteTitle,
      amountCents: amount,
      reason: request.reason.trim(),
      full: state.status === 'refunded',
      canceled: request.cancel === true,
    });
    await enqueueEmail(
      trx,
      {
        siteId,
        kind: 'order-refund',
        to: order.email,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        orderId: order.id,
      },
      now,
    );
    return ok({ refundedTotal: Number(state.refunded_total), status: state.status });
  });
  if (!finished.ok) return finished;
  const row = await db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return ok({
    refund: rowToRefund(row, order),
    paymentState: paymentState(finished.value.status, finished.value.refundedTotal, order.grandTotalCents),
    refundedTotalCents: finished.value.refundedTotal,
    repeated: false,
  });
}

const notCancelable = (number: number): RefundFailure => ({
  type: 'NOT_CANCELABLE',
  message: `Order #${number} is not pending (it was fulfilled or canceled): refund it instead. Nothing was changed.`,
});

async function finishPayment(trx: Db, payment: PaymentAttempt, taken: boolean, now: Date): Promise<void> {
  await finishAttempt(trx, payment.id, { status: taken ? 'refunded' : 'voided' }, now);
}

/**
 * The whole order (`vitrine orders refund N`): everything left, through the provider that took it, the stock put
 * back. Its key is the order's, so running it twice — or twice at once — refunds and restocks once; the second run
 * is told the order is already refunded.
 */
export async function refundOrder(
  db: Db,
  siteId: string,
  orderNumber: number,
  provider: PaymentProvider,
  now = new Date(),
  options: { reason?: string; actor?: Actor; siteTitle?: string } = {},
): Promise<Result<Order, RefundFailure>> {
  const order = await getOrderByNumber(db, siteId, orderNumber);
  if (!order) return err({ type: 'ORDER_NOT_FOUND', message: `site '${siteId}' has no order #${orderNumber}` });
  if (order.status === 'refunded')
    return err({ type: 'ALREADY_REFUNDED', message: `order #${orderNumber} is already refunded` });
  const site = await getSite(db, siteId);
  const done = await refundOrderPart(
    db,
    { siteId, siteTitle: options.siteTitle ?? site?.title ?? siteId, provider, now },
    orderNumber,
    {
      idempotencyKey: `${order.id}:refund-all`,
      all: true,
      reason: options.reason ?? 'Whole order refunded',
      restock: true,
      actor: options.actor ?? { command: true },
    },
  );
  if (!done.ok)
    return err(
      done.error.type === 'ALREADY_REFUNDED'
        ? { type: 'ALREADY_REFUNDED', message: `order #${orderNumber} is already refunded` }
        : done.error,
    );
  if (done.value.repeated)
    return err({ type: 'ALREADY_REFUNDED', message: `order #${orderNumber} is already refunded` });
  return ok({ ...order, status: 'refunded', refundedTotalCents: order.grandTotalCents });
}
