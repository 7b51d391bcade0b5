/**
 * The media library's saves (issue 26): an upload or a delete is an edit of the site (`editSite`: a new site version
 * by the staff member, with its audit entry in the same transaction). Neither touches a product, page or setting
 * another editor may be changing, so neither is ever refused as stale: each is applied to the site as stored.
 */
import type { Kysely } from 'kysely';
import { formatFileSize } from '../../core/media';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { recordAudit, type Staff } from '../admin';
import { editSite, type EditFailure } from './edit';
import {
  imageFromUpload,
  mediaItems,
  removeSiteImage,
  withLibraryImage,
  type MediaItem,
  type Upload,
  type UploadRefusal,
} from './media';
import type { Website } from './schema';
import { ensureVersions, readSite, type SiteAsset } from './sites';

export type MediaFailure =
  UploadRefusal | EditFailure | { type: 'IMAGE_NOT_FOUND'; message: string } | { type: 'IN_USE'; message: string };

/** The stored site's version (an edit's base: uploads and deletes apply to the site as stored). */
async function storedVersion(db: Kysely<Database>, siteId: string): Promise<number> {
  await ensureVersions(db, siteId);
  const row = await db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirst();
  return row?.version ?? 0;
}

/** The site's images with where each is shown, and the version they are from. */
export async function listMedia(
  db: Kysely<Database>,
  siteId: string,
): Promise<{ images: MediaItem[]; version: number; website: Website } | undefined> {
  const row = await db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirst();
  const content = await readSite(db, siteId);
  if (!row || !content) return undefined;
  return { images: mediaItems(content), version: row.version, website: content.site.website };
}

/** Stores the upload as an image of the site's media library: a new site version, audited. */
export async function uploadImage(
  db: Kysely<Database>,
  siteId: string,
  website: Pick<Website, 'media'>,
  staff: Staff,
  upload: Upload,
): Promise<Result<{ image: SiteAsset; version: number }, MediaFailure>> {
  const made = await imageFromUpload(website, upload, new Set());
  if (!made.ok) return made;
  let stored: SiteAsset = made.value;
  const saved = await editSite(db, siteId, {
    baseVersion: await storedVersion(db, siteId),
    subjects: [],
    author: { createdBy: staff.email, note: `Uploaded ${made.value.path}` },
    change: (content) => {
      const added = withLibraryImage(content, made.value);
      stored = added.image;
      return ok(added.content);
    },
    alsoInTransaction: async (trx, { version }) => {
      await recordAudit(trx, {
        siteId,
        actor: staff.actor,
        action: 'media.upload',
        subject: { type: 'image', id: stored.path },
        summary: `Uploaded ${stored.path} (${stored.width} × ${stored.height} px, ${formatFileSize(stored.bytes.length)})`,
        after: {
          path: stored.path,
          contentType: stored.contentType,
          width: stored.width,
          height: stored.height,
          bytes: stored.bytes.length,
          version: version.number,
        },
      });
    },
  });
  if (!saved.ok) return saved;
  return ok({ image: stored, version: saved.value.version.number });
}

/** Deletes an image nothing shows: a new site version, audited. */
export async function deleteImage(
  db: Kysely<Database>,
  siteId: string,
  staff: Staff,
  path: string,
): Promise<Result<{ version: number }, MediaFailure>> {
  let refusal: MediaFailure | undefined;
  const saved = await editSite(db, siteId, {
    baseVersion: await storedVersion(db, siteId),
    subjects: [],
    author: { createdBy: staff.email, note: `Deleted ${path}` },
    change: (content) => {
      const exists = content.assets.some((a) => a.path === path);
      const removed = removeSiteImage(content, path);
      if (!removed.ok)
        refusal = exists
          ? { type: 'IN_USE', message: removed.error }
          : { type: 'IMAGE_NOT_FOUND', message: removed.error };
      return removed;
    },
    alsoInTransaction: async (trx, { version }) => {
      await recordAudit(trx, {
        siteId,
        actor: staff.actor,
        action: 'media.delete',
        subject: { type: 'image', id: path },
        summary: `Deleted ${path}`,
        before: { path },
        after: { version: version.number },
      });
    },
  });
  if (!saved.ok) return err(refusal ?? saved.error);
  return ok({ version: saved.value.version.number });
}
