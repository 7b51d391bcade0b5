/** The tables the giftCards module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Selectable } from 'kysely';

/** 'scheduled' until its e-mail (with the code) is confirmed sent; only 'active' cards pay. */
export type GiftCardStatus = 'scheduled' | 'active' | 'disabled';

/**
 * A gift card. The code is never stored: only its sha256 (of the normalized code) and its last four characters, both
 * null until delivery makes the code (services/giftCardDelivery.ts).
 */
export interface GiftCardsTable {
  id: string;
  site_id: string;
  /** sha256 hex of the normalized code; UNIQUE (site_id, code_hash); null before delivery. */
  code_hash: string | null;
  last_four: string | null;
  currency: string;
  initial_balance: number;
  /** Only changed by conditional updates (`balance >= amount`); CHECK 0 <= balance <= initial_balance. */
  balance: number;
  status: GiftCardStatus;
  /** The order that bought it; null for a card issued by hand (`vitrine giftcards issue`). */
  order_id: string | null;
  purchaser_email: string | null;
  recipient_name: string;
  recipient_email: string;
  message: string;
  /** 'YYYY-MM-DD' in the site's time zone. */
  delivery_date: string;
  /** When its e-mail may go out (ISO-8601 UTC), null for at once. */
  send_after: string | null;
  /** The outbox message that delivers its code. */
  outbox_id: string | null;
  /** Codes made so far: one per send tried (a send not confirmed is never reused; its code is replaced). */
  codes_made: number;
  /** When the e-mail with its code was confirmed sent (and the card became active). */
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export type GiftCardTransactionKind = 'issue' | 'redeem' | 'refund';

/** Every movement of a gift card's balance. */
export interface GiftCardTransactionsTable {
  id: string;
  gift_card_id: string;
  order_id: string | null;
  kind: GiftCardTransactionKind;
  /** Positive minor units. */
  amount: number;
  created_at: string;
}

export type GiftCardRow = Selectable<GiftCardsTable>;

declare module '../../platform/db/tables' {
  interface Database {
    gift_cards: GiftCardsTable;
    gift_card_transactions: GiftCardTransactionsTable;
  }
}
