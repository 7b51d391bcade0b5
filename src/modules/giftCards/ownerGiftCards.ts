/**
 * Gift cards as the owner sees and changes them (/admin/gathered/gift-cards, `vitrine giftcards disable`): a page of
 * cards, one card with its history (issue, redemptions, refunds), and disabling a card. A disabled card pays nothing
 * at checkout (spendGiftCards and giftCardsForOrder take only 'active' cards: the shopper reads the usual 'This gift
 * card code is not valid…'), and one not yet delivered is never sent (its e-mail finds it disabled).
 */
import type { Kysely } from 'kysely';
import { isGiftCardCodeShape, normalizeGiftCardCode } from '../../core/giftCard';
import { formatMoney } from '../../core/money';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import { recordAudit, type Actor } from '../admin';
import { hashGiftCardCode } from './giftCardDelivery';
import { giftCardState, rowToGiftCard, type GiftCard } from './giftCards';

type Db = Kysely<Database>;

export const GIFT_CARD_PAGE_SIZE = 50;

export interface GiftCardMovement {
  id: string;
  kind: 'issue' | 'redeem' | 'refund';
  amountCents: number;
  orderId: string | null;
  orderNumber: number | null;
  createdAt: string;
}

export type GiftCardRefusal = { type: 'not-found' | 'ambiguous' | 'conflict'; message: string };

/** A page of the site's cards, newest first. */
export async function pageOfGiftCards(
  db: Db,
  siteId: string,
  offset: number,
): Promise<{ cards: GiftCard[]; hasNextPage: boolean }> {
  const rows = await db
    .selectFrom('gift_cards')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(GIFT_CARD_PAGE_SIZE + 1)
    .offset(offset)
    .execute();
  return {
    cards: rows.slice(0, GIFT_CARD_PAGE_SIZE).map(rowToGiftCard),
    hasNextPage: rows.length > GIFT_CARD_PAGE_SIZE,
  };
}

export async function getGiftCard(db: Db, siteId: string, id: string): Promise<GiftCard | undefined> {
  const row = await db
    .selectFrom('gift_cards')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && rowToGiftCard(row);
}

/** Every movement of a card's balance, oldest first, with the order's number. */
export async function giftCardHistory(db: Db, cardId: string): Promise<GiftCardMovement[]> {
  const rows = await db
    .selectFrom('gift_card_transactions as t')
    .leftJoin('orders as o', 'o.id', 't.order_id')
    .select(['t.id', 't.kind', 't.amount', 't.order_id', 't.created_at', 'o.number'])
    .where('t.gift_card_id', '=', cardId)
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amountCents: Number(r.amount),
    orderId: r.order_id,
    orderNumber: r.number === null ? null : Number(r.number),
    createdAt: r.created_at,
  }));
}

/**
 * The card a owner names: its id, its full code, or its code's last four characters (refused when several cards of
 * the site end so).
 */
export async function findGiftCard(db: Db, siteId: string, named: string): Promise<Result<GiftCard, GiftCardRefusal>> {
  const byId = await getGiftCard(db, siteId, named);
  if (byId) return ok(byId);
  const code = normalizeGiftCardCode(named);
  if (isGiftCardCodeShape(code)) {
    const row = await db
      .selectFrom('gift_cards')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('code_hash', '=', hashGiftCardCode(code))
      .executeTakeFirst();
    if (row) return ok(rowToGiftCard(row));
  } else if (/^[A-Za-z0-9]{4}$/.test(named.trim())) {
    const rows = await db
      .selectFrom('gift_cards')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('last_four', '=', named.trim().toUpperCase())
      .limit(2)
      .execute();
    if (rows.length > 1)
      return err({
        type: 'ambiguous',
        message: `Several gift cards end in ${named.trim().toUpperCase()}: name the card by its id (on its page at /admin/gathered/gift-cards).`,
      });
    if (rows[0]) return ok(rowToGiftCard(rows[0]));
  }
  return err({ type: 'not-found', message: `There is no gift card ${named}.` });
}

const amountText = (card: GiftCard): string =>
  formatMoney({ minorUnits: card.balanceCents, currency: parseCurrencyCode(card.currency) ?? DEFAULT_CURRENCY });

/**
 * Disables a card: one guarded update (scheduled or active → disabled) and its audit entry in one transaction. An
 * order spending the card at the same moment either spent first (its decrement needs 'active') or finds it disabled.
 */
export async function disableGiftCard(
  db: Db,
  siteId: string,
  id: string,
  actor: Actor,
  now: Date = new Date(),
): Promise<Result<GiftCard, GiftCardRefusal>> {
  return inTransaction<GiftCard, GiftCardRefusal>(db, async (trx) => {
    const before = await getGiftCard(trx, siteId, id);
    if (!before) return err({ type: 'not-found', message: `There is no gift card ${id}.` });
    const row = await trx
      .updateTable('gift_cards')
      .set({ status: 'disabled', updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .where('status', 'in', ['scheduled', 'active'])
      .returningAll()
      .executeTakeFirst();
    if (!row) return err({ type: 'conflict', message: `The gift card ${shownCode(before)} is already disabled.` });
    const after = rowToGiftCard(row);
    await recordAudit(trx, {
      siteId,
      actor,
      action: 'giftcard.disabled',
      subject: { type: 'gift-card', id },
      summary: `Disabled the gift card ${shownCode(before)} (balance ${amountText(before)})`,
      before: { status: before.status, state: giftCardState(before, now) },
      after: { status: after.status },
      at: now,
    });
    return ok(after);
  });
}

export const shownCode = (card: Pick<GiftCard, 'lastFour' | 'id'>): string =>
  card.lastFour === null ? `${card.id} (not sent yet)` : `…${card.lastFour}`;
