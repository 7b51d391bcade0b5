/**
 * What the storefront's measurement sends (spec §3 census payload, §7 calls, §9 limits) and how the server reads it:
 * the paths, event names, which pages send no page view, and the checks that bound every field. Shared by the
 * browser module (src/client/measure/*) and the analytics routes (src/modules/analytics/routes.ts). Pure.
 */
import { isWebVitalName, rateWebVital, type WebVitalName, type WebVitalRating } from './webVitals';

export const ANALYTICS_PATHS = {
  recordHit: '/api/census/RecordHit',
  buttonClick: '/api/census/button-click',
  buttonRender: '/api/census/button-render',
  formRender: '/api/census/form-render',
  overlay: '/api/census/overlay',
  /** + '/{id}' */
  recordQuickView: '/api/census/RecordQuickView',
  /** §7 "a same-site events endpoint" (its path is not shown: this is ours). */
  events: '/api/events/RecordEvent',
  javascriptErrors: '/api/events/RecordJavascriptErrors',
  performanceRecords: '/api/1/performance/records',
} as const;

/** The census calls other than the page hit, by their path's last part. */
export const CENSUS_CALLS = ['button-click', 'button-render', 'form-render', 'overlay'] as const;
export type CensusCall = (typeof CENSUS_CALLS)[number];

/** §7's analytics events (the purchase event's name is in ./checkout/purchaseEvent.ts). */
export const COMMERCE_EVENTS = [
  'CommerceShopping_VisitPDP',
  'CommerceShopping_VisitPLP',
  'CommerceShopping_AddToCart',
  'CommerceShopping_ViewCart',
  'CommerceShopping_RemoveFromCart',
  'CommerceShopping_RelatedProductDisplay',
  'CommerceShopping_RelatedProductClick',
  'CommerceShopping_RelatedProductAdd',
  'CommerceShopping_ReviewsTab',
  'CommerceShopping_OpenCustomProductForm',
  'CommerceShopping_SaveCustomProductForm',
  'CommerceShopping_CheckoutConfirmed',
] as const;
export type CommerceEventName = (typeof COMMERCE_EVENTS)[number];
export const isCommerceEventName = (value: unknown): value is CommerceEventName =>
  typeof value === 'string' && (COMMERCE_EVENTS as readonly string[]).includes(value);

/** §8's analytics warning when the events endpoint refuses. */
export const trackingErrorWarning = (status: number): string => `Error tracking event: HTTP Status ${status}`;

// ---------------------------------------------------------------- limits of what the server takes

export const ANALYTICS_LIMITS = {
  /** Largest body of any analytics call. */
  bodyBytes: 32 * 1024,
  path: 500,
  title: 300,
  text: 200,
  id: 100,
  /** Records in one performance batch. */
  records: 50,
  /** Events in one error report: the reporter's queue (§9). */
  errors: 10,
  message: 1000,
  stack: 5000,
  detail: 4000,
} as const;

/** The §3 census payload (every field optional: older or odd clients still count). */
export interface CensusPayload {
  visitorCookie?: string;
  pageTitle?: string;
  pageId?: string;
  contentSource?: 'i' | 'c';
  pagePath?: string;
  pagePermissionTypeValue?: number;
  userAgent?: string;
  clientDate?: number;
  viewportWidth?: number;
  viewportHeight?: number;
  screenWidth?: number;
  screenHeight?: number;
  websiteId?: string;
  templateId?: string;
  website_locale?: string;
  url?: string;
  title?: string;
  itemId?: string;
  recordType?: number;
  collectionId?: string;
  localStorageSupported?: boolean;
  queryString?: string;
  referrer?: string;
  /** Ours: the §2 page type of the page (checkout 201 is the funnel's third step). */
  pageType?: number;
}

