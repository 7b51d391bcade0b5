/**
 * The refund page's form (/admin/orders/:number/refund): each line's quantity to refund (up to what is left of it),
 * an amount besides (shipping, a goodwill amount), the reason, 'Put the units back in stock', and a box to confirm.
 * Works without JavaScript: it posts form-encoded with the crumb and the refund's key (the same key if the button is
 * pressed twice: one refund).
 */
import { AdminTableBox } from './AdminFrame';
export interface RefundFormOrder {
  number: number;
  email: string;
  payment: string;
  total: string;
  refunded: string;
  left: string;
  leftCents: number;
  shipping: string | null;
  decimals: number;
  lines: { position: number; title: string; sku: string; quantity: number; refunded: number; total: string }[];
  refunds: { id: string; at: string; amount: string; reason: string; by: string }[];
}

export interface RefundFormValues {
  key: string;
  /** Line position → quantity typed. */
  quantities: Record<string, string>;
  amount: string;
  reason: string;
  restock: boolean;
}

export function RefundForm(props: {
  action: string;
  crumb: string;
  crumbField: string;
  order: RefundFormOrder;
  values: RefundFormValues;
  error?: string;
}) {
  const { order, values, error } = props;
  const nothingLeft = order.leftCents === 0;
  return (
    <>
      {error ? (
        <div className="admin-notice admin-notice-error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      <dl className="admin-card">
        <dt>Customer</dt>
        <dd>{order.email}</dd>
        <dt>Payment</dt>
        <dd>{order.payment}</dd>
        <dt>Total</dt>
        <dd>{order.total}</dd>
        <dt>Refunded so far</dt>
        <dd>{order.refunded}</dd>
        <dt>Left to refund</dt>
        <dd>{order.left}</dd>
      </dl>
      {nothingLeft ? (
        <p>{`Order ${order.number} is fully refunded: there is nothing left to refund.`}</p>
      ) : (
        <form method="post" action={props.action} className="admin-form">
          <input type="hidden" name={props.crumbField} value={props.crumb} />
          <input type="hidden" name="key" value={values.key} />
          <AdminTableBox label="Units to refund table">
            <table className="admin-table">
              <caption>Units to refund</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col" className="num">
                    Bought
                  </th>
                  <th scope="col" className="num">
                    Refunded
                  </th>
                  <th scope="col" className="num">
                    Line total
                  </th>
                  <th scope="col" className="num">
                    Refund
                  </th>
                </tr>
              </thead>
              <tbody>
                {order.lines.map((line) => {
                  const left = line.quantity - line.refunded;
                  const id = `qty-${line.position}`;
                  return (
                    <tr key={line.position}>
                      <th scope="row">
                        <label htmlFor={id}>{line.title}</label>
                        <br />
                        <span className="admin-muted">{`SKU ${line.sku}`}</span>
                      </th>
                      <td className="num">{line.quantity}</td>
                      <td className="num">{line.refunded}</td>
                      <td className="num">{line.total}</td>
                      <td className="num">
                        <input
                          id={id}
                          name={id}
                          type="number"
                          inputMode="numeric"
                          min={0}
                          max={left}
                          step={1}
                          size={4}
                          disabled={left === 0}
                          defaultValue={values.quantities[String(line.position)] ?? '0'}
                          aria-describedby={`${id}-left`}
                        />
                        <span id={`${id}-left`} className="admin-sr-only">{`${left} left to refund`}</span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </AdminTableBox>
          <p className="admin-muted">
            Units are refunded at what they were charged: their price less their share of the discount, plus their share
            of tax when tax was added.
          </p>
          <p>
            <label htmlFor="refund-amount">Amount besides the units</label>
            <br />
            <input
              id="refund-amount"
              name="amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              size={10}
              defaultValue={values.amount}
              aria-describedby="refund-amount-hint"
            />
            <br />
            <span id="refund-amount-hint" className="admin-muted">
              {`Optional, like 12.50: shipping${order.shipping ? ` (${order.shipping} was charged)` : ''} or a goodwill amount. At most ${order.left} in all.`}
            </span>
          </p>
          <p>
            <label htmlFor="refund-reason">Reason</label>
            <br />
            <textarea
              id="refund-reason"
              name="reason"
              rows={3}
              cols={40}
              maxLength={500}
              required
              defaultValue={values.reason}
            />
          </p>
          <p className="admin-check">
            <input id="refund-restock" name="restock" type="checkbox" value="yes" defaultChecked={values.restock} />
            <label htmlFor="refund-restock">Put the units back in stock</label>
          </p>
          <p className="admin-check">
            <input id="refund-confirm" name="confirm" type="checkbox" value="yes" required />
            <label htmlFor="refund-confirm">{`Yes, give this money back to ${order.email}`}</label>
          </p>
          <p>
            <button type="submit" className="admin-button admin-button-danger">
              Refund
            </button>
          </p>
        </form>
      )}
      {order.refunds.length > 0 ? (
        <AdminTableBox label="Refunds table">
          <table className="admin-table">
            <caption>Refunds made</caption>
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Reason</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {order.refunds.map((r) => (
                <tr key={r.id}>
                  <td>{r.at.slice(0, 16).replace('T', ' ')}</td>
                  <td className="num">{r.amount}</td>
                  <td>{r.reason}</td>
                  <td>{r.by}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </AdminTableBox>
      ) : null}
    </>
  );
}
