/**
 * The Content-Security-Policy of pages (issue 12 item 7): scripts, styles, images, fonts and calls from this site
 * only; no inline script, no inline event handler, no plugin, no <base>, framed only by the site itself, forms posted
 * to the site only.
 *
 * Pages carry no inline script (island props live in data attributes; the bundle is a file). The one inline style
 * is an image's focal point (`style="object-position:…"`, src/ui/ResponsiveImage.tsx): each value a page uses is
 * allowed by its hash ('unsafe-hashes' admits hashed style attributes, nothing else), so the policy is made with
 * the page and cached with it. Styles a script sets through the CSSOM (element.style) are not restricted by CSP.
 */
import { createHash } from 'node:crypto';

const FIXED = [
  "default-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
];

/** The policy of a page without inline styles, and of every answer that is not a page. */
export const BASE_CONTENT_SECURITY_POLICY = [...FIXED, "style-src 'self'"].join('; ');

/** A style attribute as written by React (double-quoted, &-escaped). */
const STYLE_ATTRIBUTE = /\sstyle="([^"]*)"/g;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const decode = (text: string) => text.replace(/&(?:amp|quot|#x27|#39|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);

/** The policy for this page's HTML: the base one, plus the hash of each distinct style attribute value in it. */
export function contentSecurityPolicyFor(html: string): string {
  const hashes = new Set<string>();
  for (const match of html.matchAll(STYLE_ATTRIBUTE)) {
    hashes.add(`'sha256-${createHash('sha256').update(decode(match[1]!)).digest('base64')}'`);
  }
  if (hashes.size === 0) return BASE_CONTENT_SECURITY_POLICY;
  return [...FIXED, `style-src 'self' 'unsafe-hashes' ${[...hashes].join(' ')}`].join('; ');
}
