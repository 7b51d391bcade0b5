/** The tables the subscriptions module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Selectable } from 'kysely';

/** Marks a cart as a subscription cart (spec §7 cartToken): one line, never the shopper's CART cookie cart. */
export interface SubscriptionCartsTable {
  cart_id: string;
  site_id: string;
  item_id: string;
  sku: string;
  subscription_option_id: string | null;
  created_at: string;
}

/** 'paused': the owner paused it (/admin, `vitrine subscriptions pause`); never billed until resumed. */
export type SubscriptionStatusValue = 'active' | 'past_due' | 'paused' | 'cancelled' | 'completed';

/** A subscription: its plan, what each period sends, and how it is paid (services/subscriptions). */
export interface SubscriptionsTable {
  /** Random 128-bit token, base64url. */
  id: string;
  site_id: string;
  status: SubscriptionStatusValue;
  email: string;
  item_id: string;
  sku: string;
  quantity: number;
  /** Per period, minor units of `currency`. */
  unit_price: number;
  currency: string;
  /** JSON: the first order's line (title, attributes, form answers, image) that each renewal copies. */
  line: string;
  subscription_option_id: string | null;
  billing_unit: 'WEEK' | 'MONTH' | 'YEAR';
  billing_value: number;
  /** 0 = until cancelled. */
  num_billing_cycles: number;
  shipping_address: string | null;
  shipping_option_id: string | null;
  payment_provider: string;
  /** The provider's saved, reusable payment method (a token; never card data). */
  payment_method: string;
  cart_id: string;
  first_order_id: string;
  /** The shop's address as the shopper used it (https://host), for the links in renewal e-mails. */
  base_url: string;
  /** The last period billed or skipped (1 = the purchase). */
  periods_billed: number;
  started_at: string;
  /** Null once cancelled or completed. */
  next_billing_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** 'skipped': the owner skipped the period (nothing charged, nothing sent). */
export type SubscriptionBillStatus = 'pending' | 'paid' | 'awaiting-payment' | 'declined' | 'sold-out' | 'skipped';

/** One bill per subscription and period: UNIQUE (subscription_id, period_number) is the renewal's claim. */
export interface SubscriptionBillsTable {
  id: string;
  subscription_id: string;
  period_number: number;
  status: SubscriptionBillStatus;
  amount: number;
  order_id: string | null;
  /** Lease of the run that claimed a pending bill. */
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}

/** A cancel link's token, stored as its sha256 (the link is in e-mails only). */
export interface SubscriptionLinksTable {
  token_hash: string;
  subscription_id: string;
  created_at: string;
}

export type SubscriptionRow = Selectable<SubscriptionsTable>;

declare module '../../platform/db/tables' {
  interface Database {
    subscription_carts: SubscriptionCartsTable;
    subscriptions: SubscriptionsTable;
    subscription_bills: SubscriptionBillsTable;
    subscription_links: SubscriptionLinksTable;
  }
}
