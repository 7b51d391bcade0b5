/**
 * The owner's orders (/admin/orders): the list with its filters and the bulk fulfil form, and one order's page. Both
 * work without JavaScript: the filters are a GET form, the ticked orders and the fulfil fields are one POST form.
 */
import { AdminTableBox } from './AdminFrame';
import { formatAddressLines } from '../../core/checkout/address';
import { parseCurrencyCode, type CurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { CARRIERS, FULFILMENTS, FULFILMENT_LABELS, PAYMENT_LABELS, PAYMENT_STATES } from '../../core/orderStates';
import type { AdminOrder, AdminOrderSummary, OrderListFilter } from '../../modules/orders';

export const ORDERS_PATH = '/admin/orders';
export const FULFIL_PATH = '/admin/orders/fulfil';

export const money = (currency: string, minorUnits: number): string =>
  formatMoney({ minorUnits, currency: parseCurrencyCode(currency) ?? (currency as CurrencyCode) });

/** '2026-11-23 14:03 UTC'. */
export const when = (iso: string): string => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

interface Crumb {
  crumb: string;
  crumbField: string;
}

/** A state as a tinted badge (admin.css: admin-badge-<state>). */
export const badge = (text: string, kind: string) => <span className={`admin-badge admin-badge-${kind}`}>{text}</span>;

/** The carrier, tracking number and e-mail fields (the list's bulk form and the order page's form). */
function FulfilFields(props: { idPrefix: string }) {
  const id = (name: string) => `${props.idPrefix}-${name}`;
  return (
    <>
      <div>
        <label htmlFor={id('carrier')}>Carrier (optional)</label>
        <select id={id('carrier')} name="carrier" defaultValue="">
          <option value="">None</option>
          {CARRIERS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={id('tracking')}>Tracking number (optional)</label>
        <input type="text" id={id('tracking')} name="trackingNumber" maxLength={64} autoComplete="off" />
      </div>
      <div className="admin-check">
        <input type="checkbox" id={id('notify')} name="notify" value="on" defaultChecked />
        <label htmlFor={id('notify')}>Send the customer a shipping e-mail</label>
      </div>
    </>
  );
}

export function OrdersList(props: {
  orders: readonly AdminOrderSummary[];
  filter: OrderListFilter;
  next: string | null;
  back: string;
  visit: Crumb;
  /** The staff member may fulfil: a tick box per pending order and the fulfil form (else the list only). */
  canFulfil: boolean;
}) {
  const { filter } = props;
  const picking = props.canFulfil && props.orders.some((o) => o.fulfilment === 'pending');
  const query = (extra: Record<string, string>) => {
    const params = new URLSearchParams();
    if (filter.payment) params.set('payment', filter.payment);
    if (filter.fulfilment) params.set('fulfilment', filter.fulfilment);
    if (filter.toFulfil) params.set('to-fulfil', '1');
    if (filter.q) params.set('q', filter.q);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    const text = params.toString();
    return text ? `${ORDERS_PATH}?${text}` : ORDERS_PATH;
  };
  const filtered = Boolean(filter.payment || filter.fulfilment || filter.toFulfil || filter.q);
  return (
    <>
      {filter.toFulfil ? (
        <p className="admin-muted">
          The orders to fulfil: paid (refunded in part or not) and not yet fulfilled.{' '}
          <a href={ORDERS_PATH}>All orders</a>
        </p>
      ) : null}
      <form className="admin-filters" method="get" action={ORDERS_PATH} role="search" aria-label="Orders">
        {filter.toFulfil ? <input type="hidden" name="to-fulfil" value="1" /> : null}
        <div>
          <label htmlFor="orders-q">Search</label>
          <input
            type="search"
            id="orders-q"
            name="q"
            defaultValue={filter.q ?? ''}
            placeholder="Number, e-mail or name"
          />
        </div>
        <div>
          <label htmlFor="orders-payment">Payment</label>
          <select id="orders-payment" name="payment" defaultValue={filter.payment ?? ''}>
            <option value="">Any</option>
            {PAYMENT_STATES.map((p) => (
              <option key={p} value={p}>
                {PAYMENT_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="orders-fulfilment">Fulfilment</label>
          <select id="orders-fulfilment" name="fulfilment" defaultValue={filter.fulfilment ?? ''}>
            <option value="">Any</option>
            {FULFILMENTS.map((f) => (
              <option key={f} value={f}>
                {FULFILMENT_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <button type="submit" className="admin-button">
            Show
          </button>{' '}
          {filtered ? <a href={ORDERS_PATH}>Clear</a> : null}
        </div>
      </form>
      {props.orders.length === 0 ? (
        <p className="admin-muted">{filtered ? 'No orders match.' : 'No orders yet.'}</p>
      ) : (
        <form method="post" action={FULFIL_PATH}>
          <input type="hidden" name={props.visit.crumbField} value={props.visit.crumb} />
          <input type="hidden" name="back" value={props.back} />
          <AdminTableBox label="Orders table">
            <table className="admin-table">
              <caption className="admin-sr-only">Orders, newest first</caption>
              <thead>
                <tr>
                  {picking ? (
                    <th scope="col">
                      <span className="admin-sr-only">Select</span>
                    </th>
                  ) : null}
                  <th scope="col">Order</th>
                  <th scope="col">Placed</th>
                  <th scope="col">Customer</th>
                  <th scope="col">E-mail</th>
                  <th scope="col" className="num">
                    Total
                  </th>
                  <th scope="col">Payment</th>
                  <th scope="col">Fulfilment</th>
                </tr>
              </thead>
              <tbody>
                {props.orders.map((o) => (
                  <tr key={o.number}>
                    {picking ? (
                      <td>
                        {o.fulfilment === 'pending' ? (
                          <input
                            type="checkbox"
                            name="number"
                            value={String(o.number)}
                            id={`pick-${o.number}`}
                            aria-label={`Select order ${o.number}`}
                          />
                        ) : null}
                      </td>
                    ) : null}
                    <th scope="row">
                      <a href={`${ORDERS_PATH}/${o.number}`}>{`#${o.number}`}</a>
                    </th>
                    <td>
                      <time dateTime={o.placedAt}>{when(o.placedAt)}</time>
                    </td>
                    <td className="admin-nowrap">{o.customer}</td>
                    <td>{o.email}</td>
                    <td className="num">{money(o.currency, o.totalCents)}</td>
                    <td>{badge(o.paymentLabel, o.payment)}</td>
                    <td>{badge(o.fulfilmentLabel, o.fulfilment)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </AdminTableBox>
          {picking ? (
            <fieldset className="admin-card admin-form">
              <legend>Fulfil the selected orders</legend>
              <FulfilFields idPrefix="bulk" />
              <div>
                <button type="submit" className="admin-button">
                  Mark as fulfilled
                </button>
              </div>
            </fieldset>
          ) : null}
        </form>
      )}
      <nav className="admin-pager" aria-label="Pages">
        {filter.cursor ? <a href={query({})}>Newest</a> : null}
        {props.next ? <a href={query({ cursor: props.next })}>Older</a> : null}
      </nav>
    </>
  );
}

/** A refund of the order as its page lists it. */
export interface OrderRefundRow {
  id: string;
  at: string;
  amountCents: number;
  reason: string;
  by: string;
  restock: boolean;
  cancel: boolean;
}

export function OrderDetail(props: {
  detail: AdminOrder;
  canFulfil: boolean;
  canRefund: boolean;
  refunds: readonly OrderRefundRow[];
  visit: Crumb;
  noteDraft?: string;
}) {
  const { detail, visit } = props;
  const { order } = detail;
  const m = (minor: number) => money(order.currency, minor);
  const path = `${ORDERS_PATH}/${order.number}`;
  const totals: [string, string][] = [['Subtotal', m(order.subtotalCents)]];
  if (order.discountCents > 0)
    totals.push([order.couponCode ? `Discount (${order.couponCode})` : 'Discount', `-${m(order.discountCents)}`]);
  totals.push([order.shippingOption ? `Shipping (${order.shippingOption.name})` : 'Shipping', m(order.shippingCents)]);
  if (!order.pricesIncludeTax) totals.push([order.taxName, m(order.taxCents)]);
  totals.push(['Total', m(order.grandTotalCents)]);
  if (order.pricesIncludeTax) totals.push([`Includes ${order.taxName}`, m(order.taxCents)]);
  return (
    <>
      <div className="admin-badges">
        {badge(`Payment: ${detail.paymentLabel}`, detail.payment)}
        {badge(`Fulfilment: ${detail.fulfilmentLabel}`, detail.fulfilment)}
      </div>
      <div className="admin-grid admin-grid-2">
        <section className="admin-card" aria-labelledby="order-customer">
          <h2 id="order-customer">Customer</h2>
          <p>
            {detail.customer ? (
              <>
                {detail.customer}
                <br />
              </>
            ) : null}
            <a href={`mailto:${order.email}`}>{order.email}</a>
          </p>
          <p className="admin-muted">{`Placed ${when(order.createdAt)} · paid with ${order.paymentProvider}`}</p>
        </section>
        <section className="admin-card" aria-labelledby="order-address">
          <h2 id="order-address">Shipping address</h2>
          {order.shippingAddress ? (
            <p>
              {formatAddressLines(order.shippingAddress).map((line, i) => (
                <span key={i}>
                  {line}
                  <br />
                </span>
              ))}
            </p>
          ) : (
            <p className="admin-muted">Nothing to ship.</p>
          )}
        </section>
      </div>

      <section aria-labelledby="order-items">
        <h2 id="order-items">Items</h2>
        <AdminTableBox label="Items table">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">SKU</th>
                <th scope="col" className="num">
                  Quantity
                </th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.position}>
                  <td>
                    <strong>{line.title}</strong>
                    {Object.entries(line.attributes).map(([name, value]) => (
                      <div key={name} className="admin-muted">{`${name}: ${value}`}</div>
                    ))}
                    {line.additionalFieldsSummary
                      .filter((a) => a.lines.length > 0)
                      .map((a, i) => (
                        <div key={`f${i}`} className="admin-muted">{`${a.title}: ${a.lines.join(', ')}`}</div>
                      ))}
                  </td>
                  <td>{line.sku}</td>
                  <td className="num">{line.quantity}</td>
                  <td className="num">{m(line.unitPrice)}</td>
                  <td className="num">{m(line.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {totals.map(([label, amount]) => (
                <tr key={label}>
                  <th scope="row" colSpan={4} className="num">
                    {label}
                  </th>
                  <td className="num">{amount}</td>
                </tr>
              ))}
            </tfoot>
          </table>
        </AdminTableBox>
      </section>

      <section aria-labelledby="order-fulfilment" className="admin-card">
        <h2 id="order-fulfilment">Fulfilment</h2>
        {detail.shipments.length > 0 ? (
          <ul>
            {detail.shipments.map((s) => (
              <li key={s.id}>
                {`${when(s.at)} by ${s.by}: ${[s.carrier, s.trackingNumber].filter(Boolean).join(' ') || 'no tracking'}`}
                {s.trackingUrl ? (
                  <>
                    {' '}
                    <a href={s.trackingUrl} rel="noreferrer noopener">{`Track ${s.trackingNumber ?? ''}`}</a>
                  </>
                ) : null}
                {s.notified ? ' (customer e-mailed)' : ''}
              </li>
            ))}
          </ul>
        ) : null}
        {props.canFulfil && detail.fulfilment === 'pending' ? (
          <form method="post" action={FULFIL_PATH} className="admin-form">
            <input type="hidden" name={visit.crumbField} value={visit.crumb} />
            <input type="hidden" name="number" value={String(order.number)} />
            <input type="hidden" name="back" value={path} />
            <FulfilFields idPrefix="one" />
            <div>
              <button type="submit" className="admin-button">
                Mark as fulfilled
              </button>
            </div>
          </form>
        ) : null}
        {props.canFulfil && detail.fulfilment === 'fulfilled' ? (
          <form method="post" action={`${path}/unfulfil`}>
            <input type="hidden" name={visit.crumbField} value={visit.crumb} />
            <button type="submit" className="admin-button admin-button-quiet">
              Undo: back to Pending
            </button>
          </form>
        ) : null}
        {detail.fulfilment === 'pending' && !props.canFulfil ? <p className="admin-muted">Not fulfilled yet.</p> : null}
        {detail.fulfilment === 'canceled' ? <p className="admin-muted">Canceled: nothing to ship.</p> : null}
      </section>

      <section aria-labelledby="order-payments">
        <h2 id="order-payments">Payments</h2>
        {detail.payments.length === 0 ? (
          <p className="admin-muted">No payments recorded.</p>
        ) : (
          <AdminTableBox label="Payments table">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Status</th>
                  <th scope="col">Reference</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.payments.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <time dateTime={p.at}>{when(p.at)}</time>
                    </td>
                    <td>{p.provider}</td>
                    <td>{p.status}</td>
                    <td>{p.reference ?? ''}</td>
                    <td className="num">{money(p.currency, p.amountCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </AdminTableBox>
        )}
      </section>

      <section aria-labelledby="order-refunds" data-section="refunds">
        <h2 id="order-refunds">Refunds</h2>
        {props.refunds.length === 0 ? (
          <p className="admin-muted">No refunds.</p>
        ) : (
          <AdminTableBox label="Refunds table">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">By</th>
                  <th scope="col">Reason</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.refunds.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <time dateTime={r.at}>{when(r.at)}</time>
                    </td>
                    <td>{r.by}</td>
                    <td>{`${r.reason}${r.cancel ? ' (order canceled)' : r.restock ? ' (units put back in stock)' : ''}`}</td>
                    <td className="num">{m(r.amountCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </AdminTableBox>
        )}
        {props.canRefund && detail.payment !== 'refunded' ? (
          <div className="admin-actions">
            <a className="admin-button admin-button-quiet" href={`${path}/refund`}>
              Refund…
            </a>
          </div>
        ) : null}
        {props.canRefund && detail.payment !== 'refunded' && detail.fulfilment === 'pending' ? (
          <form method="post" action={`${path}/cancel`} className="admin-card admin-form admin-cancel">
            <input type="hidden" name={visit.crumbField} value={visit.crumb} />
            <h3>Cancel the order</h3>
            <p className="admin-muted">
              Refunds everything not refunded yet, puts every unit back in stock and e-mails the customer.
            </p>
            <div>
              <label htmlFor="cancel-reason">Reason (optional; the customer is told it)</label>
              <input type="text" id="cancel-reason" name="reason" maxLength={500} />
            </div>
            <div className="admin-check">
              <input type="checkbox" id="cancel-confirm" name="confirm" value="yes" required />
              <label htmlFor="cancel-confirm">{`Yes, cancel order ${order.number}`}</label>
            </div>
            <div>
              <button type="submit" className="admin-button admin-button-danger">
                Cancel order
              </button>
            </div>
          </form>
        ) : null}
      </section>

      <section aria-labelledby="order-emails">
        <h2 id="order-emails">E-mails</h2>
        {detail.emails.length === 0 ? (
          <p className="admin-muted">No e-mails for this order.</p>
        ) : (
          <AdminTableBox label="E-mails table">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Queued</th>
                  <th scope="col">To</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {detail.emails.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <time dateTime={e.createdAt}>{when(e.createdAt)}</time>
                    </td>
                    <td>{e.to}</td>
                    <td>{e.subject}</td>
                    <td>{e.status === 'sent' && e.sentAt ? `sent ${when(e.sentAt)}` : e.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </AdminTableBox>
        )}
      </section>

      <section aria-labelledby="order-notes">
        <h2 id="order-notes">Notes</h2>
        {detail.notes.length === 0 ? <p className="admin-muted">No notes yet.</p> : null}
        {detail.notes.map((n) => (
          <div key={n.id} className="admin-card">
            <p className="admin-muted">{`${n.author}, ${when(n.at)}`}</p>
            <p style={{ whiteSpace: 'pre-wrap' }}>{n.body}</p>
          </div>
        ))}
        {props.canFulfil ? (
          <form method="post" action={`${path}/notes`} className="admin-form">
            <input type="hidden" name={visit.crumbField} value={visit.crumb} />
            <label htmlFor="note-body">Add a note (only staff see it)</label>
            <textarea id="note-body" name="body" rows={3} maxLength={2000} defaultValue={props.noteDraft ?? ''} />
            <div>
              <button type="submit" className="admin-button">
                Add note
              </button>
            </div>
          </form>
        ) : null}
      </section>

      <section aria-labelledby="order-timeline">
        <h2 id="order-timeline">Timeline</h2>
        <ol className="admin-timeline">
          {detail.timeline.map((t, i) => (
            <li key={i}>
              {t.text}
              <span className="admin-timeline-meta">
                <time dateTime={t.at}>{when(t.at)}</time>
                {` · ${t.by}`}
              </span>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
