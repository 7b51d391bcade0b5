/**
 * A new collection and a collection's delete (issue 26: "Collections and pages: create, rename, reorder…"): a shop
 * (products) or a blog at its own URL, at the end of the collections (the navigation lists them in that order when the
 * design has no menu); deleted when it holds nothing and no page's block shows it, with its place in the design's
 * menu. Saved by `editSite` as a new version with its audit entry; renaming and moving are ./pageEdits.ts's.
 */
import type { Kysely } from 'kysely';
import { checkPagePath } from '../../core/pageEditor';
import { err, ok, type Result } from '../../core/result';
import { freeSlug, slugOf } from '../../core/slug';
import type { Database } from '../../platform/db/tables';
import type { EditFailure } from './edit';
import { save, type EditBy } from './pageEdits';
import type { Collection, Page, SiteFile } from './schema';

/** The kinds of collection the editor creates, with the words it shows. */
export const COLLECTION_KINDS = { products: 'Shop (products)', blog: 'Blog (posts)' } as const;
export type CollectionKind = keyof typeof COLLECTION_KINDS;

/** Refused: a URL that is more than one part ('/shop/new'): a collection is one address with its items under it. */
export const ONE_PART_URL = 'A collection’s URL is one part, like /journal';

/**
 * Creates a collection of `kind` called `title` at `/{slug}` (`slug` as typed: '' makes one from the title). Its URL is
 * checked as a page's (the spec's '{val} is not a valid page URL', 'This page URL already exists': no page, collection
 * or store address may have it).
 */
export async function createCollection(
  db: Kysely<Database>,
  by: EditBy,
  input: { title: string; kind: CollectionKind; slug: string },
): Promise<Result<{ version: number; collection: Collection }, EditFailure>> {
  let made: Collection | undefined;
  const saved = await save(
    db,
    by,
    [{ kind: 'order', of: 'collection' }],
    (content) => {
      const site = content.site;
      const typed = input.slug.trim() === '' ? `/${slugOf(input.title, 'collection')}` : input.slug;
      const path = checkPagePath(typed, {
        pages: site.pages.map((p) => p.path),
        collections: site.collections.map((c) => c.slug),
      });
      if (!path.ok) return err(path.message);
      const slug = path.path.slice(1);
      if (slug === '' || slug.includes('/')) return err(ONE_PART_URL);
      // A page under the new address would be hidden by it ('/journal/about' when the collection is /journal).
      if (site.pages.some((p) => p.path.startsWith(`/${slug}/`))) return err('This page URL already exists');
      made = {
        id: freeSlug(slug, new Set(site.collections.map((c) => c.id))),
        type: input.kind,
        title: input.title.trim(),
        slug,
      };
      site.collections.push(made);
      return ok(content);
    },
    () => ({
      action: 'collection.create',
      subject: { type: 'collection', id: made!.id },
      summary: `Created the ${input.kind === 'blog' ? 'blog' : 'shop'} “${made!.title}” at /${made!.slug}`,
      after: made,
    }),
  );
  return saved.ok ? ok({ version: saved.value.version, collection: made! }) : saved;
}

// ---------------------------------------------------------------- deleting a collection

/** How the owner calls a collection of a kind: 'shop', 'blog' (a plain page collection: 'collection'). */
export const collectionWord = (collection: Pick<Collection, 'type'>): string =>
  collection.type === 'products' ? 'shop' : collection.type === 'blog' ? 'blog' : 'collection';

/** What of the site a collection's delete looks at: its pages, its products and posts by collection, the menu. */
export interface CollectionSite {
  pages: readonly Pick<Page, 'id' | 'title' | 'path' | 'blocks'>[];
  products: readonly { id: string; collectionId: string; name: string }[];
  posts: readonly { id: string; collectionId: string; title: string }[];
  /** The design's menu (ids of pages and collections), undefined when the design sets none. */
  menu: readonly string[] | undefined;
}

/** What a collection holds and where it is shown. */
export interface CollectionUse {
  /** Its products (a shop) or posts (a blog), in the site's order. */
  items: { id: string; name: string }[];
  /** The pages whose product grid (a shop) or blog posts block (a blog) shows it. */
  shownBy: { id: string; title: string; path: string }[];
  /** In the header: 'menu' (the design's menu names it), 'navigation' (no menu: every shop and blog), or 'none'. */
  header: 'menu' | 'navigation' | 'none';
}

/** What `collection` holds and where `site` shows it. */
export function collectionUse(site: CollectionSite, collection: Collection): CollectionUse {
  const { id } = collection;
  const items =
    collection.type === 'products'
      ? site.products.filter((p) => p.collectionId === id).map((p) => ({ id: p.id, name: p.name }))
      : collection.type === 'blog'
        ? site.posts.filter((p) => p.collectionId === id).map((p) => ({ id: p.id, name: p.title }))
        : [];
  const shownBy = site.pages
    .filter((page) =>
      page.blocks.some((b) => (b.type === 'productGrid' || b.type === 'posts') && b.collectionId === id),
    )
    .map((page) => ({ id: page.id, title: page.title, path: page.path }));
  const header =
    collection.type === 'page'
      ? 'none'
      : site.menu === undefined
        ? 'navigation'
        : site.menu.includes(id) && !site.pages.some((p) => p.id === id)
          ? 'menu'
          : 'none';
  return { items, shownBy, header };
}

