/**
 * An order's e-mails: the confirmation to the shopper and the new-order notice to the shop, their outbox kinds, and
 * how the outbox renders them.
 *
 * They are written to the outbox inside the order's transaction (nothing is sent for an order that rolled back;
 * nothing is lost while the mail server is down), but the order's transaction does not render them (that was about an
 * eighth of placing an order): it writes each one's recipient and subject and, as render data, the few facts the
 * e-mails need that the stored order does not keep as they were at placement — the site's title, the order's URL, its
 * status then (a manual payment may be marked paid before the e-mail goes out; the e-mail still tells of the order as
 * placed), the manual-payment instructions then. The outbox renders the text and HTML when it sends or shows the
 * message (the renderer of orderMailKinds), from those facts, the stored order and the gift cards it spent (their
 * 'redeem' rows, written in the order's transaction and never changed).
 *
 * Every amount is formatMoney of the order's stored totals, so the e-mail shows the strings the order page shows.
 */
import type { Kysely } from 'kysely';
import { Fragment } from 'react';
import { formatAddressLines } from '../../core/checkout/address';
import { parseCurrencyCode, type CurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import type { OrderStatus } from './tables';
import { Heading, Link, Lines, Paragraph, Section } from '../../platform/mail/blocks';
import type { MailKind, QueuedMessage } from '../../platform/mail/kinds';
import { Layout } from '../../platform/mail/Layout';
import { enqueueEmail, enqueueEmailsToRender, type NewEmailToRender } from '../../platform/mail/outbox';
import { oneLine, renderMail, withText, type RenderedEmail } from '../../platform/mail/render';
import { cell, muted, numberCell } from '../../platform/mail/styles';
import { giftCardPaymentsOfOrder } from '../giftCards';
import { shopNoticeRecipients } from '../siteUsers';
import { getOrder } from './orders';
import type { Order, OrderLine } from './orderTypes';
import type { Site } from '../site';

type Db = Kysely<Database>;

/** The outbox kinds of an order's e-mails. */
export const ORDER_CONFIRMATION_KIND = 'order-confirmation';
export const NEW_ORDER_KIND = 'new-order';

/** What gift cards paid of an order (services/giftCards.ts giftCardPaymentsOfOrder). */
export interface GiftCardPayment {
  lastFour: string;
  amountCents: number;
}

export interface ConfirmationContext {
  siteTitle: string;
  /** The gift cards that paid part of the order. */
  giftCards?: readonly GiftCardPayment[];
  /** The order-confirmed page (absolute URL). */
  orderUrl: string;
  /** The site's manual payment instructions; shown only while the order awaits payment. */
  manualInstructions?: string;
}

export interface NewOrderContext {
  siteTitle: string;
  giftCards?: readonly GiftCardPayment[];
  orderUrl: string;
}

const money = (order: Order, minorUnits: number): string =>
  formatMoney({ minorUnits, currency: parseCurrencyCode(order.currency) ?? (order.currency as CurrencyCode) });

/** '2025-05-01 14:03 UTC' from the stored ISO time. */
const placedAt = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;

const awaitingPayment = (order: Order): boolean => order.status === 'awaiting-payment';

/** 'Size: M, Colour: Red', or '' without options. */
const attributesText = (line: OrderLine): string =>
  Object.entries(line.attributes ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');

/** The product form's answers as the cart showed them: 'Engraving: Happy birthday'. */
const answerTexts = (line: OrderLine): string[] =>
  (line.additionalFieldsSummary ?? [])
    .filter((answer) => answer.lines.length > 0)
    .map((answer) => `${answer.title}: ${answer.lines.join(', ')}`);

interface TotalRow {
  label: string;
  amount: string;
  strong?: boolean;
}

/** What is left for the payment provider once the gift cards paid their part. */
const amountDue = (order: Order, giftCards: readonly GiftCardPayment[]): number =>
  order.grandTotalCents - giftCards.reduce((sum, card) => sum + card.amountCents, 0);

/**
 * The totals as the order page lists them: subtotal, discount, shipping, tax added, total (then tax included); then
 * each gift card used and what was charged to the card (or is left to pay).
 */
function totalRows(order: Order, giftCards: readonly GiftCardPayment[]): TotalRow[] {
  const rows: TotalRow[] = [{ label: 'Subtotal', amount: money(order, order.subtotalCents) }];
  if (order.discountCents > 0) {
    rows.push({
      label: order.couponCode ? `Discount (${order.couponCode})` : 'Discount',
      amount: `-${money(order, order.discountCents)}`,
    });
  }
  if (order.shippingOption)
    rows.push({ label: `Shipping (${order.shippingOption.name})`, amount: money(order, order.shippingCents) });
  const tax = order.taxCents > 0 ? money(order, order.taxCents) : null;
  if (tax && !order.pricesIncludeTax) rows.push({ label: order.taxName, amount: tax });
  rows.push({ label: 'Total', amount: money(order, order.grandTotalCents), strong: true });
  if (tax && order.pricesIncludeTax) rows.push({ label: `Includes ${order.taxName}`, amount: tax });
  if (giftCards.length > 0) {
    for (const card of giftCards)
      rows.push({ label: `Gift card •••• ${card.lastFour}`, amount: `−${money(order, card.amountCents)}` });
    rows.push({
      label: awaitingPayment(order) ? 'Left to pay' : 'Charged to card',
      amount: money(order, amountDue(order, giftCards)),
      strong: true,
    });
  }
  return rows;
}

interface ItemsProps {
  order: Order;
  giftCards: readonly GiftCardPayment[];
}

/**
 * What was bought and the totals: a table in HTML; in the text, 'Items:' with a few lines per item, then the totals
 * one per line.
 */
const Items = withText(
  ({ order, giftCards }: ItemsProps) => (
    <table style={{ width: '100%', borderCollapse: 'collapse', margin: '0 0 24px' }}>
      <caption style={{ textAlign: 'left', fontWeight: 'bold', padding: '0 0 8px' }}>Items</caption>
      <thead>
        <tr>
          <th scope="col" style={{ ...cell, textAlign: 'left' }}>
            Item
          </th>
          <th scope="col" style={numberCell}>
            Quantity
          </th>
          <th scope="col" style={numberCell}>
            Total
          </th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line) => (
          <tr key={line.position}>
            <td style={cell}>
              <strong>{line.title}</strong>
              {[attributesText(line), ...answerTexts(line)].filter(Boolean).map((detail, i) => (
                <Fragment key={i}>
                  <br />
                  <span style={muted}>{detail}</span>
                </Fragment>
              ))}
            </td>
            <td style={numberCell}>{line.quantity}</td>
            <td style={numberCell}>{money(order, line.lineTotal)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {totalRows(order, giftCards).map((row, i) => (
          <tr key={i}>
            <th scope="row" colSpan={2} style={{ ...numberCell, fontWeight: row.strong ? 'bold' : 'normal' }}>
              {row.label}
            </th>
            <td style={{ ...numberCell, fontWeight: row.strong ? 'bold' : 'normal' }}>{row.amount}</td>
          </tr>
        ))}
      </tfoot>
    </table>
  ),
  ({ order, giftCards }) => {
    const items = ['Items:'];
    for (const line of order.lines) {
      const attributes = attributesText(line);
      items.push(`- ${line.title}${attributes ? ` (${attributes})` : ''}`);
      for (const answer of answerTexts(line)) items.push(`  ${answer}`);
      items.push(`  Quantity: ${line.quantity}, ${money(order, line.lineTotal)}`);
    }
    return [
      items.join('\n'),
      totalRows(order, giftCards)
        .map((row) => `${row.label}: ${row.amount}`)
        .join('\n'),
    ];
  },
);

/** Where the order goes, when it is shipped. */
function ShippingTo({ order }: { order: Order }) {
  const lines = order.shippingAddress ? formatAddressLines(order.shippingAddress) : [];
  if (lines.length === 0) return null;
  return (
    <Section title="Shipping to">
      <Paragraph spaced>
        <Lines text={lines.join('\n')} />
      </Paragraph>
    </Section>
  );
}

/** The confirmation's subject (one line): what orderConfirmationEmail's subject is, without rendering the rest. */
export function orderConfirmationSubject(order: Order, siteTitle: string): string {
  const site = oneLine(siteTitle);
  return awaitingPayment(order)
    ? `Order #${order.number} received, awaiting payment — ${site}`
    : `Order #${order.number} confirmed — ${site}`;
}

function OrderConfirmation({ order, ctx, subject }: { order: Order; ctx: ConfirmationContext; subject: string }) {
  const awaiting = awaitingPayment(order);
  const instructions = awaiting ? (ctx.manualInstructions ?? '').trim() : '';
  const giftCards = ctx.giftCards ?? [];
  const total = money(order, amountDue(order, giftCards));
  return (
    <Layout shopName={ctx.siteTitle} subject={subject} signOff>
      <Heading text={`Thank you for your order at ${ctx.siteTitle}.`}>Thank you for your order</Heading>
      <Paragraph
        text={[
          `Order #${order.number}, placed ${placedAt(order.createdAt)}`,
          ...(awaiting ? [`Awaiting payment of ${total}.`] : []),
        ].join('\n')}
      >
        Order #{order.number} at {ctx.siteTitle}, placed {placedAt(order.createdAt)}.
        {awaiting && (
          <>
            {' '}
            Awaiting payment of <strong>{total}</strong>.
          </>
        )}
      </Paragraph>
      {instructions && (
        <Section title="How to pay">
          <Paragraph spaced>
            <Lines text={instructions} />
          </Paragraph>
        </Section>
      )}
      <Items order={order} giftCards={giftCards} />
      <ShippingTo order={order} />
      <Paragraph spaced>
        <Link href={ctx.orderUrl}>View your order</Link>
      </Paragraph>
    </Layout>
  );
}

/** The shopper's confirmation: what was bought, the totals, where it goes, the order link, and how to pay if due. */
export function orderConfirmationEmail(order: Order, ctx: ConfirmationContext): RenderedEmail {
  const subject = orderConfirmationSubject(order, ctx.siteTitle);
  return renderMail(subject, <OrderConfirmation order={order} ctx={ctx} subject={subject} />);
}

/** The new-order notice's subject (one line): what newOrderEmail's subject is, without rendering the rest. */
export function newOrderSubject(order: Order, siteTitle: string): string {
  const total = money(order, order.grandTotalCents);
  return `New order #${order.number} (${total}${awaitingPayment(order) ? ', awaiting payment' : ''}) — ${oneLine(siteTitle)}`;
}

function NewOrder({ order, ctx, subject }: { order: Order; ctx: NewOrderContext; subject: string }) {
  const payment = `${awaitingPayment(order) ? 'awaiting payment' : order.status} (${order.paymentProvider})`;
  return (
    <Layout shopName={ctx.siteTitle} subject={subject}>
      <Heading text={`New order #${order.number} on ${ctx.siteTitle}.`}>New order #{order.number}</Heading>
      <Paragraph spaced>
        Customer: {order.email}
        <br />
        Payment: {payment}
        <br />
        Placed: {placedAt(order.createdAt)}
      </Paragraph>
      <Items order={order} giftCards={ctx.giftCards ?? []} />
      <ShippingTo order={order} />
      <Paragraph spaced>
        <Link href={ctx.orderUrl} text="Order">{`Order #${order.number}`}</Link>
      </Paragraph>
    </Layout>
  );
}

/** The shop's notice of a new order: who ordered, whether it is paid, what to send where. */
export function newOrderEmail(order: Order, ctx: NewOrderContext): RenderedEmail {
  const subject = newOrderSubject(order, ctx.siteTitle);
  return renderMail(subject, <NewOrder order={order} ctx={ctx} subject={subject} />);
}

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

/**
 * Writes the order's e-mails (recipient, subject, render data) in one statement; call it in the order's transaction.
 * The new-order notice goes to every admin and store manager of the site, one per order each, its link the order at
 * /admin/orders/N on `adminOrigin` (ownerLinkOrigin; default the orderUrl's origin), and to the shop's address
 * (store.checkout.shopEmail) unless that is one of theirs.
 */
export async function enqueueOrderEmails(
  trx: Db,
  site: Site,
  order: Order,
  orderUrl: string,
  adminOrigin?: string,
): Promise<void> {
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
    ...(await newOrderNotices(trx, site, order, placed, adminOrigin ?? originOf(orderUrl))),
  ];
  await enqueueEmailsToRender(trx, emails);
}

/** The new-order notice to one address, as render data. */
const newOrderNotice = (site: Site, order: Order, to: string, placed: OrderMailFacts): NewEmailToRender => ({
  siteId: site.id,
  kind: NEW_ORDER_KIND,
  to,
  subject: newOrderSubject(order, site.title),
  renderData: JSON.stringify(placed),
  orderId: order.id,
});

/** The origin of an absolute URL ('' for anything else: the link is then a path). */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** Where the staff's new-order e-mail links: the order's page in the owner's area. */
export const adminOrderUrl = (adminOrigin: string, order: Order): string =>
  `${adminOrigin}/admin/orders/${order.number}`;

/** The new-order notices: one to each admin and store manager (linking to /admin), one to the shop's own address. */
async function newOrderNotices(
  trx: Db,
  site: Site,
  order: Order,
  placed: OrderMailFacts,
  adminOrigin: string,
): Promise<NewEmailToRender[]> {
  const staff = await shopNoticeRecipients(trx, site.id);
  const forStaff: OrderMailFacts = { ...placed, orderUrl: adminOrderUrl(adminOrigin, order) };
  const notices = staff.map((email) => newOrderNotice(site, order, email, forStaff));
  const shopEmail = site.settings.store.checkout.shopEmail;
  if (shopEmail && !staff.includes(shopEmail.trim().toLowerCase()))
    notices.push(newOrderNotice(site, order, shopEmail, placed));
  return notices;
}

/**
 * Writes only the new-order notices (a subscription's renewal: the shopper's e-mail of it is the subscription's own);
 * call it in the order's transaction.
 */
export async function enqueueNewOrderNotice(
  trx: Db,
  site: Site,
  order: Order,
  orderUrl: string,
  adminOrigin?: string,
): Promise<void> {
  const placed: OrderMailFacts = { siteTitle: site.title, orderUrl, status: order.status };
  const notices = await newOrderNotices(trx, site, order, placed, adminOrigin ?? originOf(orderUrl));
  if (notices.length > 0) await enqueueEmailsToRender(trx, notices);
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
export function orderMailRenderer(db: Db): (message: QueuedMessage) => Promise<Result<RenderedEmail, string>> {
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

/** What a refund e-mail tells. */
export interface RefundMailContext {
  siteTitle: string;
  amountCents: number;
  reason: string;
  /** Nothing is left to refund. */
  full: boolean;
  /** The order was canceled. */
  canceled: boolean;
}

/**
 * The customer's refund e-mail: how much is given back, why, and whether the order is now fully refunded or canceled.
 * Rendered when the refund is made (it tells of that refund, not of the order as it will be later).
 */
export function refundEmail(order: Order, ctx: RefundMailContext): RenderedEmail {
  const amount = money(order, ctx.amountCents);
  const site = oneLine(ctx.siteTitle);
  const subject = ctx.canceled
    ? `Order #${order.number} canceled — ${site}`
    : `Refund of ${amount} for order #${order.number} — ${site}`;
  const lead = ctx.canceled
    ? `Your order #${order.number} at ${ctx.siteTitle} is canceled. We have refunded ${amount}.`
    : `We have refunded ${amount} of your order #${order.number} at ${ctx.siteTitle}.`;
  const status = ctx.full ? 'Your order is now fully refunded.' : 'The rest of your order stays as it was.';
  return renderMail(
    subject,
    <Layout shopName={ctx.siteTitle} subject={subject} signOff>
      <Heading text={ctx.canceled ? 'Your order is canceled' : 'Your refund'}>
        {ctx.canceled ? 'Your order is canceled' : 'Your refund'}
      </Heading>
      <Paragraph text={lead}>{lead}</Paragraph>
      <Paragraph text={`Reason: ${ctx.reason}`}>{`Reason: ${ctx.reason}`}</Paragraph>
      <Paragraph
        text={`${status} The money goes back the way you paid; your bank may take a few days to show it.`}
      >{`${status} The money goes back the way you paid; your bank may take a few days to show it.`}</Paragraph>
    </Layout>,
  );
}

/** The order's kinds of mail, rendered from render data by one renderer: an order is read once per drain. */
export const orderMailKinds: readonly MailKind[] = [
  { kind: ORDER_CONFIRMATION_KIND, renderer: orderMailRenderer },
  { kind: NEW_ORDER_KIND, renderer: orderMailRenderer },
];

// ---------------------------------------------------------------- 'your order is on its way'

/** The outbox kind of the shipping e-mail (stored rendered: it is written when the owner fulfils the order). */
export const ORDER_SHIPPED_KIND = 'order-shipped';

export interface ShippedContext {
  siteTitle: string;
  carrier: string | null;
  trackingNumber: string | null;
  /** The carrier's tracking page, when the carrier is a known one (src/core/orderStates.ts trackingUrl). */
  trackingUrl: string | null;
  /** The order-confirmed page (absolute URL), when known. */
  orderUrl: string | null;
}

/** The shipping e-mail's subject. */
export const orderShippedSubject = (order: Order, siteTitle: string): string =>
  `Your order #${order.number} is on its way — ${oneLine(siteTitle)}`;

function OrderShipped({ order, ctx, subject }: { order: Order; ctx: ShippedContext; subject: string }) {
  const carrier = ctx.carrier && ctx.carrier !== 'Other' ? ctx.carrier : null;
  const tracking = ctx.trackingNumber
    ? `Tracking number${carrier ? ` (${carrier})` : ''}: ${ctx.trackingNumber}`
    : carrier
      ? `Sent with ${carrier}.`
      : null;
  return (
    <Layout shopName={ctx.siteTitle} subject={subject} signOff>
      <Heading text={`Your order #${order.number} at ${ctx.siteTitle} is on its way.`}>
        Your order is on its way
      </Heading>
      <Paragraph>{`Order #${order.number} at ${ctx.siteTitle} has been sent.`}</Paragraph>
      {tracking && <Paragraph>{tracking}</Paragraph>}
      {ctx.trackingUrl && (
        <Paragraph spaced>
          <Link href={ctx.trackingUrl}>Track your parcel</Link>
        </Paragraph>
      )}
      <Items order={order} giftCards={[]} />
      <ShippingTo order={order} />
      {ctx.orderUrl && (
        <Paragraph spaced>
          <Link href={ctx.orderUrl}>View your order</Link>
        </Paragraph>
      )}
    </Layout>
  );
}

/** The customer's 'your order is on its way': the carrier, the tracking number and link, what was sent where. */
export function orderShippedEmail(order: Order, ctx: ShippedContext): RenderedEmail {
  const subject = orderShippedSubject(order, ctx.siteTitle);
  return renderMail(subject, <OrderShipped order={order} ctx={ctx} subject={subject} />);
}

/** The order-confirmed page's URL the confirmation e-mail gave the customer, or null (an order placed without one). */
export async function confirmationOrderUrl(db: Db, orderId: string): Promise<string | null> {
  const row = await db
    .selectFrom('outbox')
    .select('render_data')
    .where('order_id', '=', orderId)
    .where('kind', '=', ORDER_CONFIRMATION_KIND)
    .executeTakeFirst();
  return (row?.render_data && parseFacts(row.render_data)?.orderUrl) || null;
}

/** Writes the shipping e-mail (rendered now) to the outbox; call it in the fulfilment's transaction. */
export async function enqueueShippedEmail(trx: Db, order: Order, ctx: ShippedContext, now: Date): Promise<string> {
  const mail = orderShippedEmail(order, ctx);
  return enqueueEmail(
    trx,
    { siteId: order.websiteId, kind: ORDER_SHIPPED_KIND, to: order.email, ...mail, orderId: order.id },
    now,
  );
}
