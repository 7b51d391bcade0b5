/**
 * Gift cards: issuing one (inside the transaction of the order that bought it, or by hand), finding cards by the codes
 * a shopper typed, spending balances inside an order's transaction, and giving them back on a refund.
 *
 * Safe from a database reader: the code is stored only as sha256 of its normalized form (80 random bits make a
 * dictionary useless), with its last four characters for display. Money moves once: a balance only changes with a
 * conditional update (`balance >= amount` to spend, `balance + amount <= initial_balance` to give back) inside the
 * order's or refund's transaction, and every change is a row of gift_card_transactions.
 */
import type { Kysely } from 'kysely';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import {
  applyGiftCards,
  formatGiftCardCode,
  GIFT_CARD_MESSAGES,
  giftCardLastFour,
  isGiftCardCodeShape,
  MAX_GIFT_CARDS_PER_ORDER,
  normalizeGiftCardCode,
  todayIn,
  type CardDelivery,
  type Delivery,
} from '../../core/giftCard';
import { formatMoney } from '../../core/money';
import type { Database } from '../../platform/db/tables';
import type { GiftCardRow, GiftCardStatus, GiftCardTransactionKind } from './tables';
import { randomToken } from '../../platform/randomToken';
import { CODE_PLACEHOLDER, GIFT_CARD_MAIL_KIND, hashGiftCardCode, newGiftCardCode } from './giftCardDelivery';
import { giftCardEmail } from './mail';
import { enqueueEmail } from '../../platform/mail/outbox';
import type { Site } from '../site';

type Db = Kysely<Database>;

export interface GiftCard {
  id: string;
  websiteId: string;
  /** Null until its e-mail is sent (the code is made then). */
  lastFour: string | null;
  currency: string;
  initialBalanceCents: number;
  balanceCents: number;
  status: GiftCardStatus;
  orderId: string | null;
  purchaserEmail: string | null;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** 'YYYY-MM-DD' in the site's time zone. */
  deliveryDate: string;
  /** ISO-8601 UTC: its e-mail is not sent before then; null for at once. */
  sendAfter: string | null;
  createdAt: string;
}

export { hashGiftCardCode, newGiftCardCode };

export function rowToGiftCard(row: GiftCardRow): GiftCard {
  return {
    id: row.id,
    websiteId: row.site_id,
    lastFour: row.last_four,
    currency: row.currency,
    initialBalanceCents: Number(row.initial_balance),
    balanceCents: Number(row.balance),
    status: row.status,
    orderId: row.order_id,
    purchaserEmail: row.purchaser_email,
    recipientName: row.recipient_name,
    recipientEmail: row.recipient_email,
    message: row.message,
    deliveryDate: row.delivery_date,
    sendAfter: row.send_after,
    createdAt: row.created_at,
  };
}

// ---------------------------------------------------------------- issuing

export interface IssueGiftCardInput {
  amountCents: number;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** The buyer (shown in the e-mail as the sender), or null for a card the shop issues. */
  purchaserEmail: string | null;
  orderId: string | null;
  delivery: Delivery;
  /** Where the card is spent (the shop's absolute URL), for the e-mail. */
  shopUrl: string;
  now: Date;
}

/**
 * Writes a new card — 'scheduled', with no code yet —, its 'issue' transaction and its e-mail (due on the delivery
 * date), inside the caller's transaction, so an order that rolls back issues nothing and sends nothing. The code is
 * made when the e-mail is sent (./giftCardDelivery.ts): until then the stored e-mail holds a placeholder, and the
 * database never holds the code at all. Answers the card and the id of its e-mail.
 */
export async function issueGiftCard(
  trx: Db,
  site: Site,
  input: IssueGiftCardInput,
): Promise<{ card: GiftCard; messageId: string }> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
    throw new RangeError(`a gift card's amount must be whole minor units > 0, not ${input.amountCents}`);
  const time = input.now.toISOString();
  const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
  const email = giftCardEmail({
    siteTitle: site.title,
    shopUrl: input.shopUrl,
    amount: formatMoney({ minorUnits: input.amountCents, currency }),
    code: CODE_PLACEHOLDER,
    recipientName: input.recipientName,
    from: input.purchaserEmail ?? '',
    message: input.message,
  });
  const messageId = await enqueueEmail(
    trx,
    {
      siteId: site.id,
      kind: GIFT_CARD_MAIL_KIND,
      to: input.recipientEmail,
      ...email,
      orderId: input.orderId,
      sendAfter: input.delivery.sendAfter,
    },
    input.now,
  );
  const row: GiftCardRow = {
    id: randomToken(16),
    site_id: site.id,
    code_hash: null,
    last_four: null,
    currency,
    initial_balance: input.amountCents,
    balance: input.amountCents,
    status: 'scheduled',
    order_id: input.orderId,
    purchaser_email: input.purchaserEmail,
    recipient_name: input.recipientName,
    recipient_email: input.recipientEmail,
    message: input.message,
    delivery_date: input.delivery.date,
    send_after: input.delivery.sendAfter ? input.delivery.sendAfter.toISOString() : null,
    outbox_id: messageId,
    codes_made: 0,
    delivered_at: null,
    created_at: time,
    updated_at: time,
  };
  await trx.insertInto('gift_cards').values(row).execute();
  await recordTransaction(trx, row.id, input.orderId, 'issue', input.amountCents, input.now);
  return { card: rowToGiftCard(row), messageId };
}

