/**
 * What the search index holds for a site: one document per product, page (password-protected ones left out) and
 * blog post that has a page of its own, with its path, its shown texts and their folded words (src/core/search.ts
 * `indexText`). Pure: the import and the migration that indexes existing sites both build their rows here.
 */
import { liveFrom, type Publication } from '../../core/publishing';
import { indexText } from '../../core/search';
import type { Collection, Page, Post, Product } from '../site';

export type SearchKind = 'product' | 'page' | 'post';

/** What the documents are built from (a site file's records, or the same read back from the database). */
export interface SearchableContent {
  collections: readonly Pick<Collection, 'id' | 'type' | 'slug'>[];
  products: readonly (Pick<Product, 'id' | 'collectionId' | 'slug' | 'name'> &
    Publication & {
      description?: string;
      tags?: readonly string[];
      variants?: readonly { attributes?: Readonly<Record<string, string>> }[];
    })[];
  pages: readonly (Pick<Page, 'id' | 'path' | 'title' | 'blocks'> & Publication & { password?: string | undefined })[];
  posts: readonly (Pick<Post, 'id' | 'collectionId' | 'slug' | 'title'> &
    Publication & {
      excerpt?: string;
      body?: string;
      tags?: readonly string[];
      categories?: readonly string[];
    })[];
}

/** One row of `search_documents` (without its id and site). */
export interface SearchDocument {
  kind: SearchKind;
  item_id: string;
  path: string;
  title: string;
  details: string;
  summary: string;
  position: number;
  title_terms: string;
  detail_terms: string;
  summary_terms: string;
  /** From when the thing is on the storefront (src/core/publishing.ts `liveFrom`): the search shows it from then. */
  live_from: string | null;
}

const unique = (values: readonly string[]): string[] => [...new Set(values.map((v) => v.trim()).filter(Boolean))];

export function searchDocuments(content: SearchableContent): SearchDocument[] {
  const collections = new Map(content.collections.map((c) => [c.id, c]));
  const documents: Omit<SearchDocument, 'position' | 'title_terms' | 'detail_terms' | 'summary_terms'>[] = [];
  for (const product of content.products) {
    const collection = collections.get(product.collectionId);
    if (collection?.type !== 'products') continue;
    const values = (product.variants ?? []).flatMap((v) => Object.values(v.attributes ?? {}));
    documents.push({
      kind: 'product',
      item_id: product.id,
      path: `/${collection.slug}/p/${product.slug}`,
      title: product.name,
      details: unique([...(product.tags ?? []), ...values]).join(', '),
      summary: product.description ?? '',
      live_from: liveFrom(product),
    });
  }
  for (const page of content.pages) {
    // A password-protected page is not searchable at all: its text must not reach anyone without the password, and
    // its title alone would lead nowhere but to its lock screen.
    if (page.password !== undefined) continue;
    const headings: string[] = [];
    const texts: string[] = [];
    for (const block of page.blocks) {
      if (block.type === 'heading') headings.push(block.text);
      else if (block.type === 'text') texts.push(block.text);
    }
    documents.push({
      kind: 'page',
      item_id: page.id,
      path: page.path,
      title: page.title,
      details: unique(headings).join(' · '),
      summary: texts.join('\n\n'),
      live_from: liveFrom(page),
    });
  }
  for (const post of content.posts) {
    const collection = collections.get(post.collectionId);
    if (collection?.type !== 'blog') continue;
    documents.push({
      kind: 'post',
      item_id: post.id,
      path: `/${collection.slug}/${post.slug}`,
      title: post.title,
      details: unique([...(post.tags ?? []), ...(post.categories ?? [])]).join(', '),
      summary: [post.excerpt ?? '', post.body ?? ''].filter((t) => t.trim() !== '').join('\n\n'),
      live_from: liveFrom(post),
    });
  }
  return documents.map((d, position) => ({
    ...d,
    position,
    title_terms: indexText(d.title),
    detail_terms: indexText(d.details),
    summary_terms: indexText(d.summary),
  }));
}
