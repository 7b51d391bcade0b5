/**
 * What analytics keeps of a user agent (issue 11: never the full string): a browser family and a device class.
 * Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari".
 */
export type BrowserFamily = 'Edge' | 'Opera' | 'Samsung Internet' | 'Firefox' | 'Chrome' | 'Safari' | 'Other';
export type DeviceClass = 'mobile' | 'tablet' | 'desktop' | 'bot';

const BROWSERS: readonly [RegExp, BrowserFamily][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const BOT =
  /bot\b|crawler|spider|crawling|slurp|headlesschrome|lighthouse|facebookexternalhit|curl\/|wget\/|python-requests|node-fetch|axios\//i;

export function browserFamily(userAgent: string | undefined): BrowserFamily {
  const ua = userAgent ?? '';
  return BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? 'Other';
}

export function deviceClass(userAgent: string | undefined): DeviceClass {
  const ua = userAgent ?? '';
  if (ua === '' || BOT.test(ua)) return 'bot';
  if (/iPad|Tablet|Android(?!.*Mobile)|Silk\//.test(ua)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android.*Mobile|Windows Phone/.test(ua)) return 'mobile';
  return 'desktop';
}
