/**
 * The subscription e-mails to the shopper, as text and HTML: started, renewed, renewal declined (past due), renewal
 * sold out (not charged). Each carries the plan's wording and the subscription's cancel link. Every value from the
 * shop or the shopper is HTML-escaped.
 */
import type { RenderedEmail } from '../orders';
import type { Subscription } from './store';

export type SubscriptionEmailKind = 'started' | 'renewed' | 'declined' | 'sold-out';

export interface SubscriptionEmailContext {
  siteTitle: string;
  /** The absolute cancel link. */
  cancelUrl: string;
  /** The period's order (started, renewed). */
  order?: { number: number; url: string; total: string; awaitingPayment: boolean };
  /** '12 March 2026', or null when no further bill is due. */
  nextBilling: string | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
const oneLine = (text: string): string =>
  text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

const SUBJECTS: Record<SubscriptionEmailKind, (title: string, product: string) => string> = {
  started: (title, product) => `Your subscription to ${product} has started — ${title}`,
  renewed: (title, product) => `Your subscription to ${product} was renewed — ${title}`,
  declined: (title, product) => `Payment declined for your subscription to ${product} — ${title}`,
  'sold-out': (title, product) => `Your subscription to ${product}: sold out this time, not charged — ${title}`,
};

function headline(kind: SubscriptionEmailKind, sub: Subscription): string {
  switch (kind) {
    case 'started':
      return `Thank you for subscribing to ${sub.line.title}.`;
    case 'renewed':
      return `Your subscription to ${sub.line.title} was renewed.`;
    case 'declined':
      return `We could not charge your card for this period of your subscription to ${sub.line.title}: the payment was declined. Your subscription is past due and nothing will be sent until it is paid. Please contact us to update your payment method.`;
    default:
      return `${sub.line.title} is sold out, so this period of your subscription could not be sent. You have not been charged for it.`;
  }
}

export function subscriptionEmail(
  kind: SubscriptionEmailKind,
  sub: Subscription,
  ctx: SubscriptionEmailContext,
): RenderedEmail {
  const subject = oneLine(SUBJECTS[kind](ctx.siteTitle, sub.line.title));
  const options = Object.entries(sub.line.attributes ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  const facts: [string, string][] = [
    ['Plan', sub.planText],
    ...(options ? [['Options', options] as [string, string]] : []),
    ['Quantity', String(sub.quantity)],
    ...(ctx.order
      ? [
          [
            `Order #${ctx.order.number}`,
            `${ctx.order.total}${ctx.order.awaitingPayment ? ' (awaiting payment)' : ''}`,
          ] as [string, string],
        ]
      : []),
    ['Next billing date', ctx.nextBilling ?? 'None: this was the last period'],
  ];
  const text = [
    headline(kind, sub),
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    ...(ctx.order ? [`View your order: ${ctx.order.url}`, ''] : []),
    `Cancel your subscription: ${ctx.cancelUrl}`,
    '',
    ctx.siteTitle,
    '',
  ].join('\n');
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:600px;margin:0 auto">',
    `<p style="margin:0 0 16px">${escapeHtml(headline(kind, sub))}</p>`,
    `<p style="margin:0 0 24px">${facts.map(([label, value]) => `${escapeHtml(label)}: <strong>${escapeHtml(value)}</strong>`).join('<br>')}</p>`,
    ctx.order
      ? `<p style="margin:0 0 16px"><a href="${escapeHtml(ctx.order.url)}" style="color:#0b57d0">View your order</a></p>`
      : '',
    `<p style="margin:0 0 24px"><a href="${escapeHtml(ctx.cancelUrl)}" style="color:#0b57d0">Cancel your subscription</a></p>`,
    `<p style="margin:0;color:#5f6368;font-size:14px">${escapeHtml(ctx.siteTitle)}</p>`,
    '</div>',
    '</body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { subject, text, html };
}
