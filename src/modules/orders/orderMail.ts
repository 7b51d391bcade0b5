/**
 * The e-mails an order sends, written to the outbox inside the order's transaction (nothing is sent for an order that
 * rolled back; nothing is lost while the mail server is down): the confirmation to the shopper, and the new-order
 * notice to the shop's address when the site has one.
 *
 * The order's transaction does not render them (that was about an eighth of placing an order): it writes each one's
 * recipient and subject and, as render data, the few facts the templates need that the stored order does not keep
 * as they were at placement — the site's title, the order's URL, its status then (a manual payment may be marked paid
 * before the e-mail goes out; the e-mail still tells of the order as placed), the manual-payment instructions then.
 * The outbox renders the text and HTML when it sends or shows the message (orderMailRenderer), from those facts, the
 * stored order and the gift cards it spent (their 'redeem' rows, written in the order's transaction and never
 * changed), byte for byte what rendering them at placement gave.
 */
import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import type { Database, OrderStatus } from '../../platform/db/tables';
import { giftCardPaymentsOfOrder } from '../giftCards';
import { enqueueEmailsToRender, type NewEmailToRender, type OutboxMessage } from '../../platform/mail/outbox';
import {
  newOrderEmail,
  newOrderSubject,
  orderConfirmationEmail,
  orderConfirmationSubject,
  type GiftCardPayment,
  type RenderedEmail,
} from './orderEmails';
import { getOrder } from './orders';
import type { Order } from './orderTypes';
import type { Site } from '../site';

type Db = Kysely<Database>;

/** The outbox kinds of an order's e-mails. */
export const ORDER_CONFIRMATION_KIND = 'order-confirmation';
export const NEW_ORDER_KIND = 'new-order';

/** An order e-mail's render data (stored as JSON): what its templates need that the stored order does not keep as placed. */
export interface OrderMailFacts {
  /** The site's title when the order was placed. */
  siteTitle: string;
  /** The order-confirmed page (absolute URL). */
  orderUrl: string;
  /** The order's status when it was placed. */
  status: OrderStatus;
  /** The site's manual payment instructions then: the confirmation of an order awaiting payment only. */
  manualInstructions?: string;
}

const ORDER_STATUSES: readonly OrderStatus[] = ['paid', 'awaiting-payment', 'refunded'];

/** Writes the order's e-mails (recipient, subject, render data) in one statement; call it in the order's transaction. */
export async function enqueueOrderEmails(trx: Db, site: Site, order: Order, orderUrl: string): Promise<void> {
  const checkout = site.settings.store.checkout;
  const placed: OrderMailFacts = { siteTitle: site.title, orderUrl, status: order.status };
  const manualInstructions = order.status === 'awaiting-payment' ? checkout.payments.manualInstructions : undefined;
  const emails: NewEmailToRender[] = [
    {
      siteId: site.id,
      kind: ORDER_CONFIRMATION_KIND,
      to: order.email,
      subject: orderConfirmationSubject(order, site.title),
      renderData: JSON.stringify(manualInstructions ? { ...placed, manualInstructions } : placed),
      orderId: order.id,
    },
  ];
  if (checkout.shopEmail) emails.push(newOrderNotice(site, order, checkout.shopEmail, placed));
  await enqueueEmailsToRender(trx, emails);
}

/** The new-order notice to the shop's address, as render data. */
const newOrderNotice = (site: Site, order: Order, shopEmail: string, placed: OrderMailFacts): NewEmailToRender => ({
  siteId: site.id,
  kind: NEW_ORDER_KIND,
  to: shopEmail,
  subject: newOrderSubject(order, site.title),
  renderData: JSON.stringify(placed),
  orderId: order.id,
});

/**
 * Writes only the shop's new-order notice, when the site has a shop address (a subscription's renewal: the shopper's
 * e-mail of it is the subscription's own); call it in the order's transaction.
 */
export async function enqueueNewOrderNotice(trx: Db, site: Site, order: Order, orderUrl: string): Promise<void> {
  const shopEmail = site.settings.store.checkout.shopEmail;
  if (!shopEmail) return;
  await enqueueEmailsToRender(trx, [
    newOrderNotice(site, order, shopEmail, { siteTitle: site.title, orderUrl, status: order.status }),
  ]);
}

/** The render data read back, or undefined when it is not an OrderMailFacts. */
function parseFacts(json: string): OrderMailFacts | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { siteTitle, orderUrl, status, manualInstructions } = value as Record<string, unknown>;
  if (typeof siteTitle !== 'string' || typeof orderUrl !== 'string' || !ORDER_STATUSES.includes(status as OrderStatus))
    return undefined;
  if (manualInstructions !== undefined && typeof manualInstructions !== 'string') return undefined;
  return { siteTitle, orderUrl, status: status as OrderStatus, ...(manualInstructions ? { manualInstructions } : {}) };
}

/** What the order's e-mails are rendered from besides their facts. */
interface StoredOrder {
  order: Order;
  giftCards: GiftCardPayment[];
}

/**
 * Renders the order e-mails the outbox holds as render data (see the top of this file), for one drain or listing: each
 * order is read once, however many of its e-mails it renders. Answers an error for a message that can never be
 * rendered (its order is gone, its data unreadable); throws when the database does (then it may work later).
 */
export function orderMailRenderer(db: Db): (message: OutboxMessage) => Promise<Result<RenderedEmail, string>> {
  const orders = new Map<string, Promise<StoredOrder | undefined>>();
  const load = (siteId: string, orderId: string): Promise<StoredOrder | undefined> => {
    const key = `${siteId}/${orderId}`;
    let loading = orders.get(key);
    if (!loading) {
      loading = (async () => {
        const order = await getOrder(db, siteId, orderId);
        return order && { order, giftCards: await giftCardPaymentsOfOrder(db, orderId) };
      })();
      // A database error is not remembered: the next message of the order tries again.
      void loading.catch(() => orders.delete(key));
      orders.set(key, loading);
    }
    return loading;
  };

  return async (message) => {
    const what = `the ${message.kind} e-mail`;
    if (message.kind !== ORDER_CONFIRMATION_KIND && message.kind !== NEW_ORDER_KIND)
      return err(`cannot render ${what}: no template renders that kind from render data`);
    const facts = message.renderData === null ? undefined : parseFacts(message.renderData);
    if (!facts)
      return err(
        `cannot render ${what}: its render data is not readable (${JSON.stringify((message.renderData ?? '').slice(0, 200))})`,
      );
    if (message.orderId === null) return err(`cannot render ${what}: it names no order`);
    const stored = await load(message.siteId, message.orderId);
    if (!stored)
      return err(`cannot render ${what}: order ${message.orderId} of site '${message.siteId}' is not in the database`);
    // The order as placed: its status may have changed since (a manual payment received, a refund).
    const order: Order = { ...stored.order, status: facts.status };
    const { siteTitle, orderUrl, manualInstructions } = facts;
    return ok(
      message.kind === ORDER_CONFIRMATION_KIND
        ? orderConfirmationEmail(order, {
            siteTitle,
            orderUrl,
            giftCards: stored.giftCards,
            ...(manualInstructions ? { manualInstructions } : {}),
          })
        : newOrderEmail(order, { siteTitle, orderUrl, giftCards: stored.giftCards }),
    );
  };
}
