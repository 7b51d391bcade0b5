/**
 * Kysely table types: the database contract of docs/architecture.md. Same logical schema on SQLite and PostgreSQL:
 * booleans are integers 0/1, JSON documents are TEXT, times are ISO-8601 TEXT (UTC), money is integer minor units.
 * Row types (these) and site-file types (src/modules/site/schema.ts) are different types; services map between them.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** 0 or 1. */
export type Bool = 0 | 1;

export interface SitesTable {
  id: string;
  title: string;
  /** JSON array of host names. */
  domains: string;
  is_default: Bool;
  currency: string;
  /** JSON: the site file's `website` object. */
  settings: string;
  /** Bumped on every import; rendered pages are cached per version. */
  version: number;
  updated_at: string;
}

export interface CollectionsTable {
  site_id: string;
  id: string;
  type: string;
  slug: string;
  position: number;
  /** JSON: the site file's collection. */
  data: string;
}

export interface ProductsTable {
  site_id: string;
  id: string;
  collection_id: string;
  slug: string;
  position: number;
  product_type: number;
  /** JSON: the site file's product without `variants`. */
  data: string;
}

/** Stock lives here and only here. */
export interface VariantsTable {
  site_id: string;
  sku: string;
  product_id: string;
  position: number;
  price: number;
  sale_price: number | null;
  on_sale: Bool;
  unlimited: Bool;
  /** 0 when `unlimited` is 1. */
  qty_in_stock: number;
  /** JSON: the variant's attributes (option name → value). */
  data: string;
  /** Set by a trigger from one growing counter whenever the stock changes (migration 016): what servers watch. */
  stock_seq: Generated<number>;
}

export interface FormsTable {
  site_id: string;
  id: string;
  position: number;
  data: string;
}

export interface PagesTable {
  site_id: string;
  id: string;
  path: string;
  position: number;
  data: string;
}

export interface PostsTable {
  site_id: string;
  id: string;
  collection_id: string;
  slug: string;
  position: number;
  data: string;
}

/** Images shipped with a site file; `path` is the image's `file` as written in the site file. */
export interface AssetsTable {
  site_id: string;
  path: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
}

/**
 * The site search's index (src/modules/search): one row per product, page and post, rewritten by every import.
 * `*_terms` are the folded words (src/core/search.ts `indexText`) the engines index: SQLite in the FTS5 table
 * `search_documents_fts` (kept in step by triggers), PostgreSQL in the generated tsvector column `terms` (GIN).
 */
export interface SearchDocumentsTable {
  id: Generated<number>;
  site_id: string;
  /** 'product' | 'page' | 'post' */
  kind: string;
  item_id: string;
  /** The result's site path. */
  path: string;
  title: string;
  /** Shown when a result matched them: tags and variant values, a page's headings, a post's tags and categories. */
  details: string;
  /** The text the snippet is cut from: a description, a page's text, a post's excerpt and body. */
  summary: string;
  /** Order among equally ranked results (the site file's order: products, pages, posts). */
  position: number;
  title_terms: string;
  detail_terms: string;
  summary_terms: string;
}

export interface CartsTable {
  /** Random 128-bit token, base64url. */
  id: string;
  site_id: string;
  created_at: string;
  updated_at: string;
  is_purchased: Bool;
  /** The order that bought this cart (orders.id), set with is_purchased. */
  order_id: string | null;
  /**
   * The page's cart claim (X-Cart-Claim) the cart was created with, or null: adds sent at once with one claim and no
   * cookie make this one cart. UNIQUE (site_id, claim); honoured only briefly after created_at (src/modules/cart/cart.ts).
   */
  claim: string | null;
}

export interface CartEntriesTable {
  /** Chosen by the service (a random token); TEXT on both engines. */
  id: string;
  cart_id: string;
  item_id: string;
  sku: string;
  quantity: number;
  /** JSON text, '' when none. */
  additional_fields: string;
  unit_price: number;
  created_at: string;
}

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
  created_at: string;
  updated_at: string;
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
}

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

