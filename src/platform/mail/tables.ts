/** The tables the mail outbox owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Insertable, Selectable } from 'kysely';

export type OutboxStatus = 'pending' | 'sent' | 'failed';

/** E-mail written in the transaction of what it tells about, sent later by the outbox job (with retries). */
export interface OutboxTable {
  id: string;
  site_id: string;
  /** e.g. 'order-confirmation', 'new-order'. */
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  order_id: string | null;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  /** Lease: a sender that claimed the message owns it until then. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** ISO-8601 UTC: not sent before then (a gift card's delivery date), or null for at once. */
  send_after: string | null;
  /**
   * JSON: what an order's e-mail is rendered from when it is sent or shown (with the stored order; its text_body and
   * html_body are then ''), src/modules/orders/mail.tsx. Null: text_body and html_body are the message.
   */
  render_data: string | null;
}

export type OutboxRow = Selectable<OutboxTable>;
export type NewOutboxRow = Insertable<OutboxTable>;

declare module '../db/tables' {
  interface Database {
    outbox: OutboxTable;
  }
}
