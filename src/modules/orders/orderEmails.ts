/**
 * The order e-mails, as text and HTML: the confirmation to the shopper and the new-order notice to the shop. Every
 * amount is formatMoney of the order's stored totals, so the e-mail shows the strings the order page shows. Every
 * shopper- or merchant-supplied value (titles, options, answers, names, address, coupon, site title, instructions)
 * is HTML-escaped; the HTML is one plain table with headers and inline styles only, as mail clients need.
 */
import { formatAddressLines } from '../../core/checkout/address';
import { parseCurrencyCode, type CurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import type { Order, OrderLine } from './orderTypes';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

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

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
/** Escaped, with the text's own line breaks kept. */
const escapeLines = (text: string): string => escapeHtml(text).replace(/\r?\n/g, '<br>');

/** One line for a header: a merchant's site title must not break the subject. */
const oneLine = (text: string): string =>
  text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

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
function totalRows(order: Order, giftCards: readonly GiftCardPayment[] = []): TotalRow[] {
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

const addressLines = (order: Order): string[] =>
  order.shippingAddress ? formatAddressLines(order.shippingAddress) : [];

function itemsText(order: Order, giftCards: readonly GiftCardPayment[]): string[] {
  const out = ['Items:'];
  for (const line of order.lines) {
    const attributes = attributesText(line);
    out.push(`- ${line.title}${attributes ? ` (${attributes})` : ''}`);
    for (const answer of answerTexts(line)) out.push(`  ${answer}`);
    out.push(`  Quantity: ${line.quantity}, ${money(order, line.lineTotal)}`);
  }
  out.push('', ...totalRows(order, giftCards).map((row) => `${row.label}: ${row.amount}`));
  return out;
}

function addressText(order: Order): string[] {
  const lines = addressLines(order);
  return lines.length ? ['', 'Shipping to:', ...lines] : [];
}

// Inline styles: mail clients drop style sheets.
const CELL = 'padding:8px;border-bottom:1px solid #dddddd;vertical-align:top';
const NUMBER = `${CELL};text-align:right;white-space:nowrap`;
const MUTED = 'color:#555555;font-size:14px';

function itemsHtml(order: Order, giftCards: readonly GiftCardPayment[]): string {
  const body = order.lines
    .map((line) => {
      const details = [attributesText(line), ...answerTexts(line)].filter(Boolean);
      const detailHtml = details.map((d) => `<br><span style="${MUTED}">${escapeHtml(d)}</span>`).join('');
      return (
        `<tr><td style="${CELL}"><strong>${escapeHtml(line.title)}</strong>${detailHtml}</td>` +
        `<td style="${NUMBER}">${line.quantity}</td><td style="${NUMBER}">${escapeHtml(money(order, line.lineTotal))}</td></tr>`
      );
    })
    .join('\n');
  const totals = totalRows(order, giftCards)
    .map(
      (row) =>
        `<tr><th scope="row" colspan="2" style="${NUMBER};font-weight:${row.strong ? 'bold' : 'normal'}">${escapeHtml(row.label)}</th>` +
        `<td style="${NUMBER};font-weight:${row.strong ? 'bold' : 'normal'}">${escapeHtml(row.amount)}</td></tr>`,
    )
    .join('\n');
  return [
    '<table style="width:100%;border-collapse:collapse;margin:0 0 24px">',
    '<caption style="text-align:left;font-weight:bold;padding:0 0 8px">Items</caption>',
    `<thead><tr><th scope="col" style="${CELL};text-align:left">Item</th><th scope="col" style="${NUMBER}">Quantity</th><th scope="col" style="${NUMBER}">Total</th></tr></thead>`,
    `<tbody>\n${body}\n</tbody>`,
    `<tfoot>\n${totals}\n</tfoot>`,
    '</table>',
  ].join('\n');
}

function addressHtml(order: Order): string {
  const lines = addressLines(order);
  if (!lines.length) return '';
  return `<h2 style="font-size:18px;margin:0 0 8px">Shipping to</h2>\n<p style="margin:0 0 24px">${lines.map(escapeHtml).join('<br>')}</p>`;
}

function htmlDocument(subject: string, content: string[]): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:600px;margin:0 auto">',
    ...content.filter(Boolean),
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

const link = (url: string, label: string): string =>
  `<p style="margin:0 0 24px"><a href="${escapeHtml(url)}" style="color:#0b57d0">${escapeHtml(label)}</a></p>`;

/** The confirmation's subject (one line): what orderConfirmationEmail's subject is, without rendering the rest. */
export function orderConfirmationSubject(order: Order, siteTitle: string): string {
  const site = oneLine(siteTitle);
  return awaitingPayment(order)
    ? `Order #${order.number} received, awaiting payment — ${site}`
    : `Order #${order.number} confirmed — ${site}`;
}

/** The shopper's confirmation: what was bought, the totals, where it goes, the order link, and how to pay if due. */
export function orderConfirmationEmail(order: Order, ctx: ConfirmationContext): RenderedEmail {
  const awaiting = awaitingPayment(order);
  const subject = orderConfirmationSubject(order, ctx.siteTitle);
  const instructions = awaiting ? (ctx.manualInstructions ?? '').trim() : '';
  const giftCards = ctx.giftCards ?? [];
  const total = money(order, amountDue(order, giftCards));

  const text = [
    `Thank you for your order at ${ctx.siteTitle}.`,
    '',
    `Order #${order.number}, placed ${placedAt(order.createdAt)}`,
    ...(awaiting ? [`Awaiting payment of ${total}.`] : []),
    ...(instructions ? ['', 'How to pay:', instructions] : []),
    '',
    ...itemsText(order, giftCards),
    ...addressText(order),
    '',
    `View your order: ${ctx.orderUrl}`,
    '',
    ctx.siteTitle,
    '',
  ].join('\n');

  const html = htmlDocument(subject, [
    '<h1 style="font-size:22px;margin:0 0 16px">Thank you for your order</h1>',
    `<p style="margin:0 0 16px">Order #${order.number} at ${escapeHtml(ctx.siteTitle)}, placed ${escapeHtml(placedAt(order.createdAt))}.` +
      `${awaiting ? ` Awaiting payment of <strong>${escapeHtml(total)}</strong>.` : ''}</p>`,
    instructions
      ? `<h2 style="font-size:18px;margin:0 0 8px">How to pay</h2>\n<p style="margin:0 0 24px">${escapeLines(instructions)}</p>`
      : '',
    itemsHtml(order, giftCards),
    addressHtml(order),
    link(ctx.orderUrl, 'View your order'),
    `<p style="${MUTED}">${escapeHtml(ctx.siteTitle)}</p>`,
  ]);
  return { subject, text, html };
}

/** The new-order notice's subject (one line): what newOrderEmail's subject is, without rendering the rest. */
export function newOrderSubject(order: Order, siteTitle: string): string {
  const total = money(order, order.grandTotalCents);
  return `New order #${order.number} (${total}${awaitingPayment(order) ? ', awaiting payment' : ''}) — ${oneLine(siteTitle)}`;
}

/** The shop's notice of a new order: who ordered, whether it is paid, what to send where. */
export function newOrderEmail(order: Order, ctx: NewOrderContext): RenderedEmail {
  const awaiting = awaitingPayment(order);
  const subject = newOrderSubject(order, ctx.siteTitle);
  const payment = `${awaiting ? 'awaiting payment' : order.status} (${order.paymentProvider})`;

  const text = [
    `New order #${order.number} on ${ctx.siteTitle}.`,
    '',
    `Customer: ${order.email}`,
    `Payment: ${payment}`,
    `Placed: ${placedAt(order.createdAt)}`,
    '',
    ...itemsText(order, ctx.giftCards ?? []),
    ...addressText(order),
    '',
    `Order: ${ctx.orderUrl}`,
    '',
  ].join('\n');

  const facts = [
    ['Customer', order.email],
    ['Payment', payment],
    ['Placed', placedAt(order.createdAt)],
  ]
    .map(([label, value]) => `${escapeHtml(label as string)}: ${escapeHtml(value as string)}`)
    .join('<br>');
  const html = htmlDocument(subject, [
    `<h1 style="font-size:22px;margin:0 0 16px">New order #${order.number}</h1>`,
    `<p style="margin:0 0 24px">${facts}</p>`,
    itemsHtml(order, ctx.giftCards ?? []),
    addressHtml(order),
    link(ctx.orderUrl, `Order #${order.number}`),
    `<p style="${MUTED}">${escapeHtml(ctx.siteTitle)}</p>`,
  ]);
  return { subject, text, html };
}