/** `n` things, singular for one: '1 product', '3 posts'. */
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** 'page “Home”', 'pages “Home” and “Sale”', 'pages “A”, “B” and “C”'. */
function pagesNamed(pages: readonly { title: string }[]): string {
  const names = pages.map((p) => `“${p.title}”`);
  if (names.length === 1) return `the page ${names[0]}`;
  return `the pages ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Why `collection` may not be deleted, or null: it still holds products or posts ('This shop still holds 3 products:
 * move or delete them first.'), or a page's product grid or blog posts block shows it (those pages named). Both
 * sentences when both hold.
 */
export function collectionDeleteRefusal(collection: Collection, use: CollectionUse): string | null {
  const word = collectionWord(collection);
  const sentences: string[] = [];
  if (use.items.length) {
    const n = use.items.length;
    sentences.push(
      `This ${word} still holds ${count(n, collection.type === 'blog' ? 'post' : 'product')}: move or delete ${n === 1 ? 'it' : 'them'} first.`,
    );
  }
  if (use.shownBy.length) {
    const block = collection.type === 'blog' ? 'blog posts block' : 'product grid';
    const several = use.shownBy.length > 1;
    sentences.push(
      `This ${word} is shown by ${several ? `${block}s` : `a ${block}`} on ${pagesNamed(use.shownBy)}: remove ${several ? 'them' : 'it'} there first.`,
    );
  }
  return sentences.length ? sentences.join(' ') : null;
}

/**
 * The stored collection `id` with what it holds and where it is shown, and the version read (for its delete page);
 * undefined when the site has no such collection.
 */
export async function readCollectionUse(
  db: Kysely<Database>,
  siteId: string,
  id: string,
): Promise<{ version: number; collection: Collection; use: CollectionUse } | undefined> {
  // The version first, as edit.ts reads it: the rows read after are at least that version.
  const row = await db.selectFrom('sites').select(['version', 'settings']).where('id', '=', siteId).executeTakeFirst();
  if (!row) return undefined;
  const [collection, pages, products, posts] = await Promise.all([
    db.selectFrom('collections').select('data').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst(),
    db.selectFrom('pages').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db
      .selectFrom('products')
      .select(['id', 'data'])
      .where('site_id', '=', siteId)
      .where('collection_id', '=', id)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('posts')
      .select(['id', 'data'])
      .where('site_id', '=', siteId)
      .where('collection_id', '=', id)
      .orderBy('position')
      .execute(),
  ]);
  if (!collection) return undefined;
  const stored = JSON.parse(collection.data) as Collection;
  const website = JSON.parse(row.settings) as SiteFile['website'];
  const site: CollectionSite = {
    pages: pages.map((r) => JSON.parse(r.data) as Page),
    products: products.map((r) => ({
      id: r.id,
      collectionId: id,
      name: (JSON.parse(r.data) as { name: string }).name,
    })),
    posts: posts.map((r) => ({ id: r.id, collectionId: id, title: (JSON.parse(r.data) as { title: string }).title })),
    menu: website.design?.menu,
  };
  return { version: row.version, collection: stored, use: collectionUse(site, stored) };
}

/** The parts of a site file a collection's delete looks at. */
export const collectionSiteOf = (site: SiteFile): CollectionSite => ({
  pages: site.pages,
  products: site.products,
  posts: site.posts,
  menu: site.website.design?.menu,
});

/**
 * Deletes collection `id` when it holds nothing and no page's block shows it (`collectionDeleteRefusal`, checked
 * against the site as stored at the save), and its link in the design's menu, in the same version. Links in text or
 * image blocks to its URL are not checked (as after a page's delete): they lead to a 404.
 */
export async function deleteCollection(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
): Promise<Result<{ version: number; collection: Collection }, EditFailure>> {
  let gone: Collection | undefined;
  const saved = await save(
    db,
    by,
    [
      { kind: 'collection', id },
      { kind: 'order', of: 'collection' },
    ],
    (content) => {
      const site = content.site;
      const index = site.collections.findIndex((c) => c.id === id);
      if (index < 0) return err(`There is no collection '${id}' on this site.`);
      const collection = site.collections[index]!;
      const refused = collectionDeleteRefusal(collection, collectionUse(collectionSiteOf(site), collection));
      if (refused !== null) return err(refused);
      [gone] = site.collections.splice(index, 1);
      const design = site.website.design;
      // The menu's entry is the collection's unless a page has its id (the page's then: src/render/siteData.ts).
      if (design?.menu && !site.pages.some((p) => p.id === id))
        design.menu = design.menu.filter((entry) => entry !== id);
      return ok(content);
    },
    () => ({
      action: 'collection.delete',
      subject: { type: 'collection', id },
      summary: `Deleted the ${collectionWord(gone!)} “${gone!.title}” at /${gone!.slug}`,
      before: gone,
    }),
  );
  return saved.ok ? ok({ version: saved.value.version, collection: gone! }) : saved;
}
