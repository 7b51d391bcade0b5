/**
 * Sites in the database: replacing a site's rows from a validated site file (one transaction), reading a site back
 * as a site file, and choosing the site that answers a request's Host.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import type { SiteRow } from './tables';
import {
  siteFileSchema,
  type Collection,
  type Form,
  type Page,
  type Post,
  type Product,
  type SiteFile,
  type Website,
} from './schema';
import { groupBy, productFromRows, storeCatalog } from '../catalog';
import { recordRestocks, type Restocked } from '../restock';
import type { ImportStockChoice, ImportStockPlan, StockLevel } from '../../core/importStock';
import { restockedSkus } from '../../core/restock';
import { indexSite } from '../search';
import { summarizeFirstVersion } from '../../core/siteDiff';
import { liveFrom, upcomingPublishTimes } from '../../core/publishing';
import {
  IMPORT_AUTHOR,
  hasVersions,
  prepareContent,
  recordVersion,
  summarizeSave,
  type SiteVersion,
  type VersionAuthor,
} from './versions';

/** A site as the rest of the app sees it. */
export interface Site {
  id: string;
  title: string;
  domains: string[];
  isDefault: boolean;
  currency: string;
  /** The site file's `website` object. */
  settings: Website;
  /** Bumped on every import; page caches key on it. */
  version: number;
  updatedAt: string;
  /**
   * When scheduled things of this version go live (ms, sorted; absent: none): the storefront's edition (page caches
   * and the version's shared data) changes at each (src/core/publishing.ts `liveEdition`).
   */
  publishTimes?: readonly number[];
}

/** An image shipped with a site file, keyed by its path as written in the file. */
export interface SiteAsset {
  path: string;
  contentType: string;
  width: number;
  height: number;
  bytes: Buffer;
}

