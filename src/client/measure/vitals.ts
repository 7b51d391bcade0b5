/**
 * Performance records (§7, §9): FCP, LCP, CLS, INP and TTFB from the web-vitals library, FID from the browser's own
 * first-input entry (web-vitals 5 no longer reports it), each with the element it is about (path cut at 200
 * characters), batched to POST /api/1/performance/records as text/plain — by sendBeacon, else XHR — 30 s after load
 * or when the page is hidden, whichever comes first; collection stops 60 s after load.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { ANALYTICS_PATHS, ELEMENT_PATH_MAX, type PerformanceRecord } from '../../core/analytics';
import { METRIC_COLLECTION_MAX_WAIT_MS, PERFORMANCE_BATCH_DELAY_MS } from '../../core/timing';
import type { PageInfo } from './page';

/** A CSS-like path of an element ('main > div.product > img#hero'), cut at §9's 200 characters. */
export function elementPath(node: Node | null | undefined): string | undefined {
  const parts: string[] = [];
  let el = node instanceof Element ? node : (node?.parentElement ?? null);
  while (el && el !== document.body && el !== document.documentElement && parts.length < 8) {
    const name =
      el.localName + (el.id ? `#${el.id}` : el.classList.length ? `.${[...el.classList].slice(0, 2).join('.')}` : '');
    parts.unshift(name);
    if (el.id) break;
    el = el.parentElement;
  }
  return parts.length ? parts.join(' > ').slice(0, ELEMENT_PATH_MAX) : undefined;
}

function elementOf(metric: Metric): Node | null | undefined {
  const entries = metric.entries as (PerformanceEntry & {
    element?: Element | null;
    target?: Node | null;
    sources?: { node?: Node | null }[];
  })[];
  const last = entries[entries.length - 1];
  if (metric.name === 'LCP') return last?.element;
  if (metric.name === 'INP') return entries[0]?.target;
  if (metric.name === 'CLS') {
    const largest = entries.reduce<(typeof entries)[number] | undefined>(
      (a, b) => (a && (a as unknown as { value: number }).value >= (b as unknown as { value: number }).value ? a : b),
      undefined,
    );
    return largest?.sources?.[0]?.node;
  }
  return undefined;
}

export function sendRecords(records: PerformanceRecord[]): void {
  const body = JSON.stringify(records);
  try {
    // A string body is sent as text/plain.
    if (navigator.sendBeacon?.(ANALYTICS_PATHS.performanceRecords, body)) return;
  } catch {
    // fall back to XHR
  }
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ANALYTICS_PATHS.performanceRecords);
    // A string body goes as text/plain.
    xhr.send(body);
  } catch {
    // measurement never fails the page
  }
}

/** When the page finished loading (ms since navigation start): the batch timers count from it. */
const loadTime = (): number =>
  (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd ||
  performance.now();

export function startVitals(page: PageInfo, loadedAt: number = loadTime()): void {
  let pending: PerformanceRecord[] = [];
  let collecting = true;
  // web-vitals rates with §9's thresholds (src/core/webVitals.ts); the server rates every record again, FID included.
  const record = (
    name: PerformanceRecord['name'],
    value: number,
    rating: PerformanceRecord['rating'],
    element?: string,
  ) => {
    if (!collecting) return;
    pending = pending.filter((r) => r.name !== name);
    pending.push({
      name,
      value,
      rating,
      path: page.path,
      ...(element ? { element } : {}),
      ...(page.pageType !== null ? { pageType: page.pageType } : {}),
    });
  };
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    sendRecords(batch);
  };
  const report = (metric: Metric) =>
    record(
      metric.name as PerformanceRecord['name'],
      metric.value,
      metric.name === 'TTFB' ? null : metric.rating,
      elementPath(elementOf(metric)),
    );
  onFCP(report);
  onLCP(report);
  onCLS(report);
  onINP(report);
  onTTFB(report);
  try {
    new PerformanceObserver((list) => {
      const first = list.getEntries()[0] as (PerformanceEventTiming & { target?: Node | null }) | undefined;
      if (first) record('FID', first.processingStart - first.startTime, null, elementPath(first.target));
    }).observe({ type: 'first-input', buffered: true });
  } catch {
    // no first-input entries in this browser
  }
  const since = performance.now() - loadedAt;
  setTimeout(flush, Math.max(0, PERFORMANCE_BATCH_DELAY_MS - since));
  setTimeout(
    () => {
      flush();
      collecting = false;
    },
    Math.max(0, METRIC_COLLECTION_MAX_WAIT_MS - since),
  );
  // After web-vitals' own listeners (registered above), so the final LCP, CLS and INP are in the batch.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') queueMicrotask(flush);
  });
  addEventListener('pagehide', flush);
}