const cutText = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' ? value.slice(0, max) : undefined;
const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A site path: starts with '/', no control characters; else null. */
export function sitePath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return null;
  const path = value.split(/[?#]/)[0] ?? '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return null;
  return path.slice(0, ANALYTICS_LIMITS.path);
}

/** Reads a census payload from JSON text: unknown fields dropped, texts cut, numbers checked. null: not a JSON object. */
export function readCensusPayload(text: unknown): CensusPayload | null {
  if (typeof text !== 'string' || text.length > ANALYTICS_LIMITS.bodyBytes) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const { text: T, title: TITLE, id: ID, path: P } = ANALYTICS_LIMITS;
  const payload: CensusPayload = {};
  const put = <K extends keyof CensusPayload>(key: K, value: CensusPayload[K] | undefined) => {
    if (value !== undefined) payload[key] = value;
  };
  put('visitorCookie', cutText(r.visitorCookie, T));
  put('pageTitle', cutText(r.pageTitle, TITLE));
  put('pageId', cutText(r.pageId, ID));
  put('contentSource', r.contentSource === 'i' || r.contentSource === 'c' ? r.contentSource : undefined);
  put('pagePath', sitePath(r.pagePath) ?? undefined);
  put('pagePermissionTypeValue', finite(r.pagePermissionTypeValue));
  put('userAgent', cutText(r.userAgent, 500));
  put('clientDate', finite(r.clientDate));
  for (const key of ['viewportWidth', 'viewportHeight', 'screenWidth', 'screenHeight'] as const)
    put(key, finite(r[key]));
  put('websiteId', cutText(r.websiteId, ID));
  put('templateId', cutText(r.templateId, ID));
  put('website_locale', cutText(r.website_locale, 20));
  put('url', cutText(r.url, P));
  put('title', cutText(r.title, TITLE));
  put('itemId', cutText(r.itemId, ID));
  put('recordType', finite(r.recordType));
  put('collectionId', cutText(r.collectionId, ID));
  put('localStorageSupported', typeof r.localStorageSupported === 'boolean' ? r.localStorageSupported : undefined);
  put('queryString', cutText(r.queryString, P));
  put('referrer', cutText(r.referrer, P));
  put('pageType', finite(r.pageType));
  return payload;
}

// ---------------------------------------------------------------- performance records

/** One web-vitals measurement as the browser batches it (§7, §9). TTFB has no §9 rating. */
export interface PerformanceRecord {
  name: WebVitalName | 'TTFB';
  value: number;
  rating: WebVitalRating | null;
  path: string;
  /** The element the metric is about (LCP's image, CLS's shifted node), cut at 200 characters. */
  element?: string;
  pageType?: number;
}

export const ELEMENT_PATH_MAX = 200;

/** Reads a batch (JSON text, an array); bad records are skipped, the rating recomputed here (never trusted). */
export function readPerformanceRecords(text: unknown): PerformanceRecord[] | null {
  if (typeof text !== 'string' || text.length > ANALYTICS_LIMITS.bodyBytes) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(raw)
    ? raw
    : typeof raw === 'object' && raw !== null && Array.isArray((raw as { records?: unknown }).records)
      ? (raw as { records: unknown[] }).records
      : null;
  if (!list || list.length > ANALYTICS_LIMITS.records) return null;
  const records: PerformanceRecord[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const r = item as Record<string, unknown>;
    const name = r.name === 'TTFB' ? 'TTFB' : isWebVitalName(r.name) ? r.name : null;
    const value = finite(r.value);
    const path = sitePath(r.path);
    if (name === null || value === undefined || value < 0 || value > 3_600_000 || path === null) continue;
    const element = cutText(r.element, ELEMENT_PATH_MAX);
    const pageType = finite(r.pageType);
    records.push({
      name,
      value,
      rating: name === 'TTFB' ? null : rateWebVital(name, value),
      path,
      ...(element ? { element } : {}),
      ...(pageType !== undefined ? { pageType } : {}),
    });
  }
  return records;
}

// ---------------------------------------------------------------- client errors

export interface ClientErrorEvent {
  message: string;
  stack: string | null;
  path: string;
}

/** Reads the reporter's batch (a JSON array of { message, stack?, url? }); null when it is not one. */
export function readClientErrors(body: unknown): ClientErrorEvent[] | null {
  const list = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null && Array.isArray((body as { events?: unknown }).events)
      ? (body as { events: unknown[] }).events
      : null;
  if (!list || list.length === 0 || list.length > ANALYTICS_LIMITS.errors) return null;
  const events: ClientErrorEvent[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) return null;
    const r = item as Record<string, unknown>;
    const message = cutText(r.message, ANALYTICS_LIMITS.message)?.trim();
    if (!message) return null;
    let path = '/';
    if (typeof r.url === 'string') {
      try {
        path = sitePath(new URL(r.url, 'http://x').pathname) ?? '/';
      } catch {
        path = '/';
      }
    } else if (typeof r.path === 'string') path = sitePath(r.path) ?? '/';
    events.push({ message, stack: cutText(r.stack, ANALYTICS_LIMITS.stack) ?? null, path });
  }
  return events;
}
