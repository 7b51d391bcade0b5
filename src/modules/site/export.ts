/**
 * `vitrine export`: reads a site back from the database as a site file (the normalized form `import` stores, with
 * current stock) and its images. Import → export → import is the identity.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { readSite, type SiteAsset } from './sites';
import { siteFileSchema, type SiteFile } from './schema';

export class SiteNotFoundError extends Error {
  override name = 'SiteNotFoundError';
}

export interface SiteExport {
  site: SiteFile;
  /** The site file's text: 2-space indented JSON with a final newline. */
  json: string;
  assets: SiteAsset[];
}

export async function exportSite(db: Kysely<Database>, siteId: string): Promise<SiteExport> {
  const stored = await readSite(db, siteId);
  if (!stored) throw new SiteNotFoundError(`there is no site '${siteId}' in the database`);
  // Parsing again puts every key in schema order, so the text is stable and diffs stay small.
  const site = siteFileSchema.parse(stored.site);
  return { site, json: `${JSON.stringify(site, null, 2)}\n`, assets: stored.assets };
}

/** Writes the site file to `outFile` and its images beside it, at the paths the file names. */
export async function exportSiteToFile(db: Kysely<Database>, siteId: string, outFile: string): Promise<SiteExport> {
  const result = await exportSite(db, siteId);
  const dir = dirname(resolve(outFile));
  await mkdir(dir, { recursive: true });
  for (const asset of result.assets) {
    const target = join(dir, asset.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, asset.bytes);
  }
  // The site file last and by rename, so a reader never sees a half-written file.
  const temp = `${resolve(outFile)}.${process.pid}.tmp`;
  await writeFile(temp, result.json);
  await rename(temp, resolve(outFile));
  return result;
}
