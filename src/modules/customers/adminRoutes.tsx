/**
 * The owner's customers (issue 25, permission customers.read), built from the orders (src/modules/orders
 * customers.ts): grouped by lower-cased e-mail, newest last order first, searched by e-mail or name, 50 a page.
 *
 * - GET /admin/customers[?q&page] → the list (a GET search form); GET /admin/customers.csv[?q] → every match as CSV
 * - GET /admin/customers/:email → the customer and their orders (links to /admin/orders/:number)
 * - GET /api/admin/customers[?q&page], GET /api/admin/customers/:email → the same as JSON
 */
import { FULFILMENT_LABELS, PAYMENT_LABELS } from '../../core/orderStates';
import { badge } from '../../ui/admin/Orders';
import type { FastifyInstance } from 'fastify';
import { toCsv } from '../../core/csv';
import { isCurrencyCode } from '../../core/currency';
import { formatAmount, formatMoney } from '../../core/money';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle, AdminTableBox } from '../../ui/admin/AdminFrame';
import { SEARCH_TOO_SHORT } from '../../core/adminSearch';
import { requireStaff, type AdminPages } from '../admin';
import { getCustomer, listCustomers, type Customer } from '../orders';
import { siteOf } from '../site';
import {
  customerPage,
  customerParams,
  customerRoute,
  customersCsvRoute,
  customersPage,
  customersQuery,
  customersRoute,
} from './adminRoutes.schema';

export const CUSTOMERS_PATH = '/admin/customers';

const money = (minorUnits: number, currency: string) =>
  isCurrencyCode(currency)
    ? formatMoney({ minorUnits, currency }).replace(/\u00a0/g, ' ')
    : `${(minorUnits / 100).toFixed(2)} ${currency}`;
const plainAmount = (minorUnits: number, currency: string) =>
  isCurrencyCode(currency) ? formatAmount({ minorUnits, currency }) : (minorUnits / 100).toFixed(2);
const day = (iso: string) => iso.slice(0, 10);
const customerPath = (email: string) => `${CUSTOMERS_PATH}/${encodeURIComponent(email)}`;