async function recordTransaction(
  trx: Db,
  giftCardId: string,
  orderId: string | null,
  kind: GiftCardTransactionKind,
  amount: number,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('gift_card_transactions')
    .values({
      id: randomToken(16),
      gift_card_id: giftCardId,
      order_id: orderId,
      kind,
      amount,
      created_at: now.toISOString(),
    })
    .execute();
}

// ---------------------------------------------------------------- paying with gift cards

/** A card as the checkout's quote shows it: the code the shopper typed (formatted), its last four, what it pays. */
export interface QuotedGiftCard {
  code: string;
  lastFour: string;
  /** What it pays of this order (0 when the cards before it already cover everything). */
  amountCents: number;
  /** Its balance before this order. */
  balanceCents: number;
}

export interface GiftCardsForOrder {
  /** The valid cards, in the order typed. */
  cards: QuotedGiftCard[];
  /** Card id → amount, for the cards that pay something. */
  applied: { id: string; amountCents: number }[];
  remainingCents: number;
  /** Why a code was not applied (the first such code), or undefined. */
  error?: string;
}

/**
 * Reads the cards of the codes typed and decides what each pays of `totalCents` (the core's applyGiftCards). Reads
 * only: the order's transaction calls it again and then spends with spendGiftCards.
 */
export async function giftCardsForOrder(
  db: Db,
  site: Site,
  codes: readonly string[],
  totalCents: number,
): Promise<GiftCardsForOrder> {
  const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
  let error: string | undefined;
  const wanted: string[] = [];
  for (const typed of codes) {
    const code = normalizeGiftCardCode(typed);
    if (code === '') continue;
    if (wanted.includes(code)) {
      error ??= GIFT_CARD_MESSAGES.alreadyApplied;
      continue;
    }
    if (wanted.length >= MAX_GIFT_CARDS_PER_ORDER) {
      error ??= GIFT_CARD_MESSAGES.tooMany;
      continue;
    }
    if (!isGiftCardCodeShape(code)) {
      error ??= GIFT_CARD_MESSAGES.invalid;
      continue;
    }
    wanted.push(code);
  }
  const rows =
    wanted.length === 0
      ? []
      : await db
          .selectFrom('gift_cards')
          .selectAll()
          .where('site_id', '=', site.id)
          .where('code_hash', 'in', wanted.map(hashGiftCardCode))
          .execute();
  const byHash = new Map(rows.map((r) => [r.code_hash, r]));
  const usable: { code: string; row: GiftCardRow }[] = [];
  for (const code of wanted) {
    const row = byHash.get(hashGiftCardCode(code));
    if (!row || row.status !== 'active') error ??= GIFT_CARD_MESSAGES.invalid;
    else if (row.currency !== currency) error ??= GIFT_CARD_MESSAGES.otherCurrency;
    else if (Number(row.balance) <= 0) error ??= GIFT_CARD_MESSAGES.usedUp;
    else usable.push({ code, row });
  }
  const payment = applyGiftCards(
    totalCents,
    usable.map(({ row }) => ({ id: row.id, balanceCents: Number(row.balance) })),
  );
  const paid = new Map(payment.applied.map((a) => [a.id, a.amountCents]));
  return {
    cards: usable.map(({ code, row }) => ({
      code: formatGiftCardCode(code),
      lastFour: row.last_four ?? giftCardLastFour(code),
      amountCents: paid.get(row.id) ?? 0,
      balanceCents: Number(row.balance),
    })),
    applied: payment.applied,
    remainingCents: payment.remainingCents,
    ...(error !== undefined ? { error } : {}),
  };
}

