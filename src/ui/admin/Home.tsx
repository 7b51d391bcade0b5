/**
 * The owner's home (/admin): what needs doing (orders to fulfil, stock running out, shoppers waiting for a restock),
 * the day's and the week's sales, the latest orders and the sections — only what the staff member may see
 * (src/modules/admin/home.ts leaves the rest null). Plain links and tables: no JavaScript.
 */
import type { HomeFigures } from '../../modules/admin';
import { AdminTableBox } from './AdminFrame';
import { badge, money, ORDERS_PATH, when } from './Orders';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** A figure that needs doing: its count, what it counts, and the list that shows them. */
function Todo(props: { count: number; one: string; many: string; href: string }) {
  const text = plural(props.count, props.one, props.many);
  const [number, ...words] = text.split(' ');
  return (
    <li className={props.count === 0 ? 'admin-home-todo admin-home-todo-none' : 'admin-home-todo'}>
      <a href={props.href}>
        <span className="admin-home-count">{number}</span> <span>{words.join(' ')}</span>
      </a>
    </li>
  );
}

export function AdminHome(props: { figures: HomeFigures; email: string; roleName: string }) {
  const f = props.figures;
  const todos =
    f.ordersToFulfil !== null || f.stock !== null || f.restockWaiting !== null ? (
      <section aria-labelledby="home-todo">
        <h2 id="home-todo">To do</h2>
        <ul className="admin-home-todos">
          {f.ordersToFulfil !== null ? (
            <Todo
              count={f.ordersToFulfil}
              one="order to fulfil"
              many="orders to fulfil"
              href={`${ORDERS_PATH}?to-fulfil=1`}
            />
          ) : null}
          {f.stock !== null ? (
            <>
              <Todo
                count={f.stock.low}
                one="variant low on stock"
                many="variants low on stock"
                href="/admin/inventory?filter=low"
              />
              <Todo
                count={f.stock.soldOut}
                one="variant sold out"
                many="variants sold out"
                href="/admin/inventory?filter=sold-out"
              />
            </>
          ) : null}
          {f.restockWaiting !== null ? (
            <Todo
              count={f.restockWaiting}
              one="restock sign-up waiting"
              many="restock sign-ups waiting"
              href="/admin/gathered/restock"
            />
          ) : null}
        </ul>
        {f.stock !== null ? (
          <p className="admin-hint">{`Low on stock: ${f.stock.lowStockThreshold} or fewer left.`}</p>
        ) : null}
      </section>
    ) : null;

  return (
    <div className="admin-home">
      <p className="admin-muted">{`Signed in as ${props.email} (${props.roleName}).`}</p>
      {todos}
      {f.sales !== null ? (
        <section aria-labelledby="home-sales">
          <h2 id="home-sales">Sales</h2>
          <dl className="admin-home-figures">
            <div>
              <dt>Net sales today</dt>
              <dd>{money(f.currency, f.sales.today.netSales)}</dd>
            </div>
            <div>
              <dt>Orders today</dt>
              <dd>{f.sales.today.orders}</dd>
            </div>
            <div>
              <dt>Net sales, last 7 days</dt>
              <dd>{money(f.currency, f.sales.last7Days.netSales)}</dd>
            </div>
            <div>
              <dt>Orders, last 7 days</dt>
              <dd>{f.sales.last7Days.orders}</dd>
            </div>
          </dl>
          <p className="admin-hint">
            {`Days in UTC; net sales are paid orders less refunds. `}
            <a href="/admin/report?days=7">The report</a>
          </p>
        </section>
      ) : null}
      {f.latestOrders !== null ? (
        <section aria-labelledby="home-orders">
          <h2 id="home-orders">Latest orders</h2>
          {f.latestOrders.length === 0 ? (
            <p className="admin-muted">No orders yet.</p>
          ) : (
            <AdminTableBox label="Latest orders table">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col" className="admin-home-placed">
                      Placed
                    </th>
                    <th scope="col">Customer</th>
                    <th scope="col" className="num">
                      Total
                    </th>
                    <th scope="col">Payment</th>
                    <th scope="col">Fulfilment</th>
                  </tr>
                </thead>
                <tbody>
                  {f.latestOrders.map((o) => (
                    <tr key={o.number}>
                      <th scope="row">
                        <a href={`${ORDERS_PATH}/${o.number}`}>{`#${o.number}`}</a>
                      </th>
                      <td className="admin-home-placed">
                        <time dateTime={o.placedAt}>{when(o.placedAt)}</time>
                      </td>
                      <td>{o.customer || o.email}</td>
                      <td className="num">{money(o.currency, o.totalCents)}</td>
                      <td>{badge(o.paymentLabel, o.payment)}</td>
                      <td>{badge(o.fulfilmentLabel, o.fulfilment)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </AdminTableBox>
          )}
          <p>
            <a href={ORDERS_PATH}>All orders</a>
          </p>
        </section>
      ) : null}
      {f.sections.length ? (
        <nav aria-labelledby="home-sections">
          <h2 id="home-sections">Sections</h2>
          <ul className="admin-home-sections">
            {f.sections.map((s) => (
              <li key={s.path}>
                <a href={s.path}>{s.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
