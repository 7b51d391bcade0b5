/**
 * What the storefront gathers (/admin/gathered): the section's tabs, the small POST forms of its actions (plain forms
 * that work without JavaScript), and its tables — forms and submissions, newsletter addresses, restock sign-ups, gift
 * cards, subscriptions.
 */
import { Fragment, type ReactNode } from 'react';
import { money } from './Orders';

export const GATHERED_PATH = '/admin/gathered';

export const GATHERED_TABS = [
  { path: `${GATHERED_PATH}/forms`, label: 'Form submissions' },
  { path: `${GATHERED_PATH}/newsletter`, label: 'Newsletter' },
  { path: `${GATHERED_PATH}/restock`, label: 'Restock sign-ups' },
  { path: `${GATHERED_PATH}/gift-cards`, label: 'Gift cards' },
  { path: `${GATHERED_PATH}/subscriptions`, label: 'Subscriptions' },
] as const;

export const shownTime = (iso: string | null): string => (iso === null ? '—' : iso.slice(0, 16).replace('T', ' '));

/** The section's tabs; `current` is the tab's path. */
export function GatheredNav(props: { current: string }) {
  return (
    <nav className="admin-subnav" aria-label="What the storefront gathers">
      <ul>
        {GATHERED_TABS.map((t) => (
          <li key={t.path}>
            <a href={t.path} {...(t.path === props.current ? { 'aria-current': 'page' as const } : {})}>
              {t.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export interface FormPost {
  crumb: string;
  crumbField: string;
}

/** One action: a form with the crumb, the page to come back to, hidden values, and its button. */
export function ActionForm(props: {
  post: FormPost;
  action: string;
  back: string;
  label: string;
  /** Said to screen readers after the label ('Pause' → 'Pause the subscription of a@b.c'). */
  detail?: string;
  hidden?: Record<string, string>;
  danger?: boolean;
}) {
  return (
    <form method="post" action={props.action}>
      <input type="hidden" name={props.post.crumbField} value={props.post.crumb} />
      <input type="hidden" name="back" value={props.back} />
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className={props.danger ? 'admin-button admin-button-danger' : 'admin-button admin-button-quiet'}
      >
        {props.label}
        {props.detail ? <span className="admin-sr-only">{` ${props.detail}`}</span> : null}
      </button>
    </form>
  );
}

export function Facts(props: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="admin-facts">
      {props.rows.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function Table(props: { caption: string; head: readonly string[]; numeric?: readonly number[]; children: ReactNode }) {
  return (
    // Focusable and named: on a phone the table scrolls sideways, and the keyboard must reach what is hidden.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="admin-table-wrap" role="region" aria-label={props.caption} tabIndex={0}>
      <table className="admin-table">
        <caption className="admin-sr-only">{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((h, i) => (
              <th key={h} scope="col" {...(props.numeric?.includes(i) ? { className: 'num' } : {})}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

// ---------------------------------------------------------------- forms and submissions

export interface FormSummaryRow {
  id: string;
  name: string;
  kind: string;
  submissions: number;
  lastAt: string | null;
}

export function FormsTable(props: { rows: readonly FormSummaryRow[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">This site has no forms.</p>;
  return (
    <Table caption="The site's forms" head={['Form', 'Kind', 'Submissions', 'Last (UTC)']} numeric={[2]}>
      {props.rows.map((f) => (
        <tr key={f.id}>
          <th scope="row">
            <a href={`${GATHERED_PATH}/forms/${encodeURIComponent(f.id)}`}>{f.name || f.id}</a>
          </th>
          <td>{f.kind}</td>
          <td className="num">{String(f.submissions)}</td>
          <td>{shownTime(f.lastAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

export interface SubmissionRow {
  id: string;
  createdAt: string;
  pagePath: string | null;
  answers: readonly { title: string; lines: readonly string[] }[];
}

export function SubmissionsTable(props: { rows: readonly SubmissionRow[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No submissions yet.</p>;
  return (
    <Table caption="Submissions, newest first" head={['Submitted (UTC)', 'Answers', 'Page']}>
      {props.rows.map((s) => (
        <tr key={s.id}>
          <td>{shownTime(s.createdAt)}</td>
          <td>
            {s.answers.map((a) => (
              <div key={a.title}>
                <strong>{`${a.title}: `}</strong>
                {a.lines.join(' ')}
              </div>
            ))}
          </td>
          <td>{s.pagePath ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}

export interface SubscriberRow {
  email: string;
  status: string;
  sourceFormId: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

export function SubscribersTable(props: { rows: readonly SubscriberRow[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No newsletter addresses yet.</p>;
  return (
    <Table
      caption="Newsletter addresses, newest first"
      head={['E-mail', 'Status', 'Form', 'Signed up (UTC)', 'Confirmed (UTC)']}
    >
      {props.rows.map((s) => (
        <tr key={s.email}>
          <th scope="row">{s.email}</th>
          <td>{s.status === 'confirmed' ? 'Confirmed' : 'Pending'}</td>
          <td>{s.sourceFormId ?? ''}</td>
          <td>{shownTime(s.createdAt)}</td>
          <td>{shownTime(s.confirmedAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

// ---------------------------------------------------------------- restock sign-ups

export interface RestockRow {
  productId: string;
  variantId: string;
  productName: string | null;
  variantLabel: string;
  waitingCount: number;
  notifiedCount: number;
  qtyInStock: number | null;
}

export function RestockTable(props: { rows: readonly RestockRow[]; post: FormPost; back: string; canEdit: boolean }) {
  if (props.rows.length === 0) return <p className="admin-muted">No restock sign-ups yet.</p>;
  return (
    <Table
      caption="Restock sign-ups per variant"
      head={['Product', 'Variant', 'Waiting', 'E-mailed', 'In stock', ...(props.canEdit ? ['Send'] : [])]}
      numeric={[2, 3, 4]}
    >
      {props.rows.map((r) => {
        const name = r.productName ?? `${r.productId} (removed)`;
        return (
          <tr key={`${r.productId}/${r.variantId}`}>
            <th scope="row">{name}</th>
            <td>{r.variantLabel}</td>
            <td className="num">{String(r.waitingCount)}</td>
            <td className="num">{String(r.notifiedCount)}</td>
            <td className="num">{r.qtyInStock === null ? 'Unlimited' : String(r.qtyInStock)}</td>
            {props.canEdit ? (
              <td>
                {r.waitingCount > 0 ? (
                  <ActionForm
                    post={props.post}
                    action={`${GATHERED_PATH}/restock/send`}
                    back={props.back}
                    label="Send now"
                    detail={`to the shoppers waiting for ${name} ${r.variantLabel}`}
                    hidden={{ productId: r.productId, variantId: r.variantId }}
                  />
                ) : null}
              </td>
            ) : null}
          </tr>
        );
      })}
    </Table>
  );
}

// ---------------------------------------------------------------- gift cards

export interface GiftCardRowView {
  id: string;
  lastFour: string | null;
  currency: string;
  initialBalanceCents: number;
  balanceCents: number;
  recipientName: string;
  recipientEmail: string;
  state: string;
  createdAt: string;
}

export const cardName = (lastFour: string | null): string => (lastFour === null ? '(not sent yet)' : `…${lastFour}`);

export function GiftCardsTable(props: { rows: readonly GiftCardRowView[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No gift cards yet.</p>;
  return (
    <Table
      caption="Gift cards, newest first"
      head={['Code', 'Initial', 'Balance', 'Recipient', 'State', 'Issued (UTC)']}
      numeric={[1, 2]}
    >
      {props.rows.map((c) => (
        <tr key={c.id}>
          <th scope="row">
            <a href={`${GATHERED_PATH}/gift-cards/${encodeURIComponent(c.id)}`}>{cardName(c.lastFour)}</a>
          </th>
          <td className="num">{money(c.currency, c.initialBalanceCents)}</td>
          <td className="num">{money(c.currency, c.balanceCents)}</td>
          <td>{c.recipientName ? `${c.recipientName} <${c.recipientEmail}>` : c.recipientEmail}</td>
          <td>{c.state}</td>
          <td>{shownTime(c.createdAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

export interface GiftCardMovementView {
  id: string;
  kind: string;
  amountCents: number;
  orderNumber: number | null;
  createdAt: string;
}

const MOVEMENT_TEXT: Record<string, string> = { issue: 'Issued', redeem: 'Redeemed', refund: 'Given back (refund)' };

export function GiftCardHistory(props: { currency: string; rows: readonly GiftCardMovementView[] }) {
  return (
    <Table caption="The card's history, oldest first" head={['When (UTC)', 'What', 'Amount', 'Order']} numeric={[2]}>
      {props.rows.map((m) => (
        <tr key={m.id}>
          <td>{shownTime(m.createdAt)}</td>
          <td>{MOVEMENT_TEXT[m.kind] ?? m.kind}</td>
          <td className="num">{`${m.kind === 'redeem' ? '−' : '+'}${money(props.currency, m.amountCents)}`}</td>
          <td>{m.orderNumber === null ? '' : <a href={`/admin/orders/${m.orderNumber}`}>{`#${m.orderNumber}`}</a>}</td>
        </tr>
      ))}
    </Table>
  );
}

// ---------------------------------------------------------------- subscriptions

export interface SubscriptionRowView {
  id: string;
  email: string;
  product: string;
  planText: string;
  status: string;
  nextBillingAt: string | null;
}

export function SubscriptionsTable(props: { rows: readonly SubscriptionRowView[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No subscriptions.</p>;
  return (
    <Table caption="Subscriptions, newest first" head={['Customer', 'Plan', 'Status', 'Next billing (UTC)']}>
      {props.rows.map((s) => (
        <tr key={s.id}>
          <th scope="row">
            <a href={`${GATHERED_PATH}/subscriptions/${encodeURIComponent(s.id)}`}>{s.email}</a>
          </th>
          <td>{`${s.product} — ${s.planText}`}</td>
          <td>{s.status}</td>
          <td>{shownTime(s.nextBillingAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

export interface BillView {
  periodNumber: number;
  status: string;
  amount: number;
  orderNumber: number | null;
  createdAt: string;
}

const BILL_TEXT: Record<string, string> = {
  pending: 'Being billed',
  paid: 'Paid',
  'awaiting-payment': 'Awaiting payment',
  declined: 'Declined',
  'sold-out': 'Sold out (not charged)',
  skipped: 'Skipped (not charged)',
};

export function BillsTable(props: { currency: string; rows: readonly BillView[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No bills yet.</p>;
  return (
    <Table caption="Bills by period" head={['Period', 'Status', 'Amount', 'Order', 'At (UTC)']} numeric={[0, 2]}>
      {props.rows.map((b) => (
        <tr key={b.periodNumber}>
          <td className="num">{String(b.periodNumber)}</td>
          <td>{BILL_TEXT[b.status] ?? b.status}</td>
          <td className="num">{money(props.currency, b.amount)}</td>
          <td>{b.orderNumber === null ? '' : <a href={`/admin/orders/${b.orderNumber}`}>{`#${b.orderNumber}`}</a>}</td>
          <td>{shownTime(b.createdAt)}</td>
        </tr>
      ))}
    </Table>
  );
}
