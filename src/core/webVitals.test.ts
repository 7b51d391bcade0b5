import { describe, expect, it } from 'vitest';
import { WEB_VITAL_THRESHOLDS, isWebVitalName, rateWebVital } from './webVitals';

describe('web-vitals ratings (§9)', () => {
  it('has the spec thresholds', () => {
    expect(WEB_VITAL_THRESHOLDS).toEqual({
      FCP: [1800, 3000],
      LCP: [2500, 4000],
      CLS: [0.1, 0.25],
      FID: [100, 300],
      INP: [200, 500],
    });
  });

  it.each([
    ['FCP', 0, 'good'],
    ['FCP', 1800, 'good'],
    ['FCP', 1801, 'needs-improvement'],
    ['FCP', 3000, 'needs-improvement'],
    ['FCP', 3001, 'poor'],
    ['LCP', 2500, 'good'],
    ['LCP', 4000, 'needs-improvement'],
    ['LCP', 4000.1, 'poor'],
    ['CLS', 0.1, 'good'],
    ['CLS', 0.11, 'needs-improvement'],
    ['CLS', 0.25, 'needs-improvement'],
    ['CLS', 0.26, 'poor'],
    ['FID', 100, 'good'],
    ['FID', 300, 'needs-improvement'],
    ['FID', 301, 'poor'],
    ['INP', 200, 'good'],
    ['INP', 201, 'needs-improvement'],
    ['INP', 500, 'needs-improvement'],
    ['INP', 501, 'poor'],
  ])('%s %s → %s', (name, value, rating) => {
    expect(rateWebVital(name, value)).toBe(rating);
  });

  it.each([
    ['TTFB', 10],
    ['LCP', -1],
    ['LCP', Number.NaN],
    ['LCP', Number.POSITIVE_INFINITY],
    ['LCP', '100'],
    ['toString', 1],
  ])('rates %s %s as null', (name, value) => {
    expect(rateWebVital(name, value)).toBeNull();
  });

  it('recognises metric names', () => {
    expect(isWebVitalName('INP')).toBe(true);
    expect(isWebVitalName('inp')).toBe(false);
    expect(isWebVitalName(3)).toBe(false);
  });
});
