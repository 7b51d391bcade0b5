/**
 * The site's history (issue 26), as /admin/versions and `vitrine versions` use it: the versions newest first, the
 * differences between any two (src/core/siteDiff.ts), and restoring one — a save like any other (`replaceSite`, itself
 * a new version, source 'restore'), which never resets live stock: stored variants keep theirs, as an import does by
 * default. A restore is refused, and nothing written, when a domain of that version now belongs to another site.
 */
import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import { siteDiff, type SiteDiff } from '../../core/siteDiff';
import type { Database } from '../../platform/db/tables';
import { ensureVersions, replaceSite, SiteConflictError, type ReplacedSite, type Site } from './sites';
import { getVersion, listVersions, versionAssets, type SiteVersion } from './versions';

export type HistoryFailure =
  | { type: 'UNKNOWN_VERSION'; number: number; message: string }
  | { type: 'DOMAIN_TAKEN'; problems: string[]; message: string };

const unknownVersion = (number: number): HistoryFailure => ({
  type: 'UNKNOWN_VERSION',
  number,
  message: `This site has no version ${number}.`,
});

/** A page of the site's versions, newest first; a site imported before versions gets its first one now. */
export async function siteHistory(
  db: Kysely<Database>,
  siteId: string,
  options: { limit?: number; before?: number } = {},
): Promise<{ versions: SiteVersion[]; next: number | null; latest: number | null }> {
  await ensureVersions(db, siteId);
  const page = await listVersions(db, siteId, options);
  const latest =
    options.before === undefined
      ? (page.versions[0]?.number ?? null)
      : ((await listVersions(db, siteId, { limit: 1 })).versions[0]?.number ?? null);
  return { ...page, latest };
}

export interface VersionComparison {
  from: SiteVersion;
  to: SiteVersion;
  diff: SiteDiff;
}

/** The differences from version `from` to version `to` (any two, either order). */
export async function compareVersions(
  db: Kysely<Database>,
  siteId: string,
  from: number,
  to: number,
): Promise<Result<VersionComparison, HistoryFailure>> {
  await ensureVersions(db, siteId);
  const [a, b] = await Promise.all([getVersion(db, siteId, from), getVersion(db, siteId, to)]);
  if (!a) return err(unknownVersion(from));
  if (!b) return err(unknownVersion(to));
  const { content: fromContent, ...fromVersion } = a;
  const { content: toContent, ...toVersion } = b;
  return ok({
    from: fromVersion,
    to: toVersion,
    diff: siteDiff(fromContent.site, toContent.site, { from: fromContent.images, to: toContent.images }),
  });
}

/**
 * Saves version `number` again as the site's newest version (source 'restore', by `createdBy`): its records, settings
 * and images; live stock stays. `alsoInTransaction` runs in the save's transaction (the admin's audit entry).
 */
export async function restoreVersion(
  db: Kysely<Database>,
  siteId: string,
  number: number,
  by: {
    createdBy: string;
    alsoInTransaction?: (trx: Kysely<Database>, saved: { site: Site; version: SiteVersion }) => Promise<void>;
  },
): Promise<Result<ReplacedSite & { restored: number }, HistoryFailure>> {
  await ensureVersions(db, siteId);
  const version = await getVersion(db, siteId, number);
  if (!version) return err(unknownVersion(number));
  const assets = await versionAssets(db, siteId, version.content.images);
  try {
    const saved = await replaceSite(db, version.content.site, assets, {
      stock: 'live',
      author: { createdBy: by.createdBy, source: 'restore', note: `Restored version ${number}` },
      ...(by.alsoInTransaction ? { alsoInTransaction: by.alsoInTransaction } : {}),
    });
    return ok({ ...saved, restored: number });
  } catch (error) {
    if (error instanceof SiteConflictError)
      return err({
        type: 'DOMAIN_TAKEN',
        problems: error.problems,
        message: `Version ${number} cannot be restored: ${error.problems.join('; ')}. Free the domain first.`,
      });
    throw error;
  }
}
