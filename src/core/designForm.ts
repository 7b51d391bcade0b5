/**
 * What the design editor (/admin/design, issue 26) reads from what the owner typed, with the spec's editor texts
 * (§5): a colour as hex or HSL ('Hue out of bounds.' …), a footer link as a page of the site or another website ('{val}
 * is not a valid page URL', 'Links must be formatted as {host} or {host}'), and the menu's moves. Pure: the server's
 * form and JSON calls use it, and so could the browser.
 */
import { COLOUR_MESSAGES, hsla, hslaToRgb, normaliseHex, rgbToHex } from './colour';
import { err, ok, type Result } from './result';

/** The text of a colour that is neither hex nor HSL. */
export const COLOUR_FORMAT_MESSAGE = "must be a hex colour like '#1f4d3a' or an HSL colour like 'hsl(155, 43%, 21%)'";

const NUMBER = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
const HSL_FUNCTION = /^hsla?\((.*)\)$/i;

/** One HSL component: '43%' is 0.43, '0.43' is 0.43; the hue in degrees ('155' or '155deg'). */
function hslPart(raw: string | undefined, kind: 'hue' | 'fraction'): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  const match = new RegExp(`^(${NUMBER})(%|deg)?$`, 'i').exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  const unit = match[2]?.toLowerCase();
  if (kind === 'hue') return unit === '%' ? Number.NaN : value;
  if (unit === 'deg') return Number.NaN;
  return unit === '%' ? value / 100 : value;
}

/**
 * A colour the owner typed: '' (keep the storefront's own), a hex colour of 3 or 6 digits with or without '#', or
 * 'hsl(h, s%, l%)' (hue 0–360, saturation and lightness 0–100 % or 0–1) — answered as '#rrggbb', or the spec's
 * message of what is wrong ('Hue out of bounds.', 'Missing an H/S/L value.', …). An HSL colour must be opaque: a
 * storefront colour with alpha below 1 would be checked for contrast against what is behind it, which we do not know.
 */
export function readColour(input: string): Result<string | undefined, string> {
  const text = input.trim();
  if (text === '') return ok(undefined);
  const fn = HSL_FUNCTION.exec(text);
  if (fn) {
    const parts = (fn[1] ?? '').split(/\s*[,/]\s*|\s+/).filter((p) => p !== '');
    const [h, s, l, a] = [
      hslPart(parts[0], 'hue'),
      hslPart(parts[1], 'fraction'),
      hslPart(parts[2], 'fraction'),
      parts[3] === undefined ? 1 : hslPart(parts[3], 'fraction'),
    ];
    if (parts.length > 4 || [h, s, l, a].some((v) => Number.isNaN(v))) return err(COLOUR_FORMAT_MESSAGE);
    const checked = hsla({ h, s, l, a });
    if (!checked.ok) return err(checked.error);
    if (checked.value.a !== 1) return err(COLOUR_MESSAGES.alpha);
    return ok(rgbToHex(hslaToRgb(checked.value)));
  }
  // The design writes 3 or 6 hex digits (4 and 5, which §5's reader takes as a number, mean nothing to an owner).
  if (!/^#?(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(text)) return err(COLOUR_FORMAT_MESSAGE);
  return ok(normaliseHex(text) ?? undefined);
}

/** §5's editor message for a link that is not one ('Links must be formatted as {host} or {host}'). */
export const linkFormatMessage = (): string => 'Links must be formatted as example.com or https://example.com/page';
/** §5's editor message for a path of this site that is no page ('{val} is not a valid page URL'). */
export const pageUrlMessage = (val: string): string => `${val} is not a valid page URL`;

/** Where a footer link goes: a page of the site (its id) or another website (an https address). */
export type LinkTarget = { page: string } | { url: string };

/**
 * A footer link's address as typed: a path of this site ('/about', which must be one of `pages`) or another website
 * ('example.com', 'https://example.com/terms'; http is taken as https, as the storefront only links out over https).
 */
export function readLinkTarget(
  input: string,
  pages: readonly { id: string; path: string }[],
): Result<LinkTarget, string> {
  const text = input.trim();
  if (text === '') return err(linkFormatMessage());
  if (text.startsWith('/') && !text.startsWith('//')) {
    const path = text.length > 1 ? text.replace(/\/+$/, '') : text;
    const page = pages.find((p) => p.path === path);
    return page ? ok({ page: page.id }) : err(pageUrlMessage(text));
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme.replace(/^http:/i, 'https:'));
  } catch {
    return err(linkFormatMessage());
  }
  const hostLike = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(url.hostname);
  if (url.protocol !== 'https:' || !hostLike || url.username !== '' || url.password !== '' || text.length > 2083)
    return err(linkFormatMessage());
  return ok({ url: url.href });
}

/** Moves the item at `index` one place up (-1) or down (+1); at an end the list is unchanged. A new array. */
export function moveItem<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const copy = [...items];
  const to = index + by;
  if (index < 0 || index >= copy.length || to < 0 || to >= copy.length) return copy;
  const [item] = copy.splice(index, 1) as [T];
  copy.splice(to, 0, item);
  return copy;
}
