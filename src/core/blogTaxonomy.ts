/**
 * Categories and tags of blog posts (spec §3 content item extras: categories, tags): each has a list page at
 * /{blog}/category/{slug} and /{blog}/tag/{slug}. Site files write them as words ('Brewing guides'); the address uses
 * their slug, and a post is on a list when one of its words has that slug.
 */

export type TaxonomyKind = 'category' | 'tag';

/** Posts per page of a category or tag list. */
export const TAXONOMY_PAGE_SIZE = 10;

/** 'Brewing Guides' → 'brewing-guides', 'Café' → 'cafe'; '' when nothing of it can be written in an address. */
export function taxonomySlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

/** The list page of a category or tag of the blog at /{collectionSlug}. */
export const taxonomyPath = (collectionSlug: string, kind: TaxonomyKind, name: string): string =>
  `/${collectionSlug}/${kind}/${encodeURIComponent(taxonomySlug(name))}`;

/** The words of `names` whose slug is `slug` (the first one names the list page), or undefined. */
export const taxonomyName = (names: readonly string[], slug: string): string | undefined =>
  names.find((n) => taxonomySlug(n) === slug);
