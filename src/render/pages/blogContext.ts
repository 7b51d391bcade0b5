/** What a blog's pages show besides the posts (src/ui/BlogPostParts.tsx BlogContext), from the site's settings. */
import { DEFAULT_SHARE_NETWORKS } from '../../core/share';
import type { Site } from '../../modules/site';
import type { BlogContext } from '../../ui/BlogPostParts';

/** The site's own origin from its first domain ('http' for local names), or '' without one (as its canonical links). */
export function siteOrigin(site: Pick<Site, 'domains'>): string {
  const domain = site.domains[0];
  if (!domain) return '';
  const local = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)(:\d+)?$/.test(domain);
  return `${local ? 'http' : 'https'}://${domain}`;
}

export function blogContext(site: Site, collectionSlug: string): BlogContext {
  const { settings } = site;
  return {
    siteId: site.id,
    collectionSlug,
    locale: settings.locale,
    timeZone: settings.timeZone,
    // Sites imported before these settings existed have none: comments on, likes off, the default share links.
    commentsEnabled: settings.comments?.commentsEnabled !== false,
    likesEnabled: settings.comments?.simpleLikingEnabled === true,
    shareNetworks: settings.social?.shareButtonOptions ?? DEFAULT_SHARE_NETWORKS,
    origin: siteOrigin(site),
  };
}
