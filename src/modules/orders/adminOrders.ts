/**
 * The owner's view of the orders (/admin/orders, issue 25): the list (newest first, filtered by payment and
 * fulfilment, searched by number, e-mail or name, paged with cursors) and one order in full — its lines, payments,
 * shipments, notes, the e-mails sent for it and a timeline of what happened to it (the order row, its payments and
 * e-mails, and the audit log).
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { searchTerms } from '../../core/adminSearch';
import type { ShippingAddress } from '../../core/checkout/types';
import {
  paymentLabel,
  paymentState,
  FULFILMENT_LABELS,
  trackingUrl,
  type Fulfilment,
  type PaymentState,
} from '../../core/orderStates';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import { ftsAllOf, indexPendingTrigrams, likeAllOf, pgAllOf } from '../../platform/db/trigramSearch';
import { countPendingOrders } from './counted';
import { listAudit } from '../admin';
import { getOrderByNumber } from './orders';
import type { Order } from './orderTypes';

type Db = Kysely<Database>;

export const ORDERS_PAGE_SIZE = 50;

export interface OrderListFilter {
  payment?: PaymentState;
  fulfilment?: Fulfilment;
  /** Only the orders to fulfil: paid (refunded in part or not) and pending, as the owner's home counts them. */
  toFulfil?: boolean;
  /** An order number ('12' or '#12'), part of an e-mail, or part of the customer's name. */
  q?: string;
  cursor?: string;
  limit?: number;
}

export interface AdminOrderSummary {
  number: number;
  placedAt: string;
  /** The shipping name ('Ada Lovelace'), or '' when nothing was shipped. */
  customer: string;
  email: string;
  currency: string;
  totalCents: number;
  payment: PaymentState;
  paymentLabel: string;
  fulfilment: Fulfilment;
  fulfilmentLabel: string;
}

export interface AdminOrderPage {
  orders: AdminOrderSummary[];
  /** The cursor of the next (older) page, or null at the end. */
  next: string | null;
  /** The search was too short to look for (src/core/adminSearch.ts): nothing was read. */
  tooShort?: true;
}

/** The name on the shipping address, or ''. */
export function shippingName(address: string | ShippingAddress | null): string {
  let value: Partial<ShippingAddress> | null = null;
  if (typeof address === 'string') {
    try {
      value = JSON.parse(address) as Partial<ShippingAddress>;
    } catch {
      value = null;
    }
  } else value = address;
  if (!value) return '';
  return [value.firstName, value.lastName]
    .filter((part) => typeof part === 'string' && part)
    .join(' ')
    .trim();
}

const encodeCursor = (row: { created_at: string; number: number }): string =>
  Buffer.from(JSON.stringify([row.created_at, row.number])).toString('base64url');

function decodeCursor(cursor: string | undefined): { createdAt: string; number: number } | undefined {
  if (!cursor || cursor.length > 200) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'string' && Number.isSafeInteger(value[1]))
      return { createdAt: value[0], number: value[1] as number };
  } catch {
    // Not ours: the first page.
  }
  return undefined;
}

/** The rows a payment filter matches: the stored status and the amount refunded so far (core/orderStates.ts). */
const paymentFilter =
  (state: PaymentState) =>
  (eb: ExpressionBuilder<Database, 'orders'>): Expression<SqlBool> => {
    const none = eb('refunded_total', '=', 0);
    const whole = eb.or([eb('status', '=', 'refunded'), eb('refunded_total', '>=', eb.ref('grand_total'))]);
    if (state === 'refunded') return whole;
    if (state === 'partially-refunded')
      return eb.and([eb('status', '!=', 'refunded'), eb('refunded_total', '>', 0), eb.not(whole)]);
    return eb.and([eb('status', '=', state), none]);
  };

/** The shipping name of an order, as migration 027's index orders_name_trigrams has it (PostgreSQL). */
const PG_SHIPPING_NAME = sql<string>`lower(trim(coalesce(shipping_address::json->>'firstName', '') || ' ' || coalesce(shipping_address::json->>'lastName', '')))`;

/** SQLite: the same name, for a common search's walk (fewMatches). */
const SQLITE_SHIPPING_NAME = sql<string>`lower(trim(coalesce(json_extract(shipping_address, '$.firstName'), '') || ' ' || coalesce(json_extract(shipping_address, '$.lastName'), '')))`;

/**
 * The orders whose e-mail or shipping name holds every term, from a trigram index (migration 027): PostgreSQL's GIN
 * indexes orders_email_trigrams and orders_name_trigrams; SQLite's FTS5 table orders_search_fts (the orders' ids) —
 * or, for a common search on SQLite (`byKey` false), the same texts matched as the newest orders are walked.
 */
