/**
 * The Content-Security-Policy of pages (issue 12 item 7): scripts, styles, images, fonts and calls from this site
 * only; no inline script, no inline event handler, no plugin, no <base>, framed only by the site itself, forms posted
 * to the site only.
 *
 * Pages carry no inline script (island props live in data attributes; the bundle is a file). The one inline style
 * is an image's focal point (`style="object-position:…"`, src/ui/ResponsiveImage.tsx): each value a page uses is
 * allowed by its hash ('unsafe-hashes' admits hashed style attributes, nothing else), so the policy is made with
 * the page and cached with it. Styles a script sets through the CSSOM (element.style) are not restricted by CSP.
 * Likewise the site's design (src/core/design.ts `designCss`: its `--site-…` custom properties, made of hex colours
 * and fixed values only) is one `<style>` element in the page's head, allowed by its hash; a `<style>` element in the
 * body is never hashed (rich text is sanitized, but the policy does not rely on it).
 *
 * One deliberate exception to 'self': the pages of a site whose CAPTCHA is reCAPTCHA Enterprise or Turnstile allow
 * that provider's hosts for scripts, frames and calls (`sources`, from src/core/forms/captcha.ts), and nothing else.
 *
 * Media from other sites is allowed per page, by what the page shows: a video block's player origin as a frame, a
 * product's audio file origin as media. The elements that need them say so in `data-frame-src` / `data-media-src`
 * (src/ui/VideoBlock.tsx, src/ui/ProductAudio.tsx); only a bare https origin is read, and the page's text cannot forge
 * the attribute (React escapes quotes in text and attribute values).
 */
import { createHash } from 'node:crypto';
import { NO_POLICY_SOURCES, type PolicySources } from '../core/forms/captcha';

const withSources = (directive: string, sources: readonly string[]) => [`${directive} 'self'`, ...sources].join(' ');

/** Other sites' origins a page's own elements play from: video players (frames) and audio files (media). */
interface PageMedia {
  frames: string[];
  media: string[];
}
const NO_MEDIA: PageMedia = { frames: [], media: [] };
const MEDIA_ATTRIBUTE = /\sdata-(frame|media)-src="(https:\/\/[a-z0-9.-]+(?::\d{1,5})?)"/g;

function pageMedia(html: string): PageMedia {
  if (!html.includes('data-frame-src=') && !html.includes('data-media-src=')) return NO_MEDIA;
  const frames = new Set<string>();
  const media = new Set<string>();
  for (const [, kind, origin] of html.matchAll(MEDIA_ATTRIBUTE)) (kind === 'frame' ? frames : media).add(origin!);
  return { frames: [...frames], media: [...media] };
}

/** The policy's directives but style-src, with the third-party `sources` a site's CAPTCHA needs. */
function fixedDirectives(sources: PolicySources, media: PageMedia = NO_MEDIA): string[] {
  const frames = [...new Set([...sources.frame, ...media.frames])];
  return [
    "default-src 'self'",
    withSources('script-src', sources.script),
    "img-src 'self' data:",
    "font-src 'self'",
    withSources('connect-src', sources.connect),
    ...(frames.length > 0 ? [withSources('frame-src', frames)] : []),
    ...(media.media.length > 0 ? [withSources('media-src', media.media)] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ];
}

const FIXED = fixedDirectives(NO_POLICY_SOURCES);

/** The policy of a page without inline styles, and of every answer that is not a page. */
export const BASE_CONTENT_SECURITY_POLICY = [...FIXED, "style-src 'self'"].join('; ');

/** The design's style element (src/render/document.ts): its text is hashed as written. */
const STYLE_ELEMENT = /<style>([^<]*)<\/style>/g;
/** A style attribute as written by React (double-quoted, &-escaped). */
const STYLE_ATTRIBUTE = /\sstyle="([^"]*)"/g;
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};
const decode = (text: string) => text.replace(/&(?:amp|quot|#x27|#39|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);

/**
 * The policy for this page's HTML: the base one, plus the hash of each distinct style attribute value in it, plus the
 * hosts of the site's third-party CAPTCHA (`sources`; none by default), plus the origins its videos and audio play from.
 */
export function contentSecurityPolicyFor(html: string, sources: PolicySources = NO_POLICY_SOURCES): string {
  const hashes = new Set<string>();
  const head = html.slice(0, Math.max(0, html.indexOf('</head>')));
  for (const match of head.matchAll(STYLE_ELEMENT)) {
    hashes.add(`'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
  }
  const elementHashes = hashes.size;
  for (const match of html.matchAll(STYLE_ATTRIBUTE)) {
    hashes.add(`'sha256-${createHash('sha256').update(decode(match[1]!)).digest('base64')}'`);
  }
  const media = pageMedia(html);
  const fixed = sources === NO_POLICY_SOURCES && media === NO_MEDIA ? FIXED : fixedDirectives(sources, media);
  if (hashes.size === 0) return [...fixed, "style-src 'self'"].join('; ');
  // 'unsafe-hashes' is needed for style attributes only; a hashed <style> element is allowed without it.
  const unsafeHashes = hashes.size > elementHashes ? " 'unsafe-hashes'" : '';
  return [...fixed, `style-src 'self'${unsafeHashes} ${[...hashes].join(' ')}`].join('; ');
}
