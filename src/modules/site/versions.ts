/**
 * Site versions (issue 26): every save of a site — `vitrine import`, an admin save, a restore — is recorded by
 * `replaceSite` inside its own transaction as one `site_versions` row: its number (the `sites.version` it made), when,
 * who, the source, a one-line summary of what changed (src/core/siteDiff.ts against the version before), and the site
 * file it stored (JSON, gzip) with its image paths mapped to the images' SHA-256. The images themselves are kept in
 * `site_version_assets`, once per site however many versions name them, so restoring an old version brings its
 * images back.
 *
 * A site imported before versions were kept has no row: the first look at its history (or its next save) records its
 * stored state as its first version, numbered by its current `sites.version` — never an error.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import type { Kysely } from 'kysely';
import {
  summarizeFirstVersion,
  summarizeSiteDiff,
  siteDiff,
  type ImageHashes,
  type SiteForDiff,
} from '../../core/siteDiff';
import type { Database } from '../../platform/db/tables';
import type { SiteFile } from './schema';
import type { SiteAsset } from './sites';

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

export const VERSION_SOURCES = ['import', 'admin', 'restore'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

/** Who saves: a staff member's e-mail (or 'vitrine import' for the command) and how. */
export interface VersionAuthor {
  createdBy: string;
  source: VersionSource;
  /** Put before the summary (a restore says which version it brought back). */
  note?: string;
}

export const IMPORT_AUTHOR: VersionAuthor = { createdBy: 'vitrine import', source: 'import' };

/** A version as the history lists it. */
export interface SiteVersion {
  number: number;
  createdAt: string;
  createdBy: string;
  source: VersionSource;
  summary: string;
}

/** What a version stored: the site file, and its image paths → the images' hashes. */
export interface VersionContent {
  site: SiteFile;
  images: Record<string, string>;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * A version's stored text, gzip'd: JSON lines — the first `{ site (without its products), images }`, then one line
 * per product (JSON text has no raw newline). Each product's line starts with its id (the schema's first key), so the
 * next save's summary finds the products whose text is unchanged without parsing them (./versions.ts
 * `summarizeSave`): a 10,000-product re-import parses only what changed.
 */
function contentLines(content: VersionContent): string[] {
  const { products, ...rest } = content.site;
  return [JSON.stringify({ site: rest, images: content.images }), ...products.map((p) => JSON.stringify(p))];
}

export async function encodeContent(content: VersionContent): Promise<Buffer> {
  return gzip(Buffer.from(contentLines(content).join('\n')), { level: 1 });
}

/** The stored text's lines: the head (the site without products, the images) and each product's line. */
async function contentText(bytes: Uint8Array): Promise<{ head: string; products: string[] }> {
  const [head = '{}', ...products] = (await gunzip(bytes)).toString('utf8').split('\n');
  return { head, products };
}

function contentFromText(text: { head: string; products: string[] }): VersionContent {
  const head = JSON.parse(text.head) as { site: Omit<SiteFile, 'products'>; images: Record<string, string> };
  return {
    site: { ...head.site, products: text.products.map((line) => JSON.parse(line) as SiteFile['products'][number]) },
    images: head.images,
  };
}

export async function decodeContent(bytes: Uint8Array): Promise<VersionContent> {
  return contentFromText(await contentText(bytes));
}

/** A product line's id, read from its start (`{"id":"mug",…`) without parsing the line. */
function lineId(line: string): string | undefined {
  const match = /^\{"id":("(?:[^"\\]|\\.)*")/.exec(line);
  return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string);
}

/**
 * The compressed content of a save, started before the transaction's writes: the compression runs on libuv's
 * threads while the rows are written. `lines` are kept for the summary's comparison.
 */
export function prepareContent(
  site: SiteFile,
  assets: readonly SiteAsset[],
): {
  hashes: Map<string, string>;
  productLines: string[];
  bytes: Promise<Buffer>;
} {
  const hashes = new Map(assets.map((a) => [a.path, sha256(a.bytes)]));
  const lines = contentLines({ site, images: Object.fromEntries(hashes) });
  const bytes = gzip(Buffer.from(lines.join('\n')), { level: 1 });
  // Awaited by recordVersion; a failure must not be an unhandled rejection before then.
  bytes.catch(() => {});
  return { hashes, productLines: lines.slice(1), bytes };
}

const versionFromRow = (row: {
  number: number;
  created_at: string;
  created_by: string;
  source: string;
  summary: string;
}): SiteVersion => ({
  number: row.number,
  createdAt: row.created_at,
  createdBy: row.created_by,
  source: row.source as VersionSource,
  summary: row.summary,
});

/** Stores the images a version names that the site's history does not hold yet (by hash). */
async function storeVersionAssets(
  trx: Kysely<Database>,
  siteId: string,
  assets: readonly SiteAsset[],
  hashes: ReadonlyMap<string, string>,
): Promise<void> {
  if (assets.length === 0) return;
  const wanted = [...new Set(hashes.values())];
  const held = new Set<string>();
  for (let i = 0; i < wanted.length; i += 200) {
    const rows = await trx
      .selectFrom('site_version_assets')
      .select('sha256')
      .where('site_id', '=', siteId)
      .where('sha256', 'in', wanted.slice(i, i + 200))
      .execute();
    for (const row of rows) held.add(row.sha256);
  }
  for (const asset of assets) {
    const hash = hashes.get(asset.path)!;
    if (held.has(hash)) continue;
    held.add(hash);
    await trx
      .insertInto('site_version_assets')
      .values({
        site_id: siteId,
        sha256: hash,
        content_type: asset.contentType,
        width: asset.width,
        height: asset.height,
        bytes: asset.bytes,
      })
      .execute();
  }
}