const searchedOrders =
  (db: Db, terms: readonly string[], byKey: boolean) =>
  (eb: ExpressionBuilder<Database, 'orders'>): Expression<SqlBool> =>
    engineOf(db) === 'postgres'
      ? pgAllOf([sql<string>`lower(email)`, PG_SHIPPING_NAME], terms)
      : byKey
        ? eb(
            'id',
            'in',
            sql<string>`(SELECT s.order_id FROM orders_search_fts f JOIN orders_search s ON s.id = f.rowid
            WHERE orders_search_fts MATCH ${ftsAllOf(terms)})`,
          )
        : likeAllOf([sql<string>`lower(email)`, SQLITE_SHIPPING_NAME], terms, 'sqlite');

/** At this many matches or more, a search is common: SQLite walks the newest orders for its page (fewMatches). */
export const COMMON_MATCHES = 1000;

/**
 * SQLite: whether a search has fewer than COMMON_MATCHES matches (in every site: a guide, not a count), read from the
 * FTS5 table up to that many. A search of few matches (one customer's e-mail or name: a handful) has them read by
 * their key and sorted for the page; a common one ('example.com', a frequent surname) has the site's orders walked
 * newest first, each matched by LIKE (the same texts, the same parts: as the FTS5 table matches them), until a page
 * is found — with M matches among N orders, about N ÷ M
 * orders read for each one shown, where sorting every match would read all M. PostgreSQL's planner makes the same
 * choice from its statistics.
 */
