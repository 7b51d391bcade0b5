/**
 * Social links (spec §7 generated links: 'social profile and hashtag links built from text'): the shop's profiles on
 * the social networks, shown in every page's footer under an accessible name, and the #hashtags of post text linked
 * to the blog's tag page of the same word.
 */
import { taxonomySlug } from './blogTaxonomy';

export const SOCIAL_NETWORKS = [
  'instagram',
  'facebook',
  'x',
  'tiktok',
  'youtube',
  'pinterest',
  'linkedin',
  'mastodon',
  'threads',
  'bluesky',
  'vimeo',
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export const SOCIAL_NETWORK_NAMES: Readonly<Record<SocialNetwork, string>> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  x: 'X',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  pinterest: 'Pinterest',
  linkedin: 'LinkedIn',
  mastodon: 'Mastodon',
  threads: 'Threads',
  bluesky: 'Bluesky',
  vimeo: 'Vimeo',
};

/** The link's accessible name: 'Vitrine Demo Store on Instagram'. */
export const socialProfileLabel = (shopTitle: string, network: SocialNetwork): string =>
  `${shopTitle} on ${SOCIAL_NETWORK_NAMES[network]}`;

export type TextPart = { text: string } | { hashtag: string; slug: string };

/**
 * A #hashtag: '#' after a start, space or punctuation (not inside a word, an address's fragment or an entity like
 * &#39;), then letters, digits or underscores with at least one letter, up to 60 of them.
 */
const HASHTAG = /(^|[^\p{L}\p{N}_&/#])#([\p{L}\p{N}_]{1,60})(?![\p{L}\p{N}_])/gu;

/** `text` split into plain text and hashtags (in order, nothing lost: joining the parts gives the text back). */
export function splitHashtags(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(HASHTAG)) {
    const word = match[2]!;
    const slug = taxonomySlug(word);
    if (!/\p{L}/u.test(word) || slug === '') continue;
    const start = match.index + match[1]!.length;
    if (start > at) parts.push({ text: text.slice(at, start) });
    parts.push({ hashtag: `#${word}`, slug });
    at = start + word.length + 1;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
