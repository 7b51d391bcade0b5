/**
 * A new collection (issue 26: "Collections and pages: create, rename, reorder…"): a shop (products) or a blog at its
 * own URL, at the end of the collections (the navigation lists them in that order when the design has no menu). Saved
 * by `editSite` as a new version with its audit entry; renaming and moving are ./pageEdits.ts's.
 */
import type { Kysely } from 'kysely';
import { checkPagePath } from '../../core/pageEditor';
import { err, ok, type Result } from '../../core/result';
import { freeSlug, slugOf } from '../../core/slug';
import type { Database } from '../../platform/db/tables';
import type { EditFailure } from './edit';
import { save, type EditBy } from './pageEdits';
import type { Collection } from './schema';

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
