/**
 * Cached pages are the same for every visitor, but a form block's hidden crumb field (for a post without JavaScript)
 * must hold the visitor's crumb: the page is cached with CRUMB_PLACEHOLDER, replaced when it is sent.
 */
import { createHash } from 'node:crypto';
import type { RenderedPage } from '../../render/pageCache';
import { CRUMB_PLACEHOLDER } from '../../ui/formPost';

export function withVisitorCrumb(page: RenderedPage, crumb: () => string): RenderedPage {
  if (!page.html.includes(CRUMB_PLACEHOLDER)) return page;
  const visitorCrumb = crumb();
  const tag = createHash('sha256').update(visitorCrumb).digest('base64url').slice(0, 10);
  return { ...page, html: page.html.replaceAll(CRUMB_PLACEHOLDER, visitorCrumb), etag: page.etag.replace(/"$/, `-${tag}"`) };
}
