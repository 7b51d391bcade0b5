/** The tables the payments module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Selectable } from 'kysely';

export type PaymentStatus =
  'pending' | 'declined' | 'authorized' | 'captured' | 'awaiting-payment' | 'voided' | 'refunded' | 'failed';

/** One payment attempt: created before the provider is called, keyed by the checkout page's idempotency key. */
export interface PaymentsTable {
  id: string;
  site_id: string;
  idempotency_key: string;
  /** sha256 of what the attempt was for (cart, amount, e-mail, address…): the same key with other content is refused. */
  request_hash: string;
  cart_id: string;
  order_id: string | null;
  provider: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  provider_reference: string | null;
  /** JSON of the checkout failure the attempt ended with (declined card, sold out…), for a retried request. */
  failure: string | null;
  created_at: string;
  updated_at: string;
}

export type PaymentRow = Selectable<PaymentsTable>;

declare module '../../platform/db/tables' {
  interface Database {
    payments: PaymentsTable;
  }
}
