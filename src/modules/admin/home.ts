/**
 * The owner's home (/admin, GET /api/admin/home): the shop's day at a glance, for what the staff member may see
 * (src/core/staffAccess.ts) — the orders to fulfil and the latest orders (orders.read), today's and the last 7 days'
 * sales (report.read), the variants low on stock and sold out (inventory.read), the restock sign-ups waiting
 * (gatherings.read). Each figure comes from the module that owns it, read through an index; a figure the role may not
 * see is null and never read.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import * as catalog from '../catalog';
import * as orders from '../orders';
import * as restock from '../restock';
import type { Site } from '../site';
import type { Staff } from './access';
import { ADMIN_PATH, ADMIN_SECTIONS, type AdminSection } from './sections';

export const LATEST_ORDERS = 5;

export interface SalesPeriod {
  /** First and last day, YYYY-MM-DD (UTC), both included. */
  from: string;
  to: string;
  orders: number;
  grossSales: number;
  refunds: number;
  netSales: number;
}

export interface HomeFigures {
  /** The day the figures are of, YYYY-MM-DD (UTC). */
  today: string;
  currency: string;
  /** Paid orders pending fulfilment. */
  ordersToFulfil: number | null;
  sales: { today: SalesPeriod; last7Days: SalesPeriod } | null;
  stock: { lowStockThreshold: number; low: number; soldOut: number } | null;
  restockWaiting: number | null;
  latestOrders: orders.AdminOrderSummary[] | null;
  /** The sections the staff member may open (the home itself left out). */
  sections: { path: string; label: string }[];
}

const DAY_MS = 86_400_000;
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

async function salesOf(db: Kysely<Database>, site: Site, from: string, to: string): Promise<SalesPeriod> {
  const s = await orders.salesSummary(db, site.id, from, to, site.currency);
  return { from, to, orders: s.orders, grossSales: s.grossSales, refunds: s.refunds.amount, netSales: s.netSales };
}

/** The sections of the side navigation that `staff` may open, the home left out. */
export const homeSections = (staff: Staff): AdminSection[] =>
  ADMIN_SECTIONS.filter((s) => s.path !== ADMIN_PATH && (s.permission === null || staff.can(s.permission)));

export async function homeFigures(
  db: Kysely<Database>,
  site: Site,
  staff: Staff,
  now: Date = new Date(),
): Promise<HomeFigures> {
  const today = dayOf(now);
  const weekStart = dayOf(new Date(now.getTime() - 6 * DAY_MS));
  const threshold = site.settings.store.lowStockThreshold;
  const seesOrders = staff.can('orders.read');
  return {
    today,
    currency: site.currency,
    ordersToFulfil: seesOrders ? await orders.countOrdersToFulfil(db, site.id) : null,
    sales: staff.can('report.read')
      ? { today: await salesOf(db, site, today, today), last7Days: await salesOf(db, site, weekStart, today) }
      : null,
    stock: staff.can('inventory.read')
      ? { lowStockThreshold: threshold, ...(await catalog.countStockAlerts(db, site.id, threshold)) }
      : null,
    restockWaiting: staff.can('gatherings.read') ? await restock.countWaitingSignUps(db, site.id) : null,
    latestOrders: seesOrders ? (await orders.listAdminOrders(db, site.id, { limit: LATEST_ORDERS })).orders : null,
    sections: homeSections(staff).map(({ path, label }) => ({ path, label })),
  };
}
