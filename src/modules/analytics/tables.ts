/** The tables the analytics module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Generated } from 'kysely';

/** One raw analytics event (migration 007): no IP or user agent, a salted daily visitor hash. */
export interface AnalyticsEventsTable {
  id: Generated<number>;
  site_id: string;
  day: string;
  created_at: string;
  kind: string;
  name: string;
  path: string;
  page_type: number | null;
  visitor_hash: string;
  visit_hash: string | null;
  browser: string;
  device: string;
  country: string | null;
  ref: string | null;
  value: number | null;
  rating: string | null;
  detail: string | null;
}

/** Events of one (site, day, kind, name, path, page type), rolled up. */
export interface AnalyticsDailyTable {
  site_id: string;
  day: string;
  kind: string;
  name: string;
  path: string;
  page_type: number;
  events: number;
  visitors: number;
  visits: number;
  refs: number;
  value_sum: number;
  good: number;
  needs_improvement: number;
  poor: number;
  p75: number | null;
  sample: string | null;
}

export interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

/** A token that opens the report page of one site, stored as its sha256. */
export interface AnalyticsReportTokensTable {
  token_hash: string;
  site_id: string;
  created_at: string;
}

declare module '../../platform/db/tables' {
  interface Database {
    analytics_events: AnalyticsEventsTable;
    analytics_daily: AnalyticsDailyTable;
    analytics_salts: AnalyticsSaltsTable;
    analytics_report_tokens: AnalyticsReportTokensTable;
  }
}
