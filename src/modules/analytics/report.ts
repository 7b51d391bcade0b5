/**
 * The merchant's report (issues 11 and 25) over the last `days` UTC days, as a plain object that the terminal, the
 * token page and the owner's pages render: sales from the orders (src/modules/orders `salesSummary`: revenue, orders,
 * average order, refunds, by day, top products), and from the browser's events visits, unique visitors, top pages,
 * the shop funnel (product page view → add to cart → checkout → purchase, by visitors), p75 of LCP, INP and CLS per
 * page with their rating shares, and the top client errors with a sample stack. Events are read from the daily
 * roll-ups; the days still holding raw events are rolled up first, so the report includes everything written until now.
 *
 * Unique visitors are counted per day (the visitor hash's salt changes daily, by design) and summed over the days.
 * The funnel counts a visitor at a step when, that same day, they reached it and every step before it (rollup.ts
 * `funnelCounts`): each step's share of the one before is never over 100 %. Days rolled up before the funnel rows
 * existed count each step's visitors capped at the step before's.
 * A page's p75 over several days is the days' p75s weighted by their sample counts.
 * Private pages (src/core/privatePath.ts) are never listed: rows stored before that rule are judged again here; their
 * page views are counted in `privatePageViews`, their web vitals under PRIVATE_PAGES, private URLs in errors replaced.
 */
import type { Kysely } from 'kysely';
import { rateWebVital, type WebVitalRating } from '../../core/webVitals';
import { analyticsPath, PRIVATE_PAGES, redactPrivatePaths } from '../../core/privatePath';
import { PageType } from '../../core/enums';
import { PURCHASE_EVENT_NAME } from '../../core/checkout/purchaseEvent';
import type { Database } from '../../platform/db/tables';
import { salesSummary, type SalesSummary } from '../orders';
import { ALL_PAGE_TYPES, ALL_PATHS, daysWithEvents, FUNNEL_KIND, FUNNEL_STEPS, rollupDay } from './rollup';
import { dayOf, daysBefore } from './visitorHash';

export { FUNNEL_STEPS };
export { PRIVATE_PAGES };

type Db = Kysely<Database>;

export const REPORT_METRICS = ['LCP', 'INP', 'CLS'] as const;
const TOP = 10;

export interface AnalyticsReport {
  siteId: string;
  currency: string;
  from: string;
  to: string;
  days: number;
  visits: number;
  uniqueVisitors: number;
  pageViews: number;
  daily: { day: string; visits: number; visitors: number; pageViews: number }[];
  /** The most viewed pages, private ones left out. */
  topPages: { path: string; pageViews: number; visitors: number }[];
  /** Page views of private pages (checkout, order pages, account…): counted, never listed. */
  privatePageViews: number;
  funnel: {
    steps: {
      step: (typeof FUNNEL_STEPS)[number]['step'];
      label: string;
      visitors: number;
      fromPrevious: number | null;
    }[];
    /** Purchasing visitors per product-page visitor (0–1), null without product page views. */
    conversion: number | null;
  };
  /** From the orders table, in minor units of `currency` (see src/modules/orders/sales.ts for what counts). */
  sales: SalesSummary;
  /** p75 per page and metric; `path` is PRIVATE_PAGES for the private pages together. */
  vitals: {
    path: string;
    metric: (typeof REPORT_METRICS)[number];
    p75: number;
    rating: WebVitalRating | null;
    samples: number;
    shares: { good: number; needsImprovement: number; poor: number };
  }[];
  errors: { message: string; count: number; visitors: number; sampleStack: string | null }[];
}