async function latestText(
  db: Kysely<Database>,
  siteId: string,
): Promise<{ number: number; text: { head: string; products: string[] } } | undefined> {
  const row = await db
    .selectFrom('site_versions')
    .select(['number', 'content'])
    .where('site_id', '=', siteId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { number: row.number, text: await contentText(row.content) };
}

/** Whether the site has any version recorded. */
export async function hasVersions(db: Kysely<Database>, siteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('site_versions')
    .select('number')
    .where('site_id', '=', siteId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A save's summary, made before its transaction against the latest version then (`after`). */
export interface PreparedSummary {
  after: number | null;
  summary: string;
}

/** The summary of saving `site` after the site's latest version (or as its first). */
export async function summarizeSave(
  db: Kysely<Database>,
  siteId: string,
  site: SiteFile,
  prepared: ReturnType<typeof prepareContent>,
): Promise<PreparedSummary> {
  const previous = await latestText(db, siteId);
  if (!previous) return { after: null, summary: summarizeFirstVersion(site) };
  const head = JSON.parse(previous.text.head) as { site: Omit<SiteFile, 'products'>; images: Record<string, string> };
  const images = { from: head.images, to: Object.fromEntries(prepared.hashes) as ImageHashes };
  const imageReplaced = Object.keys(images.to).some((path) => images.from[path] !== images.to[path]);
  // A product whose text is the same in both is not parsed (unless an image has other bytes: then every one is).
  const newLines = new Map<string, string>();
  site.products.forEach((p, i) => newLines.set(p.id, prepared.productLines[i]!));
  const same = new Set<string>();
  const products = previous.text.products.map((line) => {
    const id = lineId(line);
    if (!imageReplaced && id !== undefined && newLines.get(id) === line) {
      same.add(id);
      return { id };
    }
    return JSON.parse(line) as SiteFile['products'][number];
  });
  const diff = siteDiff({ ...head.site, products } as SiteForDiff, site, images, same);
  return { after: previous.number, summary: summarizeSiteDiff(diff) };
}

async function latestNumber(db: Kysely<Database>, siteId: string): Promise<number | null> {
  const row = await db
    .selectFrom('site_versions')
    .select('number')
    .where('site_id', '=', siteId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.number ?? null;
}

/**
 * Records version `number` of a site (inside the save's transaction): its summary compared with the latest version
 * recorded (made before the transaction when `early` still compares with the latest: the comparison of a big site
 * does not hold the write lock), its images stored once, its content.
 */
export async function recordVersion(
  trx: Kysely<Database>,
  save: {
    siteId: string;
    number: number;
    site: SiteFile;
    assets: readonly SiteAsset[];
    author: VersionAuthor;
    at: string;
    prepared?: ReturnType<typeof prepareContent>;
    early?: PreparedSummary;
    /** The summary, when the caller knows it (the first look at an older site). */
    summary?: string;
  },
): Promise<SiteVersion> {
  const prepared = save.prepared ?? prepareContent(save.site, save.assets);
  let summary = save.summary;
  if (summary === undefined) {
    const early =
      save.early && save.early.after === (await latestNumber(trx, save.siteId))
        ? save.early
        : await summarizeSave(trx, save.siteId, save.site, prepared);
    summary = save.author.note
      ? `${save.author.note}: ${early.summary.charAt(0).toLowerCase()}${early.summary.slice(1)}`
      : early.summary;
  }
  await storeVersionAssets(trx, save.siteId, save.assets, prepared.hashes);
  const row = {
    site_id: save.siteId,
    number: save.number,
    created_at: save.at,
    created_by: save.author.createdBy,
    source: save.author.source,
    summary,
    content: await prepared.bytes,
  };
  await trx.insertInto('site_versions').values(row).execute();
  return versionFromRow(row);
}

/** A page of a site's versions, newest first. */
export async function listVersions(
  db: Kysely<Database>,
  siteId: string,
  options: { limit?: number; before?: number } = {},
): Promise<{ versions: SiteVersion[]; next: number | null }> {
  const limit = options.limit ?? 20;
  const rows = await db
    .selectFrom('site_versions')
    .select(['number', 'created_at', 'created_by', 'source', 'summary'])
    .where('site_id', '=', siteId)
    .$if(options.before !== undefined, (q) => q.where('number', '<', options.before!))
    .orderBy('number', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit).map(versionFromRow);
  return { versions: page, next: rows.length > limit ? page.at(-1)!.number : null };
}

/** One version's row and content, or undefined. */
export async function getVersion(
  db: Kysely<Database>,
  siteId: string,
  number: number,
): Promise<(SiteVersion & { content: VersionContent }) | undefined> {
  const row = await db
    .selectFrom('site_versions')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('number', '=', number)
    .executeTakeFirst();
  return row && { ...versionFromRow(row), content: await decodeContent(row.content) };
}

/** The images a version's content names, read back from the history by hash. */
export async function versionAssets(
  db: Kysely<Database>,
  siteId: string,
  images: Readonly<Record<string, string>>,
): Promise<SiteAsset[]> {
  const hashes = [...new Set(Object.values(images))];
  if (hashes.length === 0) return [];
  const rows = await db
    .selectFrom('site_version_assets')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('sha256', 'in', hashes)
    .execute();
  const byHash = new Map(rows.map((r) => [r.sha256, r]));
  return Object.entries(images).flatMap(([path, hash]) => {
    const row = byHash.get(hash);
    return row
      ? [{ path, contentType: row.content_type, width: row.width, height: row.height, bytes: Buffer.from(row.bytes) }]
      : [];
  });
}
