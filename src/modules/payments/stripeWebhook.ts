/**
 * Stripe's webhook: the events that tell what became of a PaymentIntent after checkout (captured, failed, canceled —
 * also from the Stripe dashboard or by Stripe itself, e.g. an authorization released after 7 days — and refunded).
 *
 * Stripe delivers at least once and in no guaranteed order, so each event is a conditional move of the payment's
 * status (never out of refunded, voided or declined; never from captured back to failed), in one transaction:
 * a replayed or late event changes nothing.
 */
import type { Kysely } from 'kysely';
import Stripe from 'stripe';
import { markOrderRefunded } from '../orders';
import { err, ok, type Result } from '../../core/result';
import { inTransaction } from '../../platform/db/transaction';
import type { Database } from '../../platform/db/tables';
import type { PaymentStatus } from './tables';

export const WEBHOOK_MESSAGES = {
  missingSignature: 'The Stripe-Signature header is missing.',
  unreadableSignature: 'The Stripe-Signature header cannot be read.',
  badSignature: 'The Stripe-Signature header does not match the request body and the webhook secret.',
  tooOld: 'The Stripe-Signature header is too old (its timestamp is more than 5 minutes from now).',
  invalidJson: 'The webhook body is not valid JSON.',
  notAnEvent: 'The webhook body is not a Stripe event.',
} as const;

/** The event in a webhook request whose signature matches `secret` (Stripe's own check: HMAC and a 5-minute window). */
export function verifyStripeWebhook(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  secret: string,
): Result<Stripe.Event, string> {
  if (signatureHeader === undefined || signatureHeader.trim() === '') return err(WEBHOOK_MESSAGES.missingSignature);
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      if (/tolerance/i.test(error.message)) return err(WEBHOOK_MESSAGES.tooOld);
      if (/unable to extract/i.test(error.message)) return err(WEBHOOK_MESSAGES.unreadableSignature);
      return err(WEBHOOK_MESSAGES.badSignature);
    }
    // The signature matched, so the body is Stripe's; it just does not parse.
    if (error instanceof SyntaxError) return err(WEBHOOK_MESSAGES.invalidJson);
    throw error;
  }
  const shaped = event as unknown as { type?: unknown; data?: { object?: unknown } };
  if (typeof shaped.type !== 'string' || typeof shaped.data?.object !== 'object' || shaped.data.object === null)
    return err(WEBHOOK_MESSAGES.notAnEvent);
  return ok(event);
}

interface StatusMove {
  to: PaymentStatus;
  /** The statuses it may move from: a later event never undoes an earlier one. */
  from: readonly PaymentStatus[];
}

const MOVES: Readonly<Record<string, StatusMove>> = {
  'payment_intent.succeeded': { to: 'captured', from: ['pending', 'authorized', 'failed'] },
  // Declines are recorded by the checkout itself; this only settles an attempt that never heard back.
  'payment_intent.payment_failed': { to: 'failed', from: ['pending'] },
  'payment_intent.canceled': { to: 'voided', from: ['pending', 'authorized', 'failed'] },
  'charge.refunded': { to: 'refunded', from: ['pending', 'authorized', 'captured', 'failed'] },
};

/** What an event did: `ignored` (not an event we act on, or a partial refund), `unchanged` (no payment, or already there), `recorded`. */
export type StripeEventResult = 'ignored' | 'unchanged' | 'recorded';

/** Records a verified event on the payments row of its PaymentIntent (and, for a full refund, on its order). */
export async function recordStripeEvent(
  db: Kysely<Database>,
  event: Stripe.Event,
  now: Date,
): Promise<StripeEventResult> {
  const move = MOVES[event.type];
  if (!move) return 'ignored';
  const object = event.data.object as unknown as Record<string, unknown>;
  let intentId: string | null;
  if (event.type === 'charge.refunded') {
    // charge.refunded also fires for a partial refund; only a charge refunded in full refunds the order.
    if (object.refunded !== true) return 'ignored';
    const intent = object.payment_intent;
    intentId =
      typeof intent === 'string' ? intent : isRecord(intent) && typeof intent.id === 'string' ? intent.id : null;
  } else {
    intentId = typeof object.id === 'string' ? object.id : null;
  }
  if (intentId === null) return 'ignored';
  const id = intentId;

  const done = await inTransaction<StripeEventResult, never>(db, async (trx) => {
    const moved = await trx
      .updateTable('payments')
      .set({ status: move.to, updated_at: now.toISOString() })
      .where('provider', '=', 'stripe')
      .where('provider_reference', '=', id)
      .where('status', 'in', move.from)
      .returning(['id', 'order_id'])
      .executeTakeFirst();
    if (!moved) return ok('unchanged');
    if (move.to === 'refunded' && moved.order_id !== null) await markOrderRefunded(trx, moved.order_id, now); // a refund made on Stripe's side refunds the order, once
    return ok('recorded');
  });
  return done.ok ? done.value : 'unchanged';
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
