/**
 * The merchant's report (issue 11) over the last `days` UTC days: visits, unique visitors, top pages, the shop funnel
 * (product page view → add to cart → checkout → purchase) with its conversion, revenue, p75 of LCP, INP and CLS per
 * page with their rating shares, and the top client errors with a sample stack. Read from the daily roll-ups; the
 * days still holding raw events are rolled up first, so the report includes everything written until now.
 *
 * Unique visitors are counted per day (the visitor hash's salt changes daily, by design) and summed over the days.
 * A page's p75 over several days is the days' p75s weighted by their sample counts.
 */
import type { Kysely } from 'kysely';
import { PURCHASE_EVENT_NAME } from '../../core/checkout/purchaseEvent';
import { PageType } from '../../core/enums';
import { rateWebVital, type WebVitalRating } from '../../core/webVitals';
import type { Database } from '../../platform/db/tables';
import { ALL_PAGE_TYPES, ALL_PATHS, daysWithEvents, rollupDay } from './rollup';
import { dayOf, daysBefore } from './visitorHash';

type Db = Kysely<Database>;

export const REPORT_METRICS = ['LCP', 'INP', 'CLS'] as const;
export const FUNNEL_STEPS = [
  { step: 'product-view', label: 'Product page view' },
  { step: 'add-to-cart', label: 'Add to cart' },
  { step: 'checkout', label: 'Checkout' },
  { step: 'purchase', label: 'Purchase' },
] as const;
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
  topPages: { path: string; pageViews: number; visitors: number }[];
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
  revenue: { orders: number; value: number; currency: string };
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
  for (const r of perPath.filter((x) => x.kind === 'hit')) {
    const page = pages.get(r.path) ?? { pageViews: 0, visitors: 0 };
    page.pageViews += r.events;
    page.visitors += r.visitors;
    pages.set(r.path, page);
  }
  const topPages = [...pages.entries()]
    .map(([path, p]) => ({ path, ...p }))
    .sort((a, b) => b.pageViews - a.pageViews || a.path.localeCompare(b.path))
    .slice(0, TOP);

  const commerce = (name: string) => totals.filter((r) => r.kind === 'commerce' && r.name === name);
  const purchases = commerce(PURCHASE_EVENT_NAME);
  const stepVisitors = [
    sum(commerce('CommerceShopping_VisitPDP'), (r) => r.visitors),
    sum(commerce('CommerceShopping_AddToCart'), (r) => r.visitors),
    sum(
      perPath.filter((r) => r.kind === 'hit' && r.page_type === PageType.CHECKOUT),
      (r) => r.visitors,
    ),
    sum(purchases, (r) => r.visitors),
  ];
  const steps = FUNNEL_STEPS.map((s, i) => ({
    ...s,
    visitors: stepVisitors[i] ?? 0,
    fromPrevious: i === 0 ? null : ratio(stepVisitors[i] ?? 0, stepVisitors[i - 1] ?? 0),
  }));

  const vitals = new Map<string, AnalyticsReport['vitals'][number] & { weighted: number }>();
  for (const r of perPath.filter((x) => x.kind === 'vital' && (REPORT_METRICS as readonly string[]).includes(x.name))) {
    const key = `${r.path}\u0000${r.name}`;
    const v = vitals.get(key) ?? {
      path: r.path,
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
    const e = errors.get(r.name) ?? { message: r.name, count: 0, visitors: 0, sampleStack: null };
    e.count += r.events;
    e.visitors += r.visitors;
    e.sampleStack ??= r.sample;
    errors.set(r.name, e);
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
    funnel: { steps, conversion: ratio(stepVisitors[3] ?? 0, stepVisitors[0] ?? 0) },
    revenue: {
      orders: sum(purchases, (r) => r.refs),
      value: round(
        sum(purchases, (r) => r.value_sum),
        2,
      ),
      currency: options.currency,
    },
    vitals: vitalList,
    errors: [...errors.values()].sort((a, b) => b.count - a.count || a.message.localeCompare(b.message)).slice(0, TOP),
  };
}