export interface CouponUsageTable {
  site_id: string;
  /** Upper case. */
  code: string;
  uses: number;
}

export interface CouponEmailUsesTable {
  site_id: string;
  code: string;
  /** Lower case, trimmed. */
  email: string;
  order_id: string;
}

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

/** Marks a cart as a subscription cart (spec §7 cartToken): one line, never the shopper's CART cookie cart. */
export interface SubscriptionCartsTable {
  cart_id: string;
  site_id: string;
  item_id: string;
  sku: string;
  subscription_option_id: string | null;
  created_at: string;
}

export type SubscriptionStatusValue = 'active' | 'past_due' | 'cancelled' | 'completed';

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

export type SubscriptionBillStatus = 'pending' | 'paid' | 'awaiting-payment' | 'declined' | 'sold-out';

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

/** One raw analytics event (migration 007): no IP or user agent, a salted daily visitor hash. */
export interface AnalyticsEventsTable {
  id: Generated<number>;
  site_id: string;
  day: string;
  created_at: string;
  kind: string;
  name: string;
  path: string;
  page_type: number | null;
  visitor_hash: string;
  visit_hash: string | null;
  browser: string;
  device: string;
  country: string | null;
  ref: string | null;
  value: number | null;
  rating: string | null;
  detail: string | null;
}

/** Events of one (site, day, kind, name, path, page type), rolled up. */
export interface AnalyticsDailyTable {
  site_id: string;
  day: string;
  kind: string;
  name: string;
  path: string;
  page_type: number;
  events: number;
  visitors: number;
  visits: number;
  refs: number;
  value_sum: number;
  good: number;
  needs_improvement: number;
  poor: number;
  p75: number | null;
  sample: string | null;
}

export interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

/** A token that opens the report page of one site, stored as its sha256. */
export interface AnalyticsReportTokensTable {
  token_hash: string;
  site_id: string;
  created_at: string;
}

/** A form submission key (POST /api/form/FormSubmissionKey), stored as its sha256; used once, before expires_at. */
export interface FormKeysTable {
  key_hash: string;
  site_id: string;
  expires_at: string;
  created_at: string;
}

/** A stored form submission: `fields` is field id → value (§3 shapes), `answers` the titled lines (JSON). */
export interface FormSubmissionsTable {
  id: string;
  site_id: string;
  form_id: string;
  form_name: string;
  fields: string;
  answers: string;
  page_path: string | null;
  created_at: string;
}

export type MailingListStatus = 'pending' | 'confirmed';

/** The newsletter's mailing list: one row per e-mail (lower-cased) and site; pending until confirmed (double opt-in). */
export interface MailingListTable {
  id: string;
  site_id: string;
  email: string;
  status: MailingListStatus;
  source_form_id: string | null;
  /** sha256 of the confirmation link's token; null once confirmed. */
  token_hash: string | null;
  created_at: string;
  confirmed_at: string | null;
}

/** ALTCHA's HMAC secret of a site, made on first use. */
export interface CaptchaSecretsTable {
  site_id: string;
  secret: string;
  created_at: string;
}

/** The HMAC secret of a site's page-lock cookies (src/modules/pageLocks/pageLocks.ts), made on first use. */
export interface PageLockSecretsTable {
  site_id: string;
  secret: string;
  created_at: string;
}

/** A visitor's like of a blog post (src/modules/likes/likes.ts): one per post and liker cookie (its sha256). */
export interface PostLikesTable {
  site_id: string;
  post_id: string;
  liker_hash: string;
  created_at: string;
}

/** An ALTCHA challenge already solved and accepted (PRIMARY KEY site, challenge: a replay is refused). */
export interface CaptchaSolutionsTable {
  site_id: string;
  challenge_id: string;
  expires_at: string;
}

export interface SiteUsersTable {
  id: string;
  site_id: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** scrypt$log2N$r$p$salt$hash (src/modules/siteUsers/passwords.ts). */
  password_hash: string;
  /** A contributor role of spec §3 (ContributorRole in src/core/enums.ts). */
  role: number;
  created_at: string;
}

