/**
 * The daily roll-up of raw analytics events, and their retention. `rollupDay` (re)computes one UTC day's rows of
 * analytics_daily from its raw events in one transaction, so running it again (the job every few minutes, the report
 * before it reads) gives the same rows. Each (kind, name) also gets a row over every path (path '*', page type -1):
 * the day's distinct visitors of the whole site, which per-path rows cannot add up to. And the shop funnel gets one
 * row per step (kind 'funnel', over every path): the visitors who reached that step and every step before it that day.
 * `applyRetention` rolls up, then deletes, the raw events older than the retention, and the salts of past days.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { PURCHASE_EVENT_NAME } from '../../core/checkout/purchaseEvent';
import { PageType } from '../../core/enums';
import { dayOf, daysBefore } from './visitorHash';

type Db = Kysely<Database>;

export const ALL_PATHS = '*';
export const ALL_PAGE_TYPES = -1;
/** Default of ANALYTICS_RETENTION_DAYS: raw events are kept this many days (the roll-ups for good). */
export const DEFAULT_RETENTION_DAYS = 30;
/** Error samples kept in a roll-up row (a stack, cut at §9's 5000 characters by the reporter). */
const SAMPLE_MAX = 5000;

/** The 75th percentile (nearest rank), as web-vitals reports p75; null for no values. */
export function percentile75(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.75) - 1)] ?? null;
}

/**
 * The shop funnel's steps in order, and what marks a visitor as having reached each: a §7 event, or (checkout) a page
 * view of a checkout page.
 */
export const FUNNEL_STEPS = [
  { step: 'product-view', label: 'Product page view', event: 'CommerceShopping_VisitPDP' },
  { step: 'add-to-cart', label: 'Add to cart', event: 'CommerceShopping_AddToCart' },
  { step: 'checkout', label: 'Checkout', event: null },
  { step: 'purchase', label: 'Purchase', event: PURCHASE_EVENT_NAME },
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number]['step'];
/** The roll-up rows of the funnel: kind 'funnel', name the step, over all paths. */
export const FUNNEL_KIND = 'funnel';

/**
 * How many of `visitors` (each the set of steps they reached) are at each step of the funnel: a visitor counts at a
 * step when they reached it and every step before it, so no step holds more visitors than the one before.
 */