/** Raised inside the import transaction when the file conflicts with what is stored (nothing is written). */
export class SiteConflictError extends Error {
  override name = 'SiteConflictError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** A save made from version `expected` found the site at another version (./edit.ts reads again and retries). */
export class SiteChangedMeanwhileError extends Error {
  override name = 'SiteChangedMeanwhileError';
  constructor(
    readonly expected: number,
    readonly found: number | undefined,
  ) {
    super(`The site was saved meanwhile: expected version ${expected}, found ${found ?? 'none'}`);
  }
}

export function siteFromRow(row: SiteRow): Site {
  return {
    id: row.id,
    title: row.title,
    domains: JSON.parse(row.domains) as string[],
    isDefault: row.is_default === 1,
    currency: row.currency,
    settings: JSON.parse(row.settings) as Website,
    version: row.version,
    updatedAt: row.updated_at,
    ...publishTimesOf(row.publish_times),
  };
}

/** The stored upcoming publish times as ms; nothing when there are none (or the column says nothing usable). */
function publishTimesOf(text: string | undefined): { publishTimes?: readonly number[] } {
  if (text === undefined || text === '[]') return {};
  try {
    const times = (JSON.parse(text) as unknown[])
      .map((t) => (typeof t === 'string' ? Date.parse(t) : NaN))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    return times.length ? { publishTimes: times } : {};
  } catch {
    return {};
  }
}

export async function getSite(db: Kysely<Database>, siteId: string): Promise<Site | undefined> {
  const row = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  return row && siteFromRow(row);
}

export async function listSites(db: Kysely<Database>): Promise<Site[]> {
  const rows = await db.selectFrom('sites').selectAll().orderBy('id').execute();
  return rows.map(siteFromRow);
}

/** `Shop.Example.com:3000` → `shop.example.com`; `[::1]:3000` → `::1`. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  return h.replace(/:\d*$/, '');
}

/**
 * The site answering a request's Host header: the site listing that host among its domains (with its port first, then
 * without); otherwise — localhost, 127.0.0.1, an IP, an unknown name — the default site, or when no site is marked
 * default, the site with the smallest id. undefined only when the database holds no site.
 */
export async function findSiteByHost(db: Kysely<Database>, host: string): Promise<Site | undefined> {
  return siteForHost(await listSites(db), host);
}

/** `findSiteByHost` over an already loaded list of sites (ordered by id), for callers that cache the list. */
export function siteForHost(sites: readonly Site[], host: string): Site | undefined {
  const full = host.trim().toLowerCase();
  const name = hostName(host);
  return (
    sites.find((s) => s.domains.includes(full)) ??
    sites.find((s) => s.domains.includes(name)) ??
    sites.find((s) => s.isDefault) ??
    sites[0]
  );
}

// ---------------------------------------------------------------- change notification (in this process)

type SiteChangeListener = (siteId: string) => void;
const siteChangeListeners = new Set<SiteChangeListener>();

/**
 * Calls `listener` with the site id after every committed `replaceSite` in this process (an import), so caches of
 * sites and site data can drop their entries at once. Returns the function that unsubscribes. Other processes learn
 * of an import through Redis when configured (src/modules/site/siteCache.ts), else when their cache entries expire.
 */
export function onSiteChange(listener: SiteChangeListener): () => void {
  siteChangeListeners.add(listener);
  return () => siteChangeListeners.delete(listener);
}

function notifySiteChange(siteId: string): void {
  for (const listener of siteChangeListeners) {
    try {
      listener(siteId);
    } catch {
      // A listener's failure must not turn a committed import into an error.
    }
  }
}

const CHUNK = 200;
/** What an import has done so far, for a long one's progress lines: a step and, while storing rows, how many. */
export type ImportProgress = (step: string, done?: number, total?: number) => void;

export interface ReplaceSiteOptions {
  progress?: ImportProgress;
  /**
   * The stock stored variants (matched by SKU) get: their live stock (the default), the file's for every variant, or
   * the file's for the named SKUs (src/core/importStock.ts). New variants take the file's stock.
   */
  stock?: ImportStockChoice;
  /** Who saves, for the site version this save records (default: 'vitrine import', source 'import'). */
  author?: VersionAuthor;
  /**
   * The site version this save was made from (an edit in /admin, ./edit.ts): when another save came between, nothing
   * is written and SiteChangedMeanwhileError is thrown, checked under the save's write lock.
   */
  expectedVersion?: number;
  /** More work in the save's transaction, after its rows and its version (an admin save's audit entry). */
  alsoInTransaction?: (trx: Kysely<Database>, saved: { site: Site; version: SiteVersion }) => Promise<void>;
}

export interface ReplacedSite {
  site: Site;
  /** Which variants kept their live stock and which took the file's. */
  stock: ImportStockPlan;
  /** The site version this save recorded. */
  version: SiteVersion;
}

async function insertChunks<T extends keyof Database>(
  trx: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
  progress?: ImportProgress,
) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    // (Kysely cannot resolve the row type of a generic table name; `rows` is typed by the signature.)
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
    progress?.(table, Math.min(i + CHUNK, rows.length), rows.length);
  }
}

/**
 * One write transaction for an import. SQLite: BEGIN IMMEDIATE takes the write lock before the first read, so no
 * other process's sale commits between the import's reading of the live stock and its writing (the sale waits, then
 * sells from the kept stock), and the import never fails to turn its read into a write (SQLITE_BUSY). PostgreSQL
 * locks the variant rows when it reads them (the catalog's `storeCatalog`).
 */
async function importTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (engineOf(db) === 'postgres') return db.transaction().execute(work);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}

/**
 * Replaces everything stored for `site.website.id` with the site file's records and images, in one transaction,
 * and bumps the site's version. Carts survive. Marking the site default unmarks the others.
 * Stock is live data: a variant already stored (same SKU) keeps its stock unless `options.stock` asks for the
 * file's; a new variant takes the file's. Products and variants are updated in place (then the ones the file no longer
 * has are deleted), so a sale waiting on a variant row during the import goes through on the kept stock.
 * Throws SiteConflictError (and writes nothing) when a domain already belongs to another site. `options.progress`
 * hears each step (and each chunk of products and variants stored).
 */