function CustomersTable(props: { customers: readonly Customer[]; currency: string }) {
  return (
    <AdminTableBox label="Customers table">
      <table className="admin-table">
        <caption className="admin-sr-only">Customers, newest last order first</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Name</th>
            <th scope="col" className="num">
              Orders
            </th>
            <th scope="col" className="num">
              Total spent
            </th>
            <th scope="col">Last order</th>
          </tr>
        </thead>
        <tbody>
          {props.customers.length === 0 ? (
            <tr>
              <td colSpan={5}>No customers found.</td>
            </tr>
          ) : (
            props.customers.map((c) => (
              <tr key={c.email}>
                <th scope="row">
                  <a href={customerPath(c.email)}>{c.email}</a>
                </th>
                <td>{c.name}</td>
                <td className="num">{String(c.orders)}</td>
                <td className="num">{money(c.totalSpent, props.currency)}</td>
                <td>{day(c.lastOrderAt)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </AdminTableBox>
  );
}

export function registerCustomerAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const page = (request: { query: unknown }) => {
    const query = parseInput(customersQuery, request.query, 'query');
    return { q: query.q?.trim() ?? '', page: query.page ? Number(query.page) : 1 };
  };

  app.get(CUSTOMERS_PATH, { schema: customersPage }, (request, reply) =>
    pages.answer(request, reply, { section: CUSTOMERS_PATH, permission: 'customers.read' }, async ({ site }) => {
      const { q, page: n } = page(request);
      const list = await listCustomers(ctx.db, { siteId: site.id, currency: site.currency, search: q, page: n });
      const link = (to: number) =>
        `${CUSTOMERS_PATH}?${new URLSearchParams({ ...(q ? { q } : {}), page: String(to) }).toString()}`;
      return {
        title: 'Customers',
        body: (
          <>
            <AdminTitle title="Customers">
              <a className="admin-button-quiet" href={`/admin/customers.csv${q ? `?q=${encodeURIComponent(q)}` : ''}`}>
                Download CSV
              </a>
            </AdminTitle>
            <form className="admin-filters" method="get" action={CUSTOMERS_PATH} role="search">
              <div>
                <label htmlFor="customers-q">Search by e-mail or name</label>
                <input id="customers-q" type="search" name="q" defaultValue={q} />
              </div>
              <button type="submit" className="admin-button">
                Search
              </button>
            </form>
            {list.tooShort ? <AdminNotice kind="error">{SEARCH_TOO_SHORT}</AdminNotice> : null}
            <CustomersTable customers={list.customers} currency={site.currency} />
            <nav className="admin-pager" aria-label="Pages">
              {n > 1 ? <a href={link(n - 1)}>Previous</a> : null}
              {list.hasNextPage ? <a href={link(n + 1)}>Next</a> : null}
            </nav>
          </>
        ),
      };
    }),
  );

  app.get('/admin/customers.csv', { schema: customersCsvRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'customers.read').catch(() => null);
    if (!staff)
      return pages.answer(request, reply, { section: CUSTOMERS_PATH, permission: 'customers.read' }, () => ({
        title: '',
        body: null,
      }));
    const site = await siteOf(request);
    const { q } = page(request);
    const list = await listCustomers(ctx.db, { siteId: site.id, currency: site.currency, search: q, pageSize: null });
    if (list.tooShort) throw new ApiError('invalid-input', `q: ${SEARCH_TOO_SHORT}`);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="customers.csv"')
      .send(
        toCsv(
          ['email', 'name', 'orders', 'total_spent', 'currency', 'last_order'],
          list.customers.map((c) => [
            c.email,
            c.name,
            String(c.orders),
            plainAmount(c.totalSpent, site.currency),
            site.currency,
            c.lastOrderAt,
          ]),
        ),
      );
  });

  app.get('/admin/customers/:email', { schema: customerPage }, (request, reply) =>
    pages.answer(request, reply, { section: CUSTOMERS_PATH, permission: 'customers.read' }, async ({ site }) => {
      const { email } = parseInput(customerParams, request.params, 'params');
      const found = await getCustomer(ctx.db, { siteId: site.id, currency: site.currency, email });
      if (!found)
        return {
          title: 'Customer not found',
          status: 404,
          body: (
            <>
              <AdminTitle title="Customer not found" />
              <p>
                {'No order has this e-mail. '}
                <a href={CUSTOMERS_PATH}>All customers</a>
              </p>
            </>
          ),
        };
      const c = found.customer;
      return {
        title: c.email,
        body: (
          <>
            <AdminTitle title={c.name || c.email} />
            <dl className="admin-card">
              <dt>E-mail</dt>
              <dd>{c.email}</dd>
              <dt>Orders</dt>
              <dd>{String(c.orders)}</dd>
              <dt>Total spent (paid orders)</dt>
              <dd>{money(c.totalSpent, site.currency)}</dd>
              <dt>Last order</dt>
              <dd>{day(c.lastOrderAt)}</dd>
            </dl>
            <AdminTableBox label="Orders table">
              <table className="admin-table">
                <caption>Orders</caption>
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Placed</th>
                    <th scope="col">Payment</th>
                    <th scope="col">Fulfilment</th>
                    <th scope="col" className="num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {found.orders.map((o) => (
                    <tr key={o.id}>
                      <th scope="row">
                        <a href={`/admin/orders/${o.number}`}>{`#${o.number}`}</a>
                      </th>
                      <td>{day(o.createdAt)}</td>
                      <td>{badge(PAYMENT_LABELS[o.payment], o.payment)}</td>
                      <td>{badge(FULFILMENT_LABELS[o.fulfilment], o.fulfilment)}</td>
                      <td className="num">{money(o.grandTotal, o.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </AdminTableBox>
            <p>
              <a href={CUSTOMERS_PATH}>All customers</a>
            </p>
          </>
        ),
      };
    }),
  );

  app.get('/api/admin/customers', { schema: customersRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'customers.read');
    const site = await siteOf(request);
    const { q, page: n } = page(request);
    const list = await listCustomers(ctx.db, { siteId: site.id, currency: site.currency, search: q, page: n });
    if (list.tooShort) throw new ApiError('invalid-input', `q: ${SEARCH_TOO_SHORT}`);
    return { ...list, page: n };
  });

  app.get('/api/admin/customers/:email', { schema: customerRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'customers.read');
    const site = await siteOf(request);
    const { email } = parseInput(customerParams, request.params, 'params');
    const found = await getCustomer(ctx.db, { siteId: site.id, currency: site.currency, email });
    if (!found) throw new ApiError('entry-not-found', 'No order has this e-mail.');
    return found;
  });
}