export function funnelCounts(visitors: Iterable<ReadonlySet<FunnelStep>>): number[] {
  const counts = FUNNEL_STEPS.map(() => 0);
  for (const reached of visitors) {
    for (let i = 0; i < FUNNEL_STEPS.length; i++) {
      if (!reached.has(FUNNEL_STEPS[i]!.step)) break;
      counts[i]! += 1;
    }
  }
  return counts;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/** Rolls up `day` for every site with events that day (or only `siteId`). Returns the rows written. */
export async function rollupDay(db: Db, day: string, siteId?: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let base = trx.selectFrom('analytics_events').where('day', '=', day);
    if (siteId !== undefined) base = base.where('site_id', '=', siteId);
    const aggregate = <Q extends typeof base>(q: Q) =>
      q.select([
        'site_id',
        'kind',
        'name',
        (eb) => eb.fn.countAll<string | number>().as('events'),
        sql<string | number>`count(distinct visitor_hash)`.as('visitors'),
        sql<string | number>`count(distinct visit_hash)`.as('visits'),
        sql<string | number>`count(distinct ref)`.as('refs'),
        sql<string | number | null>`sum(value)`.as('value_sum'),
        sql<string | number>`sum(case when rating = 'good' then 1 else 0 end)`.as('good'),
        sql<string | number>`sum(case when rating = 'needs-improvement' then 1 else 0 end)`.as('needs_improvement'),
        sql<string | number>`sum(case when rating = 'poor' then 1 else 0 end)`.as('poor'),
        sql<string | null>`max(detail)`.as('sample'),
      ]);
    const perPath = await aggregate(base)
      .select(['path', sql<number>`coalesce(page_type, 0)`.as('page_type')])
      .groupBy(['site_id', 'kind', 'name', 'path', sql`coalesce(page_type, 0)`])
      .execute();
    const totals = await aggregate(base).groupBy(['site_id', 'kind', 'name']).execute();

    // p75 of each metric per path and over all paths.
    const vitals = await base
      .select(['site_id', 'name', 'path', 'value'])
      .where('kind', '=', 'vital')
      .where('value', 'is not', null)
      .execute();
    const values = new Map<string, number[]>();
    for (const v of vitals) {
      for (const key of [
        `${v.site_id}\u0000${v.name}\u0000${v.path}`,
        `${v.site_id}\u0000${v.name}\u0000${ALL_PATHS}`,
      ]) {
        const list = values.get(key) ?? [];
        list.push(Number(v.value));
        values.set(key, list);
      }
    }
    // A purchase counts once per order, however often its confirmation page was seen.
    const purchases = await base
      .select(['site_id', 'path', 'ref', 'value'])
      .where('kind', '=', 'commerce')
      .where('name', '=', PURCHASE_EVENT_NAME)
      .execute();
    const revenue = new Map<string, Map<string, number>>();
    for (const p of purchases) {
      for (const key of [`${p.site_id}\u0000${p.path}`, `${p.site_id}\u0000${ALL_PATHS}`]) {
        const orders = revenue.get(key) ?? new Map<string, number>();
        orders.set(p.ref ?? '', num(p.value));
        revenue.set(key, orders);
      }
    }

    // The funnel: each visitor's steps that day (the visitor hash changes daily, so a day is a visitor's journey).
    const stepOfEvent = new Map<string, FunnelStep>(
      FUNNEL_STEPS.flatMap((s) => (s.event === null ? [] : [[s.event, s.step] as const])),
    );
    const journeys = await base
      .select(['site_id', 'visitor_hash', 'kind', 'name'])
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'commerce'), eb('name', 'in', [...stepOfEvent.keys()])]),
          eb.and([eb('kind', '=', 'hit'), eb('page_type', '=', PageType.CHECKOUT)]),
        ]),
      )
      .groupBy(['site_id', 'visitor_hash', 'kind', 'name'])
      .execute();
    const reachedBy = new Map<string, Map<string, Set<FunnelStep>>>();
    for (const j of journeys) {
      const step = j.kind === 'hit' ? 'checkout' : stepOfEvent.get(j.name);
      if (step === undefined) continue;
      const site = reachedBy.get(j.site_id) ?? new Map<string, Set<FunnelStep>>();
      reachedBy.set(j.site_id, site);
      const reached = site.get(j.visitor_hash) ?? new Set<FunnelStep>();
      site.set(j.visitor_hash, reached);
      reached.add(step);
    }
    const funnelRows = [...reachedBy.entries()].flatMap(([site, visitors]) => {
      const counts = funnelCounts(visitors.values());
      return FUNNEL_STEPS.map((s, i) => ({
        site_id: site,
        day,
        kind: FUNNEL_KIND,
        name: s.step,
        path: ALL_PATHS,
        page_type: ALL_PAGE_TYPES,
        events: counts[i] ?? 0,
        visitors: counts[i] ?? 0,
        visits: 0,
        refs: 0,
        value_sum: 0,
        good: 0,
        needs_improvement: 0,
        poor: 0,
        p75: null,
        sample: null,
      }));
    });

    let deleted = trx.deleteFrom('analytics_daily').where('day', '=', day);
    if (siteId !== undefined) deleted = deleted.where('site_id', '=', siteId);
    await deleted.execute();

    const rows = [
      ...perPath.map((r) => ({ ...r, path: r.path, page_type: num(r.page_type) })),
      ...totals.map((r) => ({ ...r, path: ALL_PATHS, page_type: ALL_PAGE_TYPES })),
    ].map((r) => {
      const orders =
        r.kind === 'commerce' && r.name === PURCHASE_EVENT_NAME
          ? revenue.get(`${r.site_id}\u0000${r.path}`)
          : undefined;
      return {
        site_id: r.site_id,
        day,
        kind: r.kind,
        name: r.name,
        path: r.path,
        page_type: r.page_type,
        events: num(r.events),
        visitors: num(r.visitors),
        visits: num(r.visits),
        refs: num(r.refs),
        value_sum: orders ? [...orders.values()].reduce((a, b) => a + b, 0) : num(r.value_sum),
        good: num(r.good),
        needs_improvement: num(r.needs_improvement),
        poor: num(r.poor),
        p75: r.kind === 'vital' ? percentile75(values.get(`${r.site_id}\u0000${r.name}\u0000${r.path}`) ?? []) : null,
        sample: r.kind === 'error' && r.sample ? r.sample.slice(0, SAMPLE_MAX) : null,
      };
    });
    rows.push(...funnelRows);
    for (let i = 0; i < rows.length; i += 50)
      await trx
        .insertInto('analytics_daily')
        .values(rows.slice(i, i + 50))
        .execute();
    return rows.length;
  });
}

/** The days (YYYY-MM-DD) that have raw events, from `from` to `to` inclusive (either open). */
export async function daysWithEvents(
  db: Db,
  range: { from?: string; to?: string; siteId?: string },
): Promise<string[]> {
  let q = db.selectFrom('analytics_events').select('day').distinct();
  if (range.from !== undefined) q = q.where('day', '>=', range.from);
  if (range.to !== undefined) q = q.where('day', '<=', range.to);
  if (range.siteId !== undefined) q = q.where('site_id', '=', range.siteId);
  return (await q.orderBy('day').execute()).map((r) => r.day);
}

/** The job of `vitrine serve`: today's and yesterday's roll-ups (late events of yesterday land in the first run after midnight). */
export async function rollupRecent(db: Db, now: Date): Promise<number> {
  const today = dayOf(now);
  let rows = 0;
  for (const day of await daysWithEvents(db, { from: daysBefore(today, 1), to: today }))
    rows += await rollupDay(db, day);
  return rows;
}

/**
 * Keeps `retentionDays` days of raw events (today included): older days are rolled up one last time, then deleted.
 * Salts of days before yesterday are deleted too (yesterday's still hashes events that arrive just after midnight).
 */
export async function applyRetention(
  db: Db,
  now: Date,
  retentionDays: number,
): Promise<{ days: number; events: number }> {
  const today = dayOf(now);
  const firstKept = daysBefore(today, retentionDays - 1);
  const old = await daysWithEvents(db, { to: daysBefore(firstKept, 1) });
  let events = 0;
  for (const day of old) {
    await rollupDay(db, day);
    const result = await db.deleteFrom('analytics_events').where('day', '=', day).executeTakeFirst();
    events += Number(result.numDeletedRows);
  }
  await db.deleteFrom('analytics_salts').where('day', '<', daysBefore(today, 1)).execute();
  return { days: old.length, events };
}
