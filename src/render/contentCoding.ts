/**
 * HTTP's proactive negotiation of a page's content coding (RFC 9110 §12.5.3) and its conditional GET (§13.1.2), as
 * pure functions: which of the codings a cached page is kept in (br, gzip, none) the request's Accept-Encoding asks
 * for, and whether its If-None-Match names the representation about to be sent.
 */

/** The codings a page is sent in; `identity` is no compression. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** The server's preference when the client likes several equally: the smallest first. */
export const PAGE_CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/** RFC 9110 §12.4.2: a weight is 0 to 1 with at most three decimals. */
const WEIGHT = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The coding to send for this Accept-Encoding value among those the page is kept in (`available`, best first), or
 * null when it refuses every one (identity included: the answer is then 406).
 *
 * - No header, or an empty one: identity (no preference, or "no coding please").
 * - Each listed coding gets its weight (`q`, 1 when not given; `x-gzip` is gzip); `*` weighs every coding not listed.
 * - identity is acceptable unless `identity;q=0`, or `*;q=0` without identity listed; when not listed it ranks below
 *   every coding the client named with a weight above 0 (so `gzip;q=0.5` still gets gzip).
 * - The highest weight wins; ties go to br, then gzip, then identity. An element with a malformed weight is ignored.
 */
export function negotiateContentCoding(
  acceptEncoding: string | undefined,
  available: readonly ContentCoding[] = PAGE_CODINGS,
): ContentCoding | null {
  if (acceptEncoding === undefined || acceptEncoding.trim() === '')
    return available.includes('identity') ? 'identity' : null;
  const weights = new Map<string, number>();
  for (const element of acceptEncoding.split(',')) {
    const [rawName = '', ...params] = element.split(';');
    let name = rawName.trim().toLowerCase();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let weight = 1;
    let valid = true;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      if (WEIGHT.test(value)) weight = Number(value);
      else valid = false;
    }
    // A coding listed twice keeps its highest weight.
    if (valid) weights.set(name, Math.max(weight, weights.get(name) ?? 0));
  }
  const any = weights.get('*');
  let best: ContentCoding | null = null;
  let bestWeight = 0;
  for (const coding of available) {
    let weight = weights.get(coding) ?? any;
    // identity not named, nor refused by `*;q=0`: acceptable, below anything named.
    if (weight === undefined && coding === 'identity') weight = Number.MIN_VALUE;
    if (weight !== undefined && weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * Whether an If-None-Match value names `etag` (RFC 9110 §13.1.2: weak comparison, so `W/"x"` matches `"x"`; `*`
 * matches any current representation). A list is comma-separated.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch === etag) return true;
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
