/**
 * Share links of blog posts (spec §3 website settings: shareButtonOptions): plain links to each network's own share
 * page, built from the post's address. No network's script is loaded and nothing is sent anywhere until the visitor
 * follows a link.
 */

export const SHARE_NETWORKS = ['facebook', 'x', 'linkedin', 'pinterest', 'email'] as const;
export type ShareNetwork = (typeof SHARE_NETWORKS)[number];

/** The networks offered when the site file names none. */
export const DEFAULT_SHARE_NETWORKS: readonly ShareNetwork[] = ['facebook', 'x', 'linkedin', 'email'];

export const SHARE_LABELS: Readonly<Record<ShareNetwork, string>> = {
  facebook: 'Share on Facebook',
  x: 'Share on X',
  linkedin: 'Share on LinkedIn',
  pinterest: 'Share on Pinterest',
  email: 'Share by email',
};

export interface ShareLink {
  network: ShareNetwork;
  label: string;
  href: string;
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

const SHARE_URLS: Readonly<Record<ShareNetwork, (url: string, title: string) => string>> = {
  facebook: (url) => `https://www.facebook.com/sharer/sharer.php?${query({ u: url })}`,
  x: (url, title) => `https://x.com/intent/post?${query({ url, text: title })}`,
  linkedin: (url) => `https://www.linkedin.com/sharing/share-offsite/?${query({ url })}`,
  pinterest: (url, title) => `https://www.pinterest.com/pin/create/button/?${query({ url, description: title })}`,
  // mailto wants %20, not '+', for spaces.
  email: (url, title) => `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(url)}`,
};

/** The share links of the page at absolute `url` titled `title`, for each network in order (each once). */
export function shareLinks(
  url: string,
  title: string,
  networks: readonly ShareNetwork[] = DEFAULT_SHARE_NETWORKS,
): ShareLink[] {
  return [...new Set(networks)].map((network) => ({
    network,
    label: SHARE_LABELS[network],
    href: SHARE_URLS[network](url, title),
  }));
}