/**
 * Spends what each card pays of the order, inside the order's transaction, each with one conditional decrement
 * (`balance >= amount`, on an active card): of orders racing for the same balance exactly one decrement matches; the
 * others answer false and roll back whole.
 */
export async function spendGiftCards(
  trx: Db,
  orderId: string,
  applied: readonly { id: string; amountCents: number }[],
  now: Date,
): Promise<boolean> {
  for (const { id, amountCents } of applied) {
    if (amountCents <= 0) continue;
    const spent = await trx
      .updateTable('gift_cards')
      .set((eb) => ({ balance: eb('balance', '-', amountCents), updated_at: now.toISOString() }))
      .where('id', '=', id)
      .where('status', '=', 'active')
      .where('balance', '>=', amountCents)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 0) return false;
    await recordTransaction(trx, id, orderId, 'redeem', amountCents, now);
  }
  return true;
}

/** What gift cards paid of an order: each card's last four and amount. */
export async function giftCardPaymentsOfOrder(
  db: Db,
  orderId: string,
): Promise<{ lastFour: string; amountCents: number }[]> {
  const rows = await db
    .selectFrom('gift_card_transactions as t')
    .innerJoin('gift_cards as c', 'c.id', 't.gift_card_id')
    .select(['c.last_four', 't.amount'])
    .where('t.order_id', '=', orderId)
    .where('t.kind', '=', 'redeem')
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({ lastFour: r.last_four ?? '', amountCents: Number(r.amount) }));
}

/** A card an order bought, as its page tells of it: for whom, the message, and where its e-mail is. */
export interface GiftCardBought extends CardDelivery {
  recipientName: string;
  message: string;
}

/** The cards an order bought (a gift card purchase buys one), oldest first; `timeZone` is the site's. */
export async function giftCardsBoughtByOrder(db: Db, orderId: string, timeZone: string): Promise<GiftCardBought[]> {
  const rows = await db
    .selectFrom('gift_cards')
    .select(['recipient_name', 'recipient_email', 'message', 'delivery_date', 'delivered_at', 'status'])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    recipientName: r.recipient_name,
    recipientEmail: r.recipient_email,
    message: r.message,
    deliveryDate: r.delivery_date,
    deliveredOn: r.delivered_at === null ? null : todayIn(timeZone, new Date(r.delivered_at)),
    cancelled: r.status === 'disabled',
  }));
}

/**
 * A refund, inside its transaction: what the order took from gift cards goes back to them (a 'refund' row each), and
 * the cards the order bought are disabled (their price goes back to the buyer, so they can no longer be spent).
 * The refund's own conditional status change makes this run once per order.
 */
export async function returnGiftCardsOfOrder(trx: Db, orderId: string, now: Date): Promise<void> {
  const redeemed = await trx
    .selectFrom('gift_card_transactions')
    .select(['gift_card_id', 'amount'])
    .where('order_id', '=', orderId)
    .where('kind', '=', 'redeem')
    .execute();
  for (const { gift_card_id: id, amount } of redeemed) {
    const value = Number(amount);
    await trx
      .updateTable('gift_cards')
      .set((eb) => ({ balance: eb('balance', '+', value), updated_at: now.toISOString() }))
      .where('id', '=', id)
      .where((eb) => eb(eb('balance', '+', value), '<=', eb.ref('initial_balance')))
      .execute();
    await recordTransaction(trx, id, orderId, 'refund', value, now);
  }
  await trx
    .updateTable('gift_cards')
    .set({ status: 'disabled', updated_at: now.toISOString() })
    .where('order_id', '=', orderId)
    .execute();
}

// ---------------------------------------------------------------- the merchant's list

/** Newest first (every site unless one is named). */
export async function listGiftCards(db: Db, filter: { siteId?: string; limit?: number } = {}): Promise<GiftCard[]> {
  const rows = await db
    .selectFrom('gift_cards')
    .selectAll()
    .$if(filter.siteId !== undefined, (q) => q.where('site_id', '=', filter.siteId as string))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 50)
    .execute();
  return rows.map(rowToGiftCard);
}

/**
 * What the merchant's list says of a card: disabled, scheduled (its e-mail waits for its day), sending (due, not yet
 * confirmed sent), used up or active.
 */
export function giftCardState(card: GiftCard, now: Date): 'disabled' | 'scheduled' | 'sending' | 'used up' | 'active' {
  if (card.status === 'disabled') return 'disabled';
  if (card.status === 'scheduled')
    return card.sendAfter !== null && Date.parse(card.sendAfter) > now.getTime() ? 'scheduled' : 'sending';
  return card.balanceCents === 0 ? 'used up' : 'active';
}