async function fewMatches(db: Db, terms: readonly string[]): Promise<boolean> {
  await countPendingOrders(db);
  await indexPendingTrigrams(db, 'orders_search');
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM (SELECT 1 FROM orders_search_fts
    WHERE orders_search_fts MATCH ${ftsAllOf(terms)} LIMIT ${COMMON_MATCHES})`.execute(db);
  return Number(rows[0]?.n ?? 0) < COMMON_MATCHES;
}

/** The site's orders, newest first, `limit` (50) a page. */
export async function listAdminOrders(db: Db, siteId: string, filter: OrderListFilter = {}): Promise<AdminOrderPage> {
  const limit = filter.limit ?? ORDERS_PAGE_SIZE;
  const after = decodeCursor(filter.cursor);
  const q = (filter.q ?? '').trim();
  const numberSearched = /^#?\d{1,15}$/.test(q) ? Number(q.replace('#', '')) : undefined;
  const terms = q !== '' && numberSearched === undefined ? searchTerms(q) : undefined;
  if (terms === null) return { orders: [], next: null, tooShort: true };
  const byKey = terms !== undefined && engineOf(db) === 'sqlite' && (await fewMatches(db, terms));
  const rows = await db
    .selectFrom('orders')
    .select([
      'number',
      'created_at',
      'email',
      'shipping_address',
      'currency',
      'grand_total',
      'refunded_total',
      'status',
      'fulfilment',
    ])
    // SQLite, a search of few matches: the site's index set aside (`+site_id`), so that the matches are read by their
    // key and sorted, not the site's orders walked newest first and each looked for among the matches (fewMatches).
    .where(byKey ? sql<string>`+site_id` : 'site_id', '=', siteId)
    .$if(filter.payment !== undefined, (qb) => qb.where(paymentFilter(filter.payment!)))
    .$if(filter.fulfilment !== undefined, (qb) => qb.where('fulfilment', '=', filter.fulfilment!))
    .$if(filter.toFulfil === true, (qb) => qb.where('fulfilment', '=', 'pending').where('status', '=', 'paid'))
    .$if(numberSearched !== undefined, (qb) => qb.where('number', '=', numberSearched!))
    // An e-mail or a name: every word of the search in one of them (src/core/adminSearch.ts).
    .$if(terms !== undefined, (qb) => qb.where(searchedOrders(db, terms!, byKey)))
    .$if(after !== undefined, (qb) =>
      qb.where((eb) =>
        eb.and([
          // Where the index's range starts (the page after reads from the cursor on, not every newer order first).
          eb('created_at', '<=', after!.createdAt),
          eb.or([
            eb('created_at', '<', after!.createdAt),
            eb.and([eb('created_at', '=', after!.createdAt), eb('number', '<', after!.number)]),
          ]),
        ]),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('number', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    orders: page.map((row) => {
      const refunded = Number(row.refunded_total);
      return {
        number: row.number,
        placedAt: row.created_at,
        customer: shippingName(row.shipping_address),
        email: row.email,
        currency: row.currency,
        totalCents: row.grand_total,
        payment: paymentState(row.status, refunded, row.grand_total),
        paymentLabel: paymentLabel(row.status, refunded, row.grand_total),
        fulfilment: row.fulfilment,
        fulfilmentLabel: FULFILMENT_LABELS[row.fulfilment],
      };
    }),
    next: rows.length > limit && last ? encodeCursor(last) : null,
  };
}

export interface AdminShipment {
  id: string;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  notified: boolean;
  at: string;
  by: string;
}

export interface AdminOrderNote {
  id: string;
  author: string;
  body: string;
  at: string;
}

export interface AdminPayment {
  id: string;
  provider: string;
  status: string;
  amountCents: number;
  currency: string;
  reference: string | null;
  at: string;
}

export interface AdminOrderEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: string;
  createdAt: string;
  sentAt: string | null;
}

export interface TimelineEvent {
  at: string;
  /** Who did it: a staff member's e-mail, 'vitrine command', 'the customer' or 'the shop'. */
  by: string;
  text: string;
}

export interface AdminOrder {
  order: Order;
  customer: string;
  payment: PaymentState;
  paymentLabel: string;
  fulfilment: Fulfilment;
  fulfilmentLabel: string;
  shipments: AdminShipment[];
  notes: AdminOrderNote[];
  payments: AdminPayment[];
  emails: AdminOrderEmail[];
  /** Oldest first. */
  timeline: TimelineEvent[];
}

/** One order of the site in full, by number, or undefined. */
export async function getAdminOrder(db: Db, siteId: string, number: number): Promise<AdminOrder | undefined> {
  const order = await getOrderByNumber(db, siteId, number);
  if (!order) return undefined;
  const [state, shipments, notes, payments, emails, audit] = await Promise.all([
    db
      .selectFrom('orders')
      .select(['fulfilment', 'refunded_total'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow(),
    db.selectFrom('fulfilments').selectAll().where('order_id', '=', order.id).orderBy('created_at').execute(),
    db.selectFrom('order_notes').selectAll().where('order_id', '=', order.id).orderBy('created_at').execute(),
    db
      .selectFrom('payments')
      .select(['id', 'provider', 'status', 'amount', 'currency', 'provider_reference', 'created_at', 'updated_at'])
      .where('order_id', '=', order.id)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('outbox')
      .select(['id', 'kind', 'to_address', 'subject', 'status', 'created_at', 'sent_at'])
      .where('order_id', '=', order.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    listAudit(db, siteId, { subject: { type: 'order', id: order.id }, limit: 200 }),
  ]);
  const refunded = Number(state.refunded_total);
  const timeline: TimelineEvent[] = [
    { at: order.createdAt, by: 'the customer', text: `Order placed (${order.email})` },
    ...payments.map((p) => ({
      at: p.updated_at,
      by: 'the shop',
      text: `Payment ${p.status.replace('-', ' ')} (${p.provider})`,
    })),
    ...emails.map((e) => ({
      at: e.sent_at ?? e.created_at,
      by: 'the shop',
      text: `E-mail ${e.status === 'sent' ? 'sent' : e.status === 'failed' ? 'failed' : 'queued'} to ${e.to_address}: ${e.subject}`,
    })),
    ...audit.records.map((r) => ({ at: r.at, by: r.actor, text: r.summary })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return {
    order,
    customer: shippingName(order.shippingAddress),
    payment: paymentState(order.status, refunded, order.grandTotalCents),
    paymentLabel: paymentLabel(order.status, refunded, order.grandTotalCents),
    fulfilment: state.fulfilment,
    fulfilmentLabel: FULFILMENT_LABELS[state.fulfilment],
    shipments: shipments.map((s) => ({
      id: s.id,
      carrier: s.carrier,
      trackingNumber: s.tracking_number,
      trackingUrl: trackingUrl(s.carrier, s.tracking_number),
      notified: s.notify === 1,
      at: s.created_at,
      by: s.created_by,
    })),
    notes: notes.map((n) => ({ id: n.id, author: n.author, body: n.body, at: n.created_at })),
    payments: payments.map((p) => ({
      id: p.id,
      provider: p.provider,
      status: p.status,
      amountCents: p.amount,
      currency: p.currency,
      reference: p.provider_reference,
      at: p.created_at,
    })),
    emails: emails.map((e) => ({
      id: e.id,
      kind: e.kind,
      to: e.to_address,
      subject: e.subject,
      status: e.status,
      createdAt: e.created_at,
      sentAt: e.sent_at,
    })),
    timeline,
  };
}
