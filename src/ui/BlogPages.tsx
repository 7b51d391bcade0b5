/** The blog's list pages: the blog itself, and the posts of one category or tag (with a pager). */
import type { TaxonomyKind } from '../core/blogTaxonomy';
import type { PageSlice } from '../core/paging';
import type { Collection, Post } from '../modules/site/schema';
import { PostList, type BlogContext } from './Blog';
import { Pager } from './Pager';

export function BlogListPage({
  collection,
  posts,
  context,
}: {
  collection: Collection;
  posts: Post[];
  context: BlogContext;
}) {
  return (
    <>
      <header className="collection-header">
        <h1>{collection.title}</h1>
      </header>
      <PostList
        posts={posts}
        siteId={context.siteId}
        collectionSlug={collection.slug}
        locale={context.locale}
        firstImagePriority="high"
        context={context}
      />
    </>
  );
}

/** '/blog/category/coffee' for page 1, '/blog/category/coffee/page/2' after it. */
export const taxonomyPagePath = (basePath: string, page: number) =>
  page === 1 ? basePath : `${basePath}/page/${page}`;

export function BlogTaxonomyPage({
  collection,
  kind,
  name,
  basePath,
  posts,
  paging,
  context,
}: {
  collection: Collection;
  kind: TaxonomyKind;
  /** The category or tag as the posts write it. */
  name: string;
  /** The list's first page. */
  basePath: string;
  posts: Post[];
  paging: PageSlice;
  context: BlogContext;
}) {
  return (
    <>
      <header className="collection-header">
        <p className="collection-header__kicker">
          <a href={`/${collection.slug}`}>{collection.title}</a>
        </p>
        <h1>{kind === 'category' ? `Category: ${name}` : `Tag: #${name}`}</h1>
        {paging.pageCount > 1 ? (
          <p className="collection-header__page">{`Page ${paging.page} of ${paging.pageCount}`}</p>
        ) : null}
      </header>
      <PostList
        posts={posts}
        siteId={context.siteId}
        collectionSlug={collection.slug}
        locale={context.locale}
        firstImagePriority="high"
        context={context}
      />
      <Pager page={paging.page} pageCount={paging.pageCount} href={(n) => taxonomyPagePath(basePath, n)} />
    </>
  );
}
