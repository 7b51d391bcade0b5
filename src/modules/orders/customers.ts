/**
 * The shop's customers, as the orders know them (issue 25, /admin/customers): orders grouped by the lower-cased
 * e-mail — the latest shipping name, how many orders, the total of the paid orders in the site's currency, the last
 * order — newest last order first, searched by e-mail or name, 50 a page. Read through the indexes
 * orders (site_id, created_at desc, number desc) and (site_id, lower(email), …) (migrations 018, 022).
 */
import { sql, type Kysely } from 'kysely';
import { paymentState, type Fulfilment, type PaymentState } from '../../core/orderStates';
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
  payment: PaymentState;
  fulfilment: Fulfilment;
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
    .execute();
  // Sorted here, not by the query: an ORDER BY created_at had SQLite read every order of the site through the index
  // (site_id, created_at) rather than these customers' orders through (site_id, lower(email), …).
  rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  for (const r of rows) if (!names.has(r.email) && r.name) names.set(r.email, r.name);
  return names;
}

/** Orders read at a time by `latestCustomers`. */
const WALK_CHUNK = 500;

/**
 * The e-mails (lower-cased) of the first `count` customers, newest last order first: the site's orders walked newest
 * first through their index (site_id, created_at desc, number desc), a chunk at a time, each e-mail kept where it is
 * first met (its latest order). Reads as many orders as it takes to meet `count` customers — about `count` in a shop of
 * mostly different customers — not every order of the site.
 */
async function latestCustomers(db: Db, siteId: string, count: number): Promise<string[]> {
  const emails: string[] = [];
  const seen = new Set<string>();
  let after: { createdAt: string; number: number } | undefined;
  while (emails.length < count) {
    const rows = await db
      .selectFrom('orders')
      .select(['email', 'created_at', 'number'])
      .where('site_id', '=', siteId)
      .$if(after !== undefined, (q) =>
        q.where((eb) =>
          eb.or([
            eb('created_at', '<', after!.createdAt),
            eb.and([eb('created_at', '=', after!.createdAt), eb('number', '<', after!.number)]),
          ]),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('number', 'desc')
      .limit(WALK_CHUNK)
      .execute();
    for (const r of rows) {
      const email = r.email.toLowerCase();
      if (seen.has(email)) continue;
      seen.add(email);
      emails.push(email);
      if (emails.length === count) break;
    }
    if (rows.length < WALK_CHUNK) break;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, number: last.number };
  }
  return emails;
}

/** What the orders of `emails` (lower-cased) add up to, through the index (site_id, lower(email), …). */
async function customerTotals(db: Db, siteId: string, currency: string, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return db
    .selectFrom('orders')
    .select([
      sql<string>`lower(email)`.as('email'),
      sql<number>`count(*)`.as('orders'),
      sql<number>`sum(case when status = 'paid' and currency = ${currency} then grand_total else 0 end)`.as('spent'),
      sql<string>`max(created_at)`.as('last_order_at'),
    ])
    .where('site_id', '=', siteId)
    .where(sql<string>`lower(email)`, 'in', [...emails])
    .groupBy(sql`lower(email)`)
    .execute();
}

/**
 * A page (from 1) of the customers whose e-mail or latest shipping name holds `search`, newest last order first.
 * Without a search, a page is read from the newest orders (latestCustomers); a search, and every customer at once
 * (`pageSize: null`, the CSV), group all of the site's orders.
 */
export async function listCustomers(
  db: Db,
  options: { siteId: string; currency: string; search?: string; page?: number; pageSize?: number | null },
): Promise<{ customers: Customer[]; hasNextPage: boolean }> {
  const size = options.pageSize === undefined ? CUSTOMERS_PAGE_SIZE : options.pageSize;
  const page = Math.max(1, options.page ?? 1);
  const search = options.search?.trim() ?? '';
  if (search === '' && size !== null) {
    const emails = await latestCustomers(db, options.siteId, page * size + 1);
    const pageEmails = emails.slice((page - 1) * size, page * size);
    const [totals, names] = await Promise.all([
      customerTotals(db, options.siteId, options.currency, pageEmails),
      latestNames(db, options.siteId, pageEmails),
    ]);
    const byEmail = new Map(totals.map((t) => [t.email, t]));
    return {
      customers: pageEmails.map((email) => {
        const t = byEmail.get(email)!;
        return {
          email,
          name: names.get(email) ?? '',
          orders: Number(t.orders),
          totalSpent: Number(t.spent ?? 0),
          lastOrderAt: t.last_order_at,
        };
      }),
      hasNextPage: emails.length > page * size,
    };
  }
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
    .select(['id', 'number', 'status', 'currency', 'grand_total', 'refunded_total', 'fulfilment', 'created_at'])
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
    payment: paymentState(r.status, Number(r.refunded_total), Number(r.grand_total)),
    fulfilment: r.fulfilment,
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
