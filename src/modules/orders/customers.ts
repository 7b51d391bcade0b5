/**
 * The shop's customers, as the orders make them (issue 25, /admin/customers): one per lower-cased e-mail — the latest
 * shipping name, how many orders, the total of the paid orders in the site's currency, the last order — newest last
 * order first, searched by e-mail or name, 50 a page. Read from the customers table (migration 027), which triggers
 * on orders keep in each order's own transaction (placed, refunded); a customer's orders through the index
 * orders (site_id, lower(email), …) (migration 022).
 */
import { sql, type Kysely } from 'kysely';
import { paymentState, type Fulfilment, type PaymentState } from '../../core/orderStates';
import { searchTerms } from '../../core/adminSearch';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import { ftsAllOf, indexPendingTrigrams, pgAllOf } from '../../platform/db/trigramSearch';
import { countPendingOrders } from './counted';

type Db = Kysely<Database>;

export const CUSTOMERS_PAGE_SIZE = 50;

export interface Customer {
  email: string;
  /** The shipping name of their latest order that had one; '' when none did. */
  name: string;
  orders: number;
  /** Minor units of the site's currency: the paid orders in that currency. */
  totalSpent: number;
  lastOrderAt: string;
}

export interface CustomerOrder {
  id: string;
  number: number;
  status: string;
  payment: PaymentState;
  fulfilment: Fulfilment;
  currency: string;
  grandTotal: number;
  createdAt: string;
}

/**
 * A page (from 1) of the customers whose e-mail or name holds the search (every word of it: src/core/adminSearch.ts),
 * newest last order first: read from the customers table (migration 027) in its index customers_newest's order; a
 * search from its trigram index (PostgreSQL: customers_email_trigrams and customers_name_trigrams; SQLite: the FTS5
 * table customers_fts). Every customer at once (`pageSize: null`, the CSV) reads all of them: an export.
 * `tooShort`: the search had too few characters to look for (nothing was read).
 */
export async function listCustomers(
  db: Db,
  options: { siteId: string; currency: string; search?: string; page?: number; pageSize?: number | null },
): Promise<{ customers: Customer[]; hasNextPage: boolean; tooShort?: true }> {
  const size = options.pageSize === undefined ? CUSTOMERS_PAGE_SIZE : options.pageSize;
  const page = Math.max(1, options.page ?? 1);
  const search = options.search?.trim() ?? '';
  const terms = search === '' ? undefined : searchTerms(search);
  if (terms === null) return { customers: [], hasNextPage: false, tooShort: true };
  await countPendingOrders(db);
  if (terms !== undefined) await indexPendingTrigrams(db, 'customers');
  let query = db
    .selectFrom('customers')
    .select(['email', 'name', 'orders_count', 'total_spent', 'last_order_at'])
    // SQLite: the site's index set aside when searching: the matches read by their key from the FTS5 table.
    .where(terms !== undefined && engineOf(db) === 'sqlite' ? sql<string>`+site_id` : 'site_id', '=', options.siteId)
    .orderBy('last_order_at', 'desc')
    .orderBy('email');
  if (terms !== undefined)
    query = query.where((eb) =>
      engineOf(db) === 'postgres'
        ? pgAllOf([sql<string>`email`, sql<string>`lower(name)`], terms)
        : eb('id', 'in', sql<number>`(SELECT rowid FROM customers_fts WHERE customers_fts MATCH ${ftsAllOf(terms)})`),
    );
  if (size !== null) query = query.limit(size + 1).offset((page - 1) * size);
  const rows = await query.execute();
  const shown = size === null ? rows : rows.slice(0, size);
  return {
    customers: shown.map((r) => ({
      email: r.email,
      name: r.name,
      orders: Number(r.orders_count),
      totalSpent: Number(r.total_spent),
      lastOrderAt: r.last_order_at,
    })),
    hasNextPage: size !== null && rows.length > size,
  };
}

/** One customer (by e-mail, any case) and their orders, newest first; null when they have none. */
export async function getCustomer(
  db: Db,
  options: { siteId: string; currency: string; email: string },
): Promise<{ customer: Customer; orders: CustomerOrder[] } | null> {
  const email = options.email.trim().toLowerCase();
  await countPendingOrders(db);
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'number', 'status', 'currency', 'grand_total', 'refunded_total', 'fulfilment', 'created_at'])
    .where('site_id', '=', options.siteId)
    .where(sql<string>`lower(email)`, '=', email)
    .orderBy('created_at', 'desc')
    .orderBy('number', 'desc')
    .execute();
  if (rows.length === 0) return null;
  const totals = await db
    .selectFrom('customers')
    .select(['name', 'orders_count', 'total_spent', 'last_order_at'])
    .where('site_id', '=', options.siteId)
    .where('email', '=', email)
    .executeTakeFirst();
  const orders = rows.map((r) => ({
    id: r.id,
    number: r.number,
    status: r.status,
    payment: paymentState(r.status, Number(r.refunded_total), Number(r.grand_total)),
    fulfilment: r.fulfilment,
    currency: r.currency,
    grandTotal: Number(r.grand_total),
    createdAt: r.created_at,
  }));
  return {
    customer: {
      email,
      name: totals?.name ?? '',
      orders: totals ? Number(totals.orders_count) : orders.length,
      totalSpent: Number(totals?.total_spent ?? 0),
      lastOrderAt: totals?.last_order_at ?? orders[0]!.createdAt,
    },
    orders,
  };
}
