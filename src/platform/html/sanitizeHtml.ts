/**
 * Rich text from a site file (a form's `submissionHtml`) as safe HTML, by sanitize-html (htmlparser2 parses it, the
 * allow-list below keeps what may be shown, the rest is written out again escaped). Server only: the library and its
 * parsers are no part of the browser bundle, so the server sanitizes once and islands get the clean HTML as a prop
 * (src/ui/FormBlock.tsx), which keeps the server render and the hydrated page identical.
 *
 * The allow-list: text tags, lists and links; no attribute but a link's href (http, https, mailto, tel, a path of this
 * site or a #fragment; http(s) links get rel="noopener noreferrer"); every other tag is dropped with its text kept,
 * except the tags below whose contents are never text to show (scripts, styles, SVG, MathML, frames …), dropped whole;
 * comments and CDATA dropped. The result carries no script, no event handler and no style, so it also passes the
 * pages' Content-Security-Policy.
 */
import sanitize from 'sanitize-html';

const ALLOWED_TAGS = [
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
];

/** Dropped with everything inside them: what they hold is code, a document of its own, or hidden text. */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'noscript',
  'noembed',
  'noframes',
  'textarea',
  'select',
  'option',
  'title',
  'xmp',
  'plaintext',
  'svg',
  'math',
];

/**
 * A link target that cannot run script or leave for another scheme: http(s), mailto, tel, a path of this site (one
 * `/`, not `//` or `/\`) or a #fragment; null for anything else. `href` is the attribute's value as the browser reads
 * it (entities already decoded by the parser); control characters are removed first (browsers skip tabs and newlines
 * inside a URL, and a scheme hidden by them must not pass), so what is judged is what is written out.
 */
export const safeHref = (href: string): string | null => {
  const url = href.replace(/\p{Cc}/gu, '').trim();
  if (/^(?:https?:|mailto:|tel:)/i.test(url)) return url;
  if (/^\/(?![/\\])/.test(url) || url.startsWith('#')) return url;
  return null;
};

const OPTIONS: sanitize.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  allowedClasses: {},
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  selfClosing: ['br'],
  parseStyleAttributes: false,
  transformTags: {
    // A link keeps only its href, when safe; rel is always ours, never the file's.
    a: (tagName, attribs): sanitize.Tag => {
      const href = attribs.href === undefined ? null : safeHref(attribs.href);
      const kept: sanitize.Attributes = {};
      if (href !== null) kept.href = href;
      if (href !== null && /^https?:/i.test(href)) kept.rel = 'noopener noreferrer';
      return { tagName, attribs: kept };
    },
  },
};

/**
 * The last results, by input: a site's few rich texts are rendered again and again (the promo popup's form is on every
 * page), and parsing one costs tens of microseconds where a lookup costs nothing. Bounded; the oldest goes first.
 */
const RESULTS_KEPT = 64;
const results = new Map<string, string>();

/** `html` reduced to the allow-list above: safe to put into a page as it is. */
export function sanitizeHtml(html: string): string {
  const kept = results.get(html);
  if (kept !== undefined) return kept;
  const clean = sanitize(html, OPTIONS);
  if (results.size >= RESULTS_KEPT) results.delete(results.keys().next().value as string);
  results.set(html, clean);
  return clean;
}