const ratio = (a: number, b: number): number | null => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : null);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function analyticsReport(
  db: Db,
  options: { siteId: string; currency: string; days: number; now: Date },
): Promise<AnalyticsReport> {
  const to = dayOf(options.now);
  const from = daysBefore(to, options.days - 1);
  for (const day of await daysWithEvents(db, { from, to, siteId: options.siteId }))
    await rollupDay(db, day, options.siteId);
  const rows = await db
    .selectFrom('analytics_daily')
    .selectAll()
    .where('site_id', '=', options.siteId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();

  const totals = rows.filter((r) => r.path === ALL_PATHS && r.page_type === ALL_PAGE_TYPES);
  const perPath = rows.filter((r) => r.path !== ALL_PATHS);
  const sum = <T>(list: readonly T[], pick: (item: T) => number) => list.reduce((n, item) => n + pick(item), 0);

  const hitTotals = totals.filter((r) => r.kind === 'hit');
  const daily = [...new Set(hitTotals.map((r) => r.day))].sort().map((day) => {
    const of = hitTotals.filter((r) => r.day === day);
    return {
      day,
      visits: sum(of, (r) => r.visits),
      visitors: sum(of, (r) => r.visitors),
      pageViews: sum(of, (r) => r.events),
    };
  });

  const pages = new Map<string, { pageViews: number; visitors: number }>();
  let privatePageViews = 0;
  for (const r of perPath.filter((x) => x.kind === 'hit')) {
    if (analyticsPath(r.path) === PRIVATE_PAGES) {
      privatePageViews += r.events;
      continue;
    }
    const page = pages.get(r.path) ?? { pageViews: 0, visitors: 0 };
    page.pageViews += r.events;
    page.visitors += r.visitors;
    pages.set(r.path, page);
  }
  const topPages = [...pages.entries()]
    .map(([path, p]) => ({ path, ...p }))
    .sort((a, b) => b.pageViews - a.pageViews || a.path.localeCompare(b.path))
    .slice(0, TOP);

  // The funnel, day by day: the day's funnel rows, or for a day rolled up before they existed, each step's visitors
  // capped at the step before's. Every day's steps only go down, so their sums do too.
  const stepVisitors = FUNNEL_STEPS.map(() => 0);
  for (const day of new Set(rows.map((r) => r.day))) {
    const ofDay = totals.filter((r) => r.day === day);
    const funnelRows = ofDay.filter((r) => r.kind === FUNNEL_KIND);
    let counts: number[];
    if (funnelRows.length > 0) {
      counts = FUNNEL_STEPS.map((s) =>
        sum(
          funnelRows.filter((r) => r.name === s.step),
          (r) => r.visitors,
        ),
      );
    } else {
      const commerce = (name: string) =>
        sum(
          ofDay.filter((r) => r.kind === 'commerce' && r.name === name),
          (r) => r.visitors,
        );
      const checkout = sum(
        perPath.filter((r) => r.day === day && r.kind === 'hit' && r.page_type === PageType.CHECKOUT),
        (r) => r.visitors,
      );
      counts = [
        commerce('CommerceShopping_VisitPDP'),
        commerce('CommerceShopping_AddToCart'),
        checkout,
        commerce(PURCHASE_EVENT_NAME),
      ];
    }
    let previous = Infinity;
    counts.forEach((count, i) => {
      previous = Math.min(previous, count);
      stepVisitors[i] = (stepVisitors[i] ?? 0) + previous;
    });
  }
  const steps = FUNNEL_STEPS.map(({ step, label }, i) => ({
    step,
    label,
    visitors: stepVisitors[i] ?? 0,
    fromPrevious: i === 0 ? null : ratio(stepVisitors[i] ?? 0, stepVisitors[i - 1] ?? 0),
  }));

  const vitals = new Map<string, AnalyticsReport['vitals'][number] & { weighted: number }>();
  for (const r of perPath.filter((x) => x.kind === 'vital' && (REPORT_METRICS as readonly string[]).includes(x.name))) {
    const path = analyticsPath(r.path);
    const key = `${path}\u0000${r.name}`;
    const v = vitals.get(key) ?? {
      path,
      metric: r.name as (typeof REPORT_METRICS)[number],
      p75: 0,
      rating: null,
      samples: 0,
      shares: { good: 0, needsImprovement: 0, poor: 0 },
      weighted: 0,
    };
    v.samples += r.events;
    v.weighted += (r.p75 ?? 0) * r.events;
    v.shares.good += r.good;
    v.shares.needsImprovement += r.needs_improvement;
    v.shares.poor += r.poor;
    vitals.set(key, v);
  }
  const vitalList = [...vitals.values()]
    .map(({ weighted, ...v }) => {
      const p75 = v.samples > 0 ? round(weighted / v.samples, v.metric === 'CLS' ? 3 : 0) : 0;
      const rated = v.shares.good + v.shares.needsImprovement + v.shares.poor;
      return {
        ...v,
        p75,
        rating: rateWebVital(v.metric, p75),
        shares: {
          good: ratio(v.shares.good, rated) ?? 0,
          needsImprovement: ratio(v.shares.needsImprovement, rated) ?? 0,
          poor: ratio(v.shares.poor, rated) ?? 0,
        },
      };
    })
    .sort((a, b) => b.samples - a.samples || a.path.localeCompare(b.path) || a.metric.localeCompare(b.metric));

  const errors = new Map<string, AnalyticsReport['errors'][number]>();
  for (const r of totals.filter((x) => x.kind === 'error')) {
    const message = redactPrivatePaths(r.name);
    const e = errors.get(message) ?? { message, count: 0, visitors: 0, sampleStack: null };
    e.count += r.events;
    e.visitors += r.visitors;
    e.sampleStack ??= r.sample === null ? null : redactPrivatePaths(r.sample);
    errors.set(message, e);
  }

  const hits = hitTotals;
  return {
    siteId: options.siteId,
    currency: options.currency,
    from,
    to,
    days: options.days,
    visits: sum(hits, (r) => r.visits),
    uniqueVisitors: sum(hits, (r) => r.visitors),
    pageViews: sum(hits, (r) => r.events),
    daily,
    topPages,
    privatePageViews,
    funnel: { steps, conversion: ratio(stepVisitors[3] ?? 0, stepVisitors[0] ?? 0) },
    sales: await salesSummary(db, options.siteId, from, to, options.currency),
    vitals: vitalList,
    errors: [...errors.values()].sort((a, b) => b.count - a.count || a.message.localeCompare(b.message)).slice(0, TOP),
  };
}
