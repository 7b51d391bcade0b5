/**
 * The subscription e-mails to the shopper: started, renewed, renewal declined (past due), renewal sold out (not
 * charged). Each carries the plan's wording and the subscription's cancel link.
 */
import { Fragment } from 'react';
import { Link, Paragraph } from '../../platform/mail/blocks';
import { Layout } from '../../platform/mail/Layout';
import { oneLine, renderMail, type RenderedEmail } from '../../platform/mail/render';
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

/** The subscription's facts, one 'Label: value' per line. */
function facts(sub: Subscription, ctx: SubscriptionEmailContext): [string, string][] {
  const options = Object.entries(sub.line.attributes ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  return [
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
}

interface SubscriptionMailProps {
  kind: SubscriptionEmailKind;
  sub: Subscription;
  ctx: SubscriptionEmailContext;
  subject: string;
}

function SubscriptionMail({ kind, sub, ctx, subject }: SubscriptionMailProps) {
  return (
    <Layout shopName={ctx.siteTitle} subject={subject} signOff>
      <Paragraph>{headline(kind, sub)}</Paragraph>
      <Paragraph spaced>
        {facts(sub, ctx).map(([label, value], i) => (
          <Fragment key={label}>
            {i > 0 && <br />}
            {label}: <strong>{value}</strong>
          </Fragment>
        ))}
      </Paragraph>
      {ctx.order && (
        <Paragraph>
          <Link href={ctx.order.url}>View your order</Link>
        </Paragraph>
      )}
      <Paragraph spaced>
        <Link href={ctx.cancelUrl}>Cancel your subscription</Link>
      </Paragraph>
    </Layout>
  );
}

export function subscriptionEmail(
  kind: SubscriptionEmailKind,
  sub: Subscription,
  ctx: SubscriptionEmailContext,
): RenderedEmail {
  const subject = oneLine(SUBJECTS[kind](ctx.siteTitle, sub.line.title));
  return renderMail(subject, <SubscriptionMail kind={kind} sub={sub} ctx={ctx} subject={subject} />);
}
