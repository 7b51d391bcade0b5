/**
 * The list pages of a blog's categories and tags (./blogCategory.tsx, ./blogTag.tsx): /{blog}/{kind}/{slug}, then
 * /{blog}/{kind}/{slug}/page/{n}. A post is on the list when one of its categories (tags) has that slug; a tag's list
 * also holds the posts whose text carries it as a #hashtag, so every hashtag link lands on a list with its post.
 */
import { taxonomyName, taxonomySlug, TAXONOMY_PAGE_SIZE, type TaxonomyKind } from '../../core/blogTaxonomy';
import { pageSlice, parsePageNumber } from '../../core/paging';
import { splitHashtags } from '../../core/social';
import * as catalog from '../../modules/catalog';
import type { Collection, Post } from '../../modules/site';
import { collectionPath, type PageRequest } from '../pageKind';
import type { SiteData } from '../siteData';

export interface TaxonomyMatch {
  collection: Collection;
  slug: string;
  page: number;
}

/** The blog, slug and page of /{blog}/{kind}/{slug}[/page/{n}]; undefined: another kind's path. */
export function matchTaxonomyPath(kind: TaxonomyKind, path: string, data: SiteData): TaxonomyMatch | undefined {
  const at = collectionPath(path, data);
  if (!at || at.collection.type !== 'blog' || at.second !== kind || !at.third) return undefined;
  let slug: string;
  try {
    slug = decodeURIComponent(at.third);
  } catch {
    return undefined;
  }
  if (slug === '' || taxonomySlug(slug) !== slug) return undefined;
  if (at.extra.length === 0) return { collection: at.collection, slug, page: 1 };
  const page = at.extra.length === 2 && at.extra[0] === 'page' ? parsePageNumber(at.extra[1]) : undefined;
  return page === undefined ? undefined : { collection: at.collection, slug, page };
}

const hashtagsOf = (post: Post): string[] =>
  splitHashtags(post.body).flatMap((part) => ('hashtag' in part ? [part.hashtag.slice(1)] : []));

/** The page's posts and the category's (tag's) name; undefined: no post has it, or the page is past the end. */
export async function loadTaxonomyPage({ db, site, liveAt }: PageRequest, kind: TaxonomyKind, match: TaxonomyMatch) {
  const posts = await catalog.listPosts(db, site.id, match.collection.id, undefined, liveAt);
  const namesOf = (post: Post) => (kind === 'category' ? post.categories : [...post.tags, ...hashtagsOf(post)]);
  const listed = posts.filter((post) => taxonomyName(namesOf(post), match.slug) !== undefined);
  const first = listed[0];
  const paging = pageSlice(listed.length, TAXONOMY_PAGE_SIZE, match.page);
  if (!first || !paging) return undefined;
  return {
    collection: match.collection,
    name: taxonomyName(namesOf(first), match.slug)!,
    basePath: `/${match.collection.slug}/${kind}/${encodeURIComponent(match.slug)}`,
    posts: listed.slice(paging.offset, paging.offset + paging.limit),
    paging,
  };
}