export async function replaceSite(
  db: Kysely<Database>,
  site: SiteFile,
  assets: SiteAsset[],
  options: ReplaceSiteOptions = {},
): Promise<ReplacedSite> {
  const { progress } = options;
  const w = site.website;
  // The version's compressed content is made on libuv's threads while the rows are written.
  const prepared = prepareContent(site, assets);
  // So is the comparison with the latest version, for the summary, before the write lock (redone inside when another
  // save came between).
  const early = await summarizeSave(db, w.id, site, prepared);
  const stored = await importTransaction(db, async (trx) => {
    // PostgreSQL: saves of one site take turns from here (SQLite's BEGIN IMMEDIATE already does), so two saves never
    // make the same version number nor compare with a version that is not the one before them.
    const existing = await trx
      .selectFrom('sites')
      .select(['version', 'updated_at'])
      .where('id', '=', w.id)
      .$if(engineOf(db) === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (options.expectedVersion !== undefined && existing?.version !== options.expectedVersion)
      throw new SiteChangedMeanwhileError(options.expectedVersion, existing?.version);
    if (existing && !(await hasVersions(trx, w.id))) await recordStoredState(trx, w.id);
    const others = (await trx.selectFrom('sites').select(['id', 'domains']).where('id', '!=', w.id).execute()).map(
      (r) => ({
        id: r.id,
        domains: JSON.parse(r.domains) as string[],
      }),
    );
    const conflicts = w.domains.flatMap((domain, i) => {
      const owner = others.find((o) => o.domains.includes(domain));
      return owner ? [`website.domains[${i}]: '${domain}' already belongs to site '${owner.id}'`] : [];
    });
    if (conflicts.length) throw new SiteConflictError(conflicts);

    const now = new Date().toISOString();
    const fields = {
      title: w.title,
      domains: JSON.stringify(w.domains),
      is_default: w.default ? (1 as const) : (0 as const),
      currency: w.currency,
      settings: JSON.stringify(w),
      updated_at: now,
      publish_times: JSON.stringify(
        upcomingPublishTimes([...site.pages, ...site.posts, ...site.products], Date.parse(now)),
      ),
    };
    if (existing) {
      await trx
        .updateTable('sites')
        .set({ ...fields, version: existing.version + 1 })
        .where('id', '=', w.id)
        .execute();
    } else {
      await trx
        .insertInto('sites')
        .values({ id: w.id, ...fields, version: 1 })
        .execute();
    }
    if (w.default)
      await trx
        .updateTable('sites')
        .set({ is_default: 0 })
        .where('id', '!=', w.id)
        .where('is_default', '=', 1)
        .execute();

    for (const table of ['forms', 'pages', 'posts', 'assets'] as const) {
      await trx.deleteFrom(table).where('site_id', '=', w.id).execute();
    }
    const site_id = w.id;
    // The catalog's rows (collections, products, variants and their stock) are the catalog's to write.
    const { stockBefore, stock } = await storeCatalog(trx, site_id, site, options.stock, progress);
    await insertChunks(
      trx,
      'forms',
      site.forms.map((f, position) => ({ site_id, id: f.id, position, data: JSON.stringify(f) })),
    );
    await insertChunks(
      trx,
      'pages',
      site.pages.map((p, position) => ({
        site_id,
        id: p.id,
        path: p.path,
        position,
        data: JSON.stringify(p),
        live_from: liveFrom(p),
      })),
    );
    await insertChunks(
      trx,
      'posts',
      site.posts.map((p, position) => ({
        site_id,
        id: p.id,
        collection_id: p.collectionId,
        slug: p.slug,
        position,
        data: JSON.stringify(p),
        live_from: liveFrom(p),
      })),
    );
    // The search index describes exactly this version: same transaction (src/modules/search).
    progress?.('search index');
    await indexSite(trx, site_id, site);
    await recordRestocks(trx, site_id, restockedByImport(stockBefore, stock.levels, site), 'import', new Date(now));
    // Assets one by one: a chunk of images could exceed the engines' statement size.
    if (assets.length > 0) progress?.('images');
    for (const a of assets) {
      await trx
        .insertInto('assets')
        .values({
          site_id,
          path: a.path,
          content_type: a.contentType,
          width: a.width,
          height: a.height,
          bytes: a.bytes,
        })
        .execute();
    }
    const row = await trx.selectFrom('sites').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow();
    const saved = siteFromRow(row);
    progress?.('version');
    const version = await recordVersion(trx, {
      siteId: site_id,
      number: saved.version,
      site,
      assets,
      author: options.author ?? IMPORT_AUTHOR,
      at: now,
      prepared,
      early,
    });
    await options.alsoInTransaction?.(trx, { site: saved, version });
    return { site: saved, stock, version };
  });
  // After the commit: a cache refilled from now on reads the new version.
  notifySiteChange(stored.site.id);
  return stored;
}

/**
 * Records a site's stored state as its first version (a site imported before versions were kept), numbered by its
 * current version, at its last import's time. Inside a save's transaction.
 */
async function recordStoredState(trx: Kysely<Database>, siteId: string): Promise<SiteVersion | undefined> {
  const row = await trx
    .selectFrom('sites')
    .select(['version', 'updated_at'])
    .where('id', '=', siteId)
    .executeTakeFirst();
  const stored = row && (await readSite(trx, siteId));
  if (!row || !stored) return undefined;
  return recordVersion(trx, {
    siteId,
    number: row.version,
    // Parsed again as `vitrine export` does: every key in the schema's order, as a saved file has them.
    site: siteFileSchema.parse(stored.site),
    assets: stored.assets,
    author: IMPORT_AUTHOR,
    at: row.updated_at,
    summary: `As stored before versions were kept — ${summarizeFirstVersion(stored.site)}`,
  });
}

/**
 * A site imported before versions were kept gets its stored state as its first version, on the first look at its
 * history. Does nothing for a site with versions (or none at all).
 */
export async function ensureVersions(db: Kysely<Database>, siteId: string): Promise<void> {
  if (await hasVersions(db, siteId)) return;
  await importTransaction(db, async (trx) => {
    const locked = await trx
      .selectFrom('sites')
      .select('id')
      .where('id', '=', siteId)
      .$if(engineOf(db) === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (locked && !(await hasVersions(trx, siteId))) await recordStoredState(trx, siteId);
  });
}

/** The variants of the imported file that were out of stock before it and are in stock now. */
function restockedByImport(
  before: ReadonlyMap<string, StockLevel>,
  after: ReadonlyMap<string, StockLevel>,
  site: SiteFile,
): Restocked[] {
  const productOf = new Map<string, string>();
  for (const p of site.products) for (const v of p.variants) productOf.set(v.sku, p.id);
  return restockedSkus(before, after).map((sku) => {
    const level = after.get(sku)!;
    return { sku, productId: productOf.get(sku)!, qtyInStock: level.unlimited ? null : level.qtyInStock };
  });
}

/** Everything stored for a site, as the (normalized) site file and its images. undefined for an unknown site. */
export async function readSite(
  db: Kysely<Database>,
  siteId: string,
): Promise<{ site: SiteFile; assets: SiteAsset[] } | undefined> {
  const siteRow = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (!siteRow) return undefined;
  const [collections, products, variants, forms, pages, posts, assets] = await Promise.all([
    db.selectFrom('collections').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('products').selectAll().where('site_id', '=', siteId).orderBy('position').execute(),
    db
      .selectFrom('variants')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('product_id')
      .orderBy('position')
      .execute(),
    db.selectFrom('forms').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('pages').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('posts').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('assets').selectAll().where('site_id', '=', siteId).orderBy('path').execute(),
  ]);
  const variantsByProduct = groupBy(variants, (v) => v.product_id);
  const site: SiteFile = {
    version: 1,
    website: JSON.parse(siteRow.settings) as Website,
    collections: collections.map((r) => JSON.parse(r.data) as Collection),
    products: products.map((r): Product => productFromRows(r, variantsByProduct.get(r.id) ?? [])),
    forms: forms.map((r) => JSON.parse(r.data) as Form),
    pages: pages.map((r) => JSON.parse(r.data) as Page),
    posts: posts.map((r) => JSON.parse(r.data) as Post),
  };
  return {
    site,
    assets: assets.map((a) => ({
      path: a.path,
      contentType: a.content_type,
      width: a.width,
      height: a.height,
      bytes: Buffer.from(a.bytes),
    })),
  };
}
