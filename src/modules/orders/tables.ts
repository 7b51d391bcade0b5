/** The tables the orders module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Fulfilment } from '../../core/orderStates';
import type { Bool } from '../../platform/db/tables';

/** One row per site: the last order number given (orders are numbered 1, 2, 3 … per site). */
export interface OrderCountersTable {
  site_id: string;
  last_number: number;
}

export type OrderStatus = 'paid' | 'awaiting-payment' | 'refunded';

export interface OrdersTable {
  /** Random 128-bit token, base64url: the order-confirmed page's unguessable link. */
  id: string;
  site_id: string;
  /** Shown to shopper and merchant; per site, from order_counters. */
  number: number;
  /** The cart it was bought from (one order per cart). */
  cart_id: string;
  email: string;
  status: OrderStatus;
  currency: string;
  subtotal: number;
  shipping: number;
  tax: number;
  discount: number;
  grand_total: number;
  prices_include_tax: Bool;
  /** The tax's name on the receipt ('Tax', 'VAT', 'Sales tax'). */
  tax_name: string;
  /** JSON ShippingAddress, null when nothing needed shipping. */
  shipping_address: string | null;
  /** JSON { id, name, amount }, null when nothing needed shipping. */
  shipping_option: string | null;
  coupon_code: string | null;
  payment_provider: string;
  /** 'pending' | 'fulfilled' | 'canceled' (migration 018); orders of only digital goods and gift cards are placed fulfilled. */
  fulfilment: ColumnType<Fulfilment, Fulfilment | undefined, Fulfilment>;
  created_at: string;
  updated_at: string;
  /** What refunds have given back so far (minor units): a delta applied in the database, never over grand_total. */
  refunded_total: Generated<number>;
}

/** A copy of what was bought, as it was at the time (a later import changes nothing here). */
export interface OrderLinesTable {
  order_id: string;
  position: number;
  item_id: string;
  sku: string;
  title: string;
  product_type: number;
  /** JSON: option name → value. */
  attributes: string;
  /** JSON text of the form answers, '' when none. */
  additional_fields: string;
  /** JSON FormAnswerSummary[] as the cart showed them. */
  additional_fields_summary: string;
  /** JSON { file, altText } of the product's first image, or null. */
  image: string | null;
  quantity: number;
  unit_price: number;
  line_total: number;
  /** Units refunded so far (a delta applied in the database, never over quantity). */
  refunded_quantity: Generated<number>;
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** One refund request (src/modules/orders/refunds.ts): written before the provider is called, keyed per site. */
export interface RefundsTable {
  id: string;
  site_id: string;
  order_id: string;
  /** The request's key: the same key again (a second press of the button) is this refund, never another. */
  idempotency_key: string;
  /** sha256 of what was asked (lines, amount, reason, restock): the same key with another request is refused. */
  request_hash: string;
  /** What the customer gets back, in minor units of the order's currency. */
  amount: number;
  /** The part of `amount` given back through the payment provider (the rest goes back to gift cards). */
  provider_amount: number;
  reason: string;
  restock: Bool;
  /** JSON [{ position, quantity }] of a refund by line; null for a refund of an amount. */
  lines: string | null;
  /** 1 when the refund cancels the order (everything left, restocked). */
  cancel: Generated<Bool>;
  provider_reference: string | null;
  status: RefundStatus;
  /** What the provider said when it refused. */
  failure: string | null;
  created_at: string;
  updated_at: string;
  /** Who asked: the staff member's e-mail, or 'vitrine command'. */
  created_by: string;
}

/** One shipment that fulfilled an order (migration 018): the newest one is the order's tracking. */
export interface FulfilmentsTable {
  /** Random token. */
  id: string;
  order_id: string;
  site_id: string;
  /** One of CARRIERS (src/core/orderStates.ts), or null. */
  carrier: string | null;
  tracking_number: string | null;
  /** 1 when the customer was sent the shipping e-mail. */
  notify: Bool;
  created_at: string;
  /** Who fulfilled it, as the audit log names them (an e-mail, or 'vitrine command'). */
  created_by: string;
}

/** The owner's notes on an order (migration 018); never shown to the customer. */
export interface OrderNotesTable {
  id: string;
  order_id: string;
  site_id: string;
  author: string;
  body: string;
  created_at: string;
}

/**
 * The shop's customers as the orders make them (migration 027): one row per site and lower-cased e-mail, kept by
 * triggers on orders in the order's own transaction (an upsert of deltas: orders placed at once all count).
 */
export interface CustomersTable {
  id: Generated<number>;
  site_id: string;
  /** Lower-cased. */
  email: string;
  /** The shipping name of the latest order that had one, or ''. */
  name: string;
  orders_count: number;
  /** Minor units of the site's currency: its paid orders' totals (a refunded order leaves it). */
  total_spent: number | string;
  last_order_at: string;
}

export type OrderRow = Selectable<OrdersTable>;
export type FulfilmentRow = Selectable<FulfilmentsTable>;
export type OrderNoteRow = Selectable<OrderNotesTable>;
export type OrderLineRow = Selectable<OrderLinesTable>;
export type RefundRow = Selectable<RefundsTable>;

declare module '../../platform/db/tables' {
  interface Database {
    order_counters: OrderCountersTable;
    orders: OrdersTable;
    order_lines: OrderLinesTable;
    fulfilments: FulfilmentsTable;
    order_notes: OrderNotesTable;
    refunds: RefundsTable;
    customers: CustomersTable;
  }
}
