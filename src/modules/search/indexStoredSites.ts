/**
 * The follow-up of migration 010 (which makes the search's tables and nothing else): the sites stored before the
 * search existed are indexed from their rows, with today's rules, by the code every import uses (./indexSite.ts).
 * The composition passes it to `migrateToLatest` (src/cli/run.ts, the tests' databases).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { MigrationFollowUps } from '../../platform/db/migrations';
import type { SearchableContent } from './documents';
import { indexSite } from './indexSite';

/** Indexes every stored site (each in its own transaction). */
export async function indexStoredSites(db: Kysely<Database>): Promise<void> {
  const sites = await db.selectFrom('sites').select('id').execute();
  for (const { id } of sites) {
    await db.transaction().execute(async (trx) => {
      await indexSite(trx, id, await storedContent(trx, id));
    });
  }
}

/** What the search module does after a migration of its own has been applied. */
export const searchFollowUps: MigrationFollowUps = { '010_search': indexStoredSites };

/** A stored site's searchable records, read from the rows' JSON as migration 001 laid them out. */
async function storedContent(db: Kysely<Database>, siteId: string): Promise<SearchableContent> {
  const json = (rows: { data: string }[]) => rows.map((r) => JSON.parse(r.data) as Record<string, unknown>);
  const [collections, products, variants, pages, posts] = await Promise.all([
    db.selectFrom('collections').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('products').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db
      .selectFrom('variants')
      .select(['product_id', 'data'])
      .where('site_id', '=', siteId)
      .orderBy('product_id')
      .orderBy('position')
      .execute(),
    db.selectFrom('pages').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('posts').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
  ]);
  const attributes = new Map<string, { attributes: Record<string, string> }[]>();
  for (const v of variants) {
    attributes.set(v.product_id, [
      ...(attributes.get(v.product_id) ?? []),
      { attributes: JSON.parse(v.data) as Record<string, string> },
    ]);
  }
  return {
    collections: json(collections) as unknown as SearchableContent['collections'],
    products: json(products).map((p) => ({
      ...p,
      variants: attributes.get(p.id as string) ?? [],
    })) as unknown as SearchableContent['products'],
    pages: json(pages) as unknown as SearchableContent['pages'],
    posts: json(posts) as unknown as SearchableContent['posts'],
  };
}
