/** Web-vitals ratings of spec §9. */

export type WebVitalName = 'FCP' | 'LCP' | 'CLS' | 'FID' | 'INP';
export type WebVitalRating = 'good' | 'needs-improvement' | 'poor';

/** [good, poor] thresholds; milliseconds except CLS, which is unitless. */
export const WEB_VITAL_THRESHOLDS: Readonly<Record<WebVitalName, readonly [good: number, poor: number]>> = {
  FCP: [1800, 3000],
  LCP: [2500, 4000],
  CLS: [0.1, 0.25],
  FID: [100, 300],
  INP: [200, 500],
};

export const isWebVitalName = (value: unknown): value is WebVitalName =>
  typeof value === 'string' && Object.hasOwn(WEB_VITAL_THRESHOLDS, value);

/**
 * Rates a measurement the way the web-vitals library does: a value at a threshold still
 * belongs to the better band. Unknown metrics, negative or non-finite values → null
 * (a broken measurement must not be stored as 'poor').
 */
export const rateWebVital = (name: unknown, value: unknown): WebVitalRating | null => {
  if (!isWebVitalName(name) || typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  const [good, poor] = WEB_VITAL_THRESHOLDS[name];
  if (value <= good) return 'good';
  if (value <= poor) return 'needs-improvement';
  return 'poor';
};
