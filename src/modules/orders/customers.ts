/**
 * The shop's customers, as the orders know them (issue 25, /admin/customers): orders grouped by the lower-cased
 * e-mail — the latest shipping name, how many orders, the total of the paid orders in the site's currency, the last
 * order — newest last order first, searched by e-mail or name, 50 a page. Read through the index
 * orders (site_id, lower(email)) (migration 021).
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';

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
  currency: string;
  grandTotal: number;
  createdAt: string;
}

const shippingName = (db: Db) =>
  engineOf(db) === 'postgres'
    ? sql<
        string | null
      >`trim(coalesce(shipping_address::json->>'firstName', '') || ' ' || coalesce(shipping_address::json->>'lastName', ''))`
    : sql<
        string | null
      >`trim(coalesce(json_extract(shipping_address, '$.firstName'), '') || ' ' || coalesce(json_extract(shipping_address, '$.lastName'), ''))`;

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The names of `emails` (lower-cased): each one's latest order with a shipping name. */
async function latestNames(db: Db, siteId: string, emails: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (emails.length === 0) return names;
  const rows = await db
    .selectFrom('orders')
    .select([sql<string>`lower(email)`.as('email'), shippingName(db).as('name'), 'created_at'])
    .where('site_id', '=', siteId)
    .where(sql<string>`lower(email)`, 'in', [...emails])
    .where('shipping_address', 'is not', null)
    .orderBy('created_at', 'desc')
    .execute();
  for (const r of rows) if (!names.has(r.email) && r.name) names.set(r.email, r.name);
  return names;
}

/** A page (from 1) of the customers whose e-mail or latest shipping name holds `search`, newest last order first. */
export async function listCustomers(
  db: Db,
  options: { siteId: string; currency: string; search?: string; page?: number; pageSize?: number | null },
): Promise<{ customers: Customer[]; hasNextPage: boolean }> {
  const size = options.pageSize === undefined ? CUSTOMERS_PAGE_SIZE : options.pageSize;
  const page = Math.max(1, options.page ?? 1);
  const search = options.search?.trim() ?? '';
  let query = db
    .selectFrom('orders')
    .select([
      sql<string>`lower(email)`.as('email'),
      sql<number>`count(*)`.as('orders'),
      sql<number>`sum(case when status = 'paid' and currency = ${options.currency} then grand_total else 0 end)`.as(
        'spent',
      ),
      sql<string>`max(created_at)`.as('last_order_at'),
    ])
    .where('site_id', '=', options.siteId)
    .groupBy(sql`lower(email)`)
    .orderBy(sql`max(created_at)`, 'desc')
    .orderBy(sql`lower(email)`);
  if (search !== '') {
    const pattern = likePattern(search);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(${shippingName(db)})`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  if (size !== null) query = query.limit(size + 1).offset((page - 1) * size);
  const rows = await query.execute();
  const shown = size === null ? rows : rows.slice(0, size);
  const names = await latestNames(
    db,
    options.siteId,
    shown.map((r) => r.email),
  );
  return {
    customers: shown.map((r) => ({
      email: r.email,
      name: names.get(r.email) ?? '',
      orders: Number(r.orders),
      totalSpent: Number(r.spent ?? 0),
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
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'number', 'status', 'currency', 'grand_total', 'created_at'])
    .where('site_id', '=', options.siteId)
    .where(sql<string>`lower(email)`, '=', email)
    .orderBy('created_at', 'desc')
    .orderBy('number', 'desc')
    .execute();
  if (rows.length === 0) return null;
  const names = await latestNames(db, options.siteId, [email]);
  const orders = rows.map((r) => ({
    id: r.id,
    number: r.number,
    status: r.status,
    currency: r.currency,
    grandTotal: Number(r.grand_total),
    createdAt: r.created_at,
  }));
  return {
    customer: {
      email,
      name: names.get(email) ?? '',
      orders: orders.length,
      totalSpent: orders
        .filter((o) => o.status === 'paid' && o.currency === options.currency)
        .reduce((n, o) => n + o.grandTotal, 0),
      lastOrderAt: orders[0]!.createdAt,
    },
    orders,
  };
}
