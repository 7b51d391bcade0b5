/**
 * The owner's view of the orders (/admin/orders, issue 25): the list (newest first, filtered by payment and
 * fulfilment, searched by number, e-mail or name, paged with cursors) and one order in full — its lines, payments,
 * shipments, notes, the e-mails sent for it and a timeline of what happened to it (the order row, its payments and
 * e-mails, and the audit log).
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { ShippingAddress } from '../../core/checkout/types';
import {
  paymentLabel,
  paymentState,
  FULFILMENT_LABELS,
  trackingUrl,
  type Fulfilment,
  type PaymentState,
} from '../../core/orderStates';
import type { Database } from '../../platform/db/tables';
import { listAudit } from '../admin';
import { getOrderByNumber } from './orders';
import type { Order } from './orderTypes';

type Db = Kysely<Database>;

export const ORDERS_PAGE_SIZE = 50;

export interface OrderListFilter {
  payment?: PaymentState;
  fulfilment?: Fulfilment;
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

/** A LIKE pattern of a searched text: its own wildcards dropped (SQLite's LIKE has no default escape character). */
const likeText = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, '')}%`;

/** The site's orders, newest first, `limit` (50) a page. */
export async function listAdminOrders(db: Db, siteId: string, filter: OrderListFilter = {}): Promise<AdminOrderPage> {
  const limit = filter.limit ?? ORDERS_PAGE_SIZE;
  const after = decodeCursor(filter.cursor);
  const q = (filter.q ?? '').trim();
  const numberSearched = /^#?\d{1,15}$/.test(q) ? Number(q.replace('#', '')) : undefined;
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
    .where('site_id', '=', siteId)
    .$if(filter.payment !== undefined, (qb) => qb.where(paymentFilter(filter.payment!)))
    .$if(filter.fulfilment !== undefined, (qb) => qb.where('fulfilment', '=', filter.fulfilment!))
    .$if(numberSearched !== undefined, (qb) => qb.where('number', '=', numberSearched!))
    .$if(q !== '' && numberSearched === undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['email']), 'like', likeText(q)),
          // The name is in the shipping address (JSON): each word of the search in it.
          eb.and(
            q
              .split(/\s+/)
              .map((word) =>
                eb(eb.fn('lower', ['shipping_address']), 'like', likeText(JSON.stringify(word).slice(1, -1))),
              ),
          ),
        ]),
      ),
    )
    .$if(after !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('created_at', '<', after!.createdAt),
          eb.and([eb('created_at', '=', after!.createdAt), eb('number', '<', after!.number)]),
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
