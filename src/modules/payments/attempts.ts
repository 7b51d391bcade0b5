/**
 * Payment attempts (the payments table): one row per checkout request's idempotency key, written BEFORE the provider
 * is called. The unique (site, key) makes concurrent duplicates find each other: exactly one request inserts the row
 * and goes on; the others wait for its outcome and answer the same.
 */
import type { Kysely } from 'kysely';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';
import type { Database } from '../../platform/db/tables';
import type { PaymentRow, PaymentStatus } from './tables';
import { randomToken } from '../../platform/randomToken';
import type { CheckoutFailure } from '../orders';

type Db = Kysely<Database>;

export interface PaymentAttempt {
  id: string;
  siteId: string;
  idempotencyKey: string;
  requestHash: string;
  cartId: string;
  orderId: string | null;
  provider: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  reference: string | null;
  failure: CheckoutFailure | null;
}

export interface NewAttempt {
  siteId: string;
  idempotencyKey: string;
  requestHash: string;
  cartId: string;
  provider: string;
  amount: number;
  currency: string;
  now: Date;
}

/** Writes the attempt unless one with this key exists; `created` tells which. */
export async function beginAttempt(db: Db, input: NewAttempt): Promise<{ created: boolean; attempt: PaymentAttempt }> {
  const now = input.now.toISOString();
  const row: PaymentRow = {
    id: randomToken(16),
    site_id: input.siteId,
    idempotency_key: input.idempotencyKey,
    request_hash: input.requestHash,
    cart_id: input.cartId,
    order_id: null,
    provider: input.provider,
    status: 'pending',
    amount: input.amount,
    currency: input.currency,
    provider_reference: null,
    failure: null,
    created_at: now,
    updated_at: now,
  };
  const inserted = (await insertAttempt.execute(db, row)).rows[0];
  if (inserted) return { created: true, attempt: rowToAttempt(inserted) };
  const existing = await findAttempt(db, input.siteId, input.idempotencyKey);
  if (!existing) throw new Error(`payment attempt ${input.idempotencyKey} neither inserted nor found`);
  return { created: false, attempt: existing };
}

// Built once (src/platform/db/sqlite/compiledQuery.ts): every order runs these.
const insertAttempt = compiledQuery((db, v: PaymentRow) =>
  db
    .insertInto('payments')
    .values({
      id: v.id,
      site_id: v.site_id,
      idempotency_key: v.idempotency_key,
      request_hash: v.request_hash,
      cart_id: v.cart_id,
      order_id: v.order_id,
      provider: v.provider,
      status: v.status,
      amount: v.amount,
      currency: v.currency,
      provider_reference: v.provider_reference,
      failure: v.failure,
      created_at: v.created_at,
      updated_at: v.updated_at,
    })
    .onConflict((oc) => oc.columns(['site_id', 'idempotency_key']).doNothing())
    .returningAll(),
);

const selectAttempt = compiledQuery((db, v: { siteId: string; idempotencyKey: string }) =>
  db.selectFrom('payments').selectAll().where('site_id', '=', v.siteId).where('idempotency_key', '=', v.idempotencyKey),
);

export async function findAttempt(db: Db, siteId: string, idempotencyKey: string): Promise<PaymentAttempt | undefined> {
  const row = (await selectAttempt.execute(db, { siteId, idempotencyKey })).rows[0];
  return row && rowToAttempt(row);
}

/** How long a duplicate request waits for the first one's outcome before answering "still in progress". */
const WAIT_MS = 20_000;
const POLL_MS = 40;

/** The attempt with this key (waiting while it is pending, up to WAIT_MS), or undefined when there is none. */
export async function waitForAttempt(
  db: Db,
  siteId: string,
  idempotencyKey: string,
): Promise<PaymentAttempt | undefined> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const attempt = await findAttempt(db, siteId, idempotencyKey);
    if (!attempt || attempt.status !== 'pending' || Date.now() > deadline) return attempt;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function finishAttempt(
  db: Db,
  id: string,
  change: { status: PaymentStatus; orderId?: string; reference?: string },
  now: Date,
): Promise<void> {
  const updatedAt = now.toISOString();
  // The two changes every order makes, built once; any other is built as it comes.
  if (change.orderId !== undefined && change.reference !== undefined) {
    await finishWithOrder.execute(db, {
      id,
      status: change.status,
      updatedAt,
      orderId: change.orderId,
      reference: change.reference,
    });
    return;
  }
  if (change.orderId === undefined && change.reference === undefined) {
    await finishWithStatus.execute(db, { id, status: change.status, updatedAt });
    return;
  }
  await db
    .updateTable('payments')
    .set({
      status: change.status,
      updated_at: now.toISOString(),
      ...(change.orderId !== undefined ? { order_id: change.orderId } : {}),
      ...(change.reference !== undefined ? { provider_reference: change.reference } : {}),
    })
    .where('id', '=', id)
    .execute();
}

const finishWithOrder = compiledQuery(
  (db, v: { id: string; status: PaymentStatus; updatedAt: string; orderId: string; reference: string }) =>
    db
      .updateTable('payments')
      .set({ status: v.status, updated_at: v.updatedAt, order_id: v.orderId, provider_reference: v.reference })
      .where('id', '=', v.id),
);

const finishWithStatus = compiledQuery((db, v: { id: string; status: PaymentStatus; updatedAt: string }) =>
  db.updateTable('payments').set({ status: v.status, updated_at: v.updatedAt }).where('id', '=', v.id),
);

/** The provider's reference of an authorization, kept while the attempt is still pending (for the reconcile job). */
export async function rememberReference(db: Db, id: string, reference: string): Promise<void> {
  await updateReference.execute(db, { id, reference });
}

const updateReference = compiledQuery((db, v: { id: string; reference: string }) =>
  db.updateTable('payments').set({ provider_reference: v.reference }).where('id', '=', v.id),
);

/** Attempts still pending since before `before` (their process died mid-checkout), oldest first. */
export async function abandonedAttempts(db: Db, before: Date, limit = 100): Promise<PaymentAttempt[]> {
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'pending')
    .where('updated_at', '<', before.toISOString())
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map(rowToAttempt);
}

/** The attempt ended without an order: what the shopper was told is kept for a retried request. */
export async function recordAttemptFailure(
  db: Db,
  id: string,
  status: Extract<PaymentStatus, 'declined' | 'failed' | 'voided'>,
  failure: CheckoutFailure,
  now: Date,
  reference?: string,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({
      status,
      failure: JSON.stringify(failure),
      updated_at: now.toISOString(),
      ...(reference !== undefined ? { provider_reference: reference } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** The payment that bought an order (the one with its order id), for refunds. */
export async function paymentOfOrder(db: Db, orderId: string): Promise<PaymentAttempt | undefined> {
  const row = await db.selectFrom('payments').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  return row && rowToAttempt(row);
}

function rowToAttempt(row: PaymentRow): PaymentAttempt {
  let failure: CheckoutFailure | null = null;
  if (row.failure !== null) {
    try {
      failure = JSON.parse(row.failure) as CheckoutFailure;
    } catch {
      failure = null;
    }
  }
  return {
    id: row.id,
    siteId: row.site_id,
    idempotencyKey: row.idempotency_key,
    requestHash: row.request_hash,
    cartId: row.cart_id,
    orderId: row.order_id,
    provider: row.provider,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    reference: row.provider_reference,
    failure,
  };
}
