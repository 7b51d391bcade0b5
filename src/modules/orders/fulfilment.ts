/**
 * Fulfilling orders (issue 25): the owner marks an order sent — with a carrier and tracking number if they like, and
 * the customer's 'your order is on its way' e-mail unless they say not to — or takes it back to pending. Each change
 * is one conditional UPDATE (WHERE fulfilment = the state expected), so of two staff fulfilling the same order at once
 * one wins and the other is told; the shipment row, the e-mail and the audit entry are written in that transaction.
 * Notes on an order are kept the same way (with their audit entry).
 */
import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import { FULFILMENT_LABELS, trackingUrl, type Carrier } from '../../core/orderStates';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import { randomToken } from '../../platform/randomToken';
import { recordAudit, type Actor } from '../admin';
import { confirmationOrderUrl, enqueueShippedEmail } from './mail';
import { getOrderByNumber } from './orders';

type Db = Kysely<Database>;

export type FulfilmentFailure = {
  type: 'ORDER_NOT_FOUND' | 'NOT_PENDING' | 'NOT_FULFILLED' | 'BAD_NOTE';
  message: string;
};

export interface FulfilInput {
  carrier: Carrier | null;
  trackingNumber: string | null;
  /** Send the customer the shipping e-mail. */
  notify: boolean;
  actor: Actor;
  siteTitle: string;
  now?: Date;
}

const actorName = (actor: Actor): string => ('id' in actor ? actor.email : 'vitrine command');

/** Marks order `number` fulfilled, if it is pending. */
export async function fulfilOrder(
  db: Db,
  siteId: string,
  number: number,
  input: FulfilInput,
): Promise<Result<{ number: number; emailed: boolean }, FulfilmentFailure>> {
  const now = input.now ?? new Date();
  const order = await getOrderByNumber(db, siteId, number);
  if (!order) return err({ type: 'ORDER_NOT_FOUND', message: `There is no order ${number}.` });
  const orderUrl = input.notify ? await confirmationOrderUrl(db, order.id) : null;
  return inTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({ fulfilment: 'fulfilled', updated_at: now.toISOString() })
      .where('id', '=', order.id)
      .where('fulfilment', '=', 'pending')
      .returning('fulfilment')
      .executeTakeFirst();
    if (!moved) {
      const current = await trx.selectFrom('orders').select('fulfilment').where('id', '=', order.id).executeTakeFirst();
      const state = current ? FULFILMENT_LABELS[current.fulfilment].toLowerCase() : 'gone';
      return err({
        type: 'NOT_PENDING',
        message: `Order ${number} is already ${state} (someone else may have just done it). Nothing was changed.`,
      });
    }
    const { carrier, trackingNumber, notify } = input;
    await trx
      .insertInto('fulfilments')
      .values({
        id: randomToken(12),
        order_id: order.id,
        site_id: siteId,
        carrier,
        tracking_number: trackingNumber,
        notify: notify ? 1 : 0,
        created_at: now.toISOString(),
        created_by: actorName(input.actor),
      })
      .execute();
    if (notify) {
      await enqueueShippedEmail(
        trx,
        order,
        {
          siteTitle: input.siteTitle,
          carrier,
          trackingNumber,
          trackingUrl: trackingUrl(carrier, trackingNumber),
          orderUrl,
        },
        now,
      );
    }
    const shipped = [carrier, trackingNumber].filter(Boolean).join(' ');
    await recordAudit(trx, {
      siteId,
      actor: input.actor,
      action: 'order.fulfilled',
      subject: { type: 'order', id: order.id },
      summary: `Fulfilled order ${number}${shipped ? ` (${shipped})` : ''}${notify ? '; shipping e-mail sent to the customer' : ''}`,
      before: { fulfilment: 'pending' },
      after: { fulfilment: 'fulfilled', carrier, trackingNumber, notify },
      at: now,
    });
    return ok({ number, emailed: notify });
  });
}

/** Takes order `number` back to pending (undo), if it is fulfilled; its shipments are removed (the audit log keeps them). */
export async function unfulfilOrder(
  db: Db,
  siteId: string,
  number: number,
  actor: Actor,
  now = new Date(),
): Promise<Result<{ number: number }, FulfilmentFailure>> {
  const order = await db
    .selectFrom('orders')
    .select(['id'])
    .where('site_id', '=', siteId)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!order) return err({ type: 'ORDER_NOT_FOUND', message: `There is no order ${number}.` });
  return inTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({ fulfilment: 'pending', updated_at: now.toISOString() })
      .where('id', '=', order.id)
      .where('fulfilment', '=', 'fulfilled')
      .returning('fulfilment')
      .executeTakeFirst();
    if (!moved)
      return err({
        type: 'NOT_FULFILLED',
        message: `Order ${number} is not fulfilled (someone else may have just changed it). Nothing was changed.`,
      });
    const shipments = await trx
      .deleteFrom('fulfilments')
      .where('order_id', '=', order.id)
      .returning(['carrier', 'tracking_number'])
      .execute();
    await recordAudit(trx, {
      siteId,
      actor,
      action: 'order.unfulfilled',
      subject: { type: 'order', id: order.id },
      summary: `Marked order ${number} as not fulfilled (back to pending)`,
      before: {
        fulfilment: 'fulfilled',
        shipments: shipments.map((s) => ({ carrier: s.carrier, trackingNumber: s.tracking_number })),
      },
      after: { fulfilment: 'pending' },
      at: now,
    });
    return ok({ number });
  });
}

export const MAX_NOTE_LENGTH = 2000;

/** Adds the owner's note to order `number`. */
export async function addOrderNote(
  db: Db,
  siteId: string,
  number: number,
  body: string,
  actor: Actor,
  now = new Date(),
): Promise<Result<{ id: string }, FulfilmentFailure>> {
  const text = body.replace(/\r\n/g, '\n').trim();
  if (text === '') return err({ type: 'BAD_NOTE', message: 'Please write the note.' });
  if (text.length > MAX_NOTE_LENGTH)
    return err({ type: 'BAD_NOTE', message: `The note is too long (at most ${MAX_NOTE_LENGTH} characters).` });
  const order = await db
    .selectFrom('orders')
    .select(['id'])
    .where('site_id', '=', siteId)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!order) return err({ type: 'ORDER_NOT_FOUND', message: `There is no order ${number}.` });
  return inTransaction(db, async (trx) => {
    const id = randomToken(12);
    await trx
      .insertInto('order_notes')
      .values({
        id,
        order_id: order.id,
        site_id: siteId,
        author: actorName(actor),
        body: text,
        created_at: now.toISOString(),
      })
      .execute();
    await recordAudit(trx, {
      siteId,
      actor,
      action: 'order.note-added',
      subject: { type: 'order', id: order.id },
      summary: `Added a note to order ${number}`,
      after: { note: text },
      at: now,
    });
    return ok({ id });
  });
}
