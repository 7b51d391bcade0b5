/**
 * The headers of a page answer, written once for both ways a page is sent: through Fastify (./routes/pages.tsx) and
 * straight from the page cache before Fastify (./pageFastPath.ts). A test holds the two to the same headers.
 */
import type { ContentCoding } from '../../render/contentCoding';
import type { Representation } from '../../render/pageCache';
import { SECURITY_HEADERS } from './securityHeaders';

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
/** Browsers and proxies may keep a page but must ask again (cheaply, by ETag) before showing it. */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** A page holding the visitor's crumb (a form's hidden field): kept by that browser only. */
export const VISITOR_PAGE_CACHE_CONTROL = 'private, max-age=0, must-revalidate';
/** A password-protected page's lock screen or content (src/server/routes/pages.tsx): this visitor's, kept by no one. */
export const PROTECTED_PAGE_CACHE_CONTROL = 'private, no-store';
/** The site's not-found page: never kept without asking again. */
export const NOT_FOUND_CACHE_CONTROL = 'no-cache';

/** The 406 answer's text: an Accept-Encoding that refuses every coding a page is kept in. */
export const NOT_ACCEPTABLE_MESSAGE =
  'This page is sent compressed with br or gzip, or uncompressed (identity), and the Accept-Encoding header refuses all three.';

export type PageHeaders = [name: string, value: string][];

export interface PageAnswerShape {
  cacheControl: string;
  contentSecurityPolicy: string;
  /** A not-found page has no validator: it is never revalidated. */
  withEtag: boolean;
}

/**
 * The headers of a 200 (or 404) page answer in this representation, but the security headers every answer gets
 * (./securityHeaders, set by the app's onSend hook) and Content-Length (Fastify sets it from the bytes).
 */
export function pageHeaders(representation: Representation, shape: PageAnswerShape): PageHeaders {
  return [
    ['content-type', HTML_CONTENT_TYPE],
    ...contentEncoding(representation.coding),
    ...notModifiedHeaders(representation.etag, shape),
  ];
}

/** What a 304 repeats of the 200 it stands for (RFC 9110 §15.4.5): its validator, caching and policy headers. */
export function notModifiedHeaders(etag: string, shape: PageAnswerShape): PageHeaders {
  return [
    ...(shape.withEtag ? [['etag', etag] as [string, string]] : []),
    ['cache-control', shape.cacheControl],
    // One address, several representations (br, gzip, none): caches must key them by Accept-Encoding.
    ['vary', 'accept-encoding'],
    ['content-security-policy', shape.contentSecurityPolicy],
  ];
}

const contentEncoding = (coding: ContentCoding): PageHeaders =>
  coding === 'identity' ? [] : [['content-encoding', coding]];

/** The whole header lists of a cached page's answers, flat (name, value, …), as `ServerResponse.writeHead` takes them. */
export interface RawPageHeaders {
  ok: readonly string[];
  notModified: readonly string[];
}

/** Every header of a 200 and of a 304 in this representation, security headers and Content-Length included. */
export function rawPageHeaders(representation: Representation, shape: PageAnswerShape): RawPageHeaders {
  const security = SECURITY_HEADERS.flat();
  return {
    ok: [...pageHeaders(representation, shape).flat(), 'content-length', String(representation.length), ...security],
    notModified: [...notModifiedHeaders(representation.etag, shape).flat(), ...security],
  };
}
