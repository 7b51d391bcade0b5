/**
 * The post-submit HTML of a form (its `submissionHtml`, from the site file) as safe HTML: an allowlist of text tags,
 * links only to http(s), mailto, tel or this site's paths, no attributes but a link's href; every other tag is
 * dropped (its text kept, escaped), script and style contents dropped whole, comments dropped. The result carries no
 * script, no event handler and no style, so it also passes the pages' Content-Security-Policy.
 */

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'a',
  'ul',
  'ol',
  'li',
  'h2',
  'h3',
  'h4',
  'span',
  'blockquote',
]);
const VOID_TAGS = new Set(['br']);
/** Tags whose contents are never text to show. */
const DROPPED_WITH_CONTENT =
  /<(script|style|template|iframe|object|noscript|textarea|title|svg|math)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<\/?[A-Za-z][^>]*>|<|[^<]+/g;
const ENTITY = /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/iy;

const escapeText = (text: string): string => {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '&') {
      ENTITY.lastIndex = i;
      const entity = ENTITY.exec(text);
      if (entity) {
        out += entity[0];
        i += entity[0].length - 1;
        continue;
      }
      out += '&amp;';
    } else if (c === '<') out += '&lt;';
    else if (c === '>') out += '&gt;';
    else if (c === '"') out += '&quot;';
    else out += c;
  }
  return out;
};

const escapeAttribute = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A link target that cannot run script or leave for another scheme: http(s), mailto, tel, or a path of this site. */
export const safeHref = (href: string): string | null => {
  // Browsers drop tabs and newlines inside URLs and decode entities in attributes: judge what they would see.
  const decoded = href
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d) % 0x110000))
    .replace(/&colon;/gi, ':')
    .replace(/[\p{Cc} ]/gu, '');
  if (/^(https?:|mailto:|tel:)/i.test(decoded)) return decoded;
  if (/^\/(?![/\\])/.test(decoded) || /^#/.test(decoded)) return decoded;
  return null;
};

const hrefOf = (attributes: string): string | null => {
  const match = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3] ?? '') : null;
};

export function sanitizeHtml(html: string): string {
  const input = html.replace(DROPPED_WITH_CONTENT, '');
  let out = '';
  for (const [token] of input.matchAll(TOKEN)) {
    if (token.startsWith('<!--')) continue;
    const tag = /^<(\/?)([A-Za-z][A-Za-z0-9]*)([^>]*)>$/.exec(token);
    if (!tag) {
      out += escapeText(token);
      continue;
    }
    const [, closing, rawName, attributes] = tag;
    const name = (rawName as string).toLowerCase();
    if (!ALLOWED_TAGS.has(name)) continue;
    if (closing) {
      if (!VOID_TAGS.has(name)) out += `</${name}>`;
      continue;
    }
    if (name === 'a') {
      const href = hrefOf(attributes ?? '');
      const safe = href === null ? null : safeHref(href);
      out +=
        safe === null
          ? '<a>'
          : `<a href="${escapeAttribute(safe)}"${/^https?:/i.test(safe) ? ' rel="noopener noreferrer"' : ''}>`;
      continue;
    }
    out += `<${name}>`;
  }
  return out;
}