export interface SiteUserSessionsTable {
  /** sha256 (hex) of the session cookie's token. */
  token_hash: string;
  site_user_id: string;
  expires_at: string;
  created_at: string;
}

/**
 * A shopper's restock sign-up (spec §3): one per e-mail and variant of a site. `notified_at` is set by the send that
 * e-mails it (in the transaction that writes the e-mail to the outbox), so each sign-up is e-mailed once.
 */
export interface RestockSignUpsTable {
  id: string;
  site_id: string;
  product_id: string;
  /** The variant (§3 variantId). */
  sku: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** The shopper asked to join the mailing list too (and the product offered it). */
  joined_mailing_list: Bool;
  /** The origin of the links in its e-mail (the site's address the shopper signed up at). */
  base_url: string;
  created_at: string;
  notified_at: string | null;
  /** sha256 (hex) of the unsubscribe link's token in its e-mail; null until e-mailed. */
  unsubscribe_token_hash: string | null;
}

/** Per variant with sign-ups: when it last came back in stock, and whether the automatic send has yet to look. */
export interface RestockVariantsTable {
  site_id: string;
  sku: string;
  product_id: string;
  restocked_at: string | null;
  /** 'import' or 'refund'. */
  restock_source: string | null;
  restocked_qty: number | null;
  auto_send_pending: Bool;
}

export interface Database {
  sites: SitesTable;
  collections: CollectionsTable;
  products: ProductsTable;
  variants: VariantsTable;
  forms: FormsTable;
  pages: PagesTable;
  posts: PostsTable;
  assets: AssetsTable;
  carts: CartsTable;
  cart_entries: CartEntriesTable;
  order_counters: OrderCountersTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  payments: PaymentsTable;
  coupon_usage: CouponUsageTable;
  coupon_email_uses: CouponEmailUsesTable;
  outbox: OutboxTable;
  subscription_carts: SubscriptionCartsTable;
  subscriptions: SubscriptionsTable;
  subscription_bills: SubscriptionBillsTable;
  subscription_links: SubscriptionLinksTable;
  gift_cards: GiftCardsTable;
  gift_card_transactions: GiftCardTransactionsTable;
  form_keys: FormKeysTable;
  form_submissions: FormSubmissionsTable;
  mailing_list: MailingListTable;
  captcha_secrets: CaptchaSecretsTable;
  captcha_solutions: CaptchaSolutionsTable;
  analytics_events: AnalyticsEventsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_salts: AnalyticsSaltsTable;
  analytics_report_tokens: AnalyticsReportTokensTable;
  site_users: SiteUsersTable;
  site_user_sessions: SiteUserSessionsTable;
  restock_sign_ups: RestockSignUpsTable;
  restock_variants: RestockVariantsTable;
  search_documents: SearchDocumentsTable;
  post_likes: PostLikesTable;
  page_lock_secrets: PageLockSecretsTable;
}

export type SiteRow = Selectable<SitesTable>;
export type NewSiteRow = Insertable<SitesTable>;
export type SiteUpdate = Updateable<SitesTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type ProductRow = Selectable<ProductsTable>;
/** A variant as the services read it (its change number is the stock watch's alone: src/modules/catalog/stockChanges.ts). */
export type VariantRow = Omit<Selectable<VariantsTable>, 'stock_seq'>;
export type FormRow = Selectable<FormsTable>;
export type PageRow = Selectable<PagesTable>;
export type PostRow = Selectable<PostsTable>;
export type AssetRow = Selectable<AssetsTable>;
export type CartRow = Selectable<CartsTable>;
export type NewCartRow = Insertable<CartsTable>;
export type CartEntryRow = Selectable<CartEntriesTable>;
export type NewCartEntryRow = Insertable<CartEntriesTable>;
export type OrderRow = Selectable<OrdersTable>;
export type OrderLineRow = Selectable<OrderLinesTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type NewOutboxRow = Insertable<OutboxTable>;
export type GiftCardRow = Selectable<GiftCardsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
