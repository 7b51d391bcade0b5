/**
 * The media library at /admin (issue 26), through the admin module's helpers. 'media.read' looks; 'media.edit'
 * (admin, store manager, website manager) uploads and deletes.
 *
 * - GET /admin/media → the upload form and the images with where each is shown; GET /api/admin/media → JSON
 * - POST /admin/media (multipart/form-data: crumb, file) → 303 back with a notice, or the page with the refusal
 *   (the spec's 'The file {fileName} is too large…', 'Please enter a file name'); POST /api/admin/media?fileName=
 *   (the body is the file) → 201 the image
 * - POST /admin/media/delete (form: path) → 303; DELETE /api/admin/media?path= → JSON
 *
 * Each save is a site version (./mediaLibrary.ts) with its audit entry.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEDIA_MESSAGES } from '../../core/media';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError, type ErrorCode } from '../../platform/http/errors';
import { isUploadedFile, registerUploadParsers, type UploadedFile } from '../../platform/http/uploads';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { MEDIA_PATH, MediaTable, UploadForm, type MediaRow } from '../../ui/admin/Media';
import { assetUrl } from '../../ui/ResponsiveImage';
import { imageUrl } from '../../core/images';
import { currentStaff, requireStaff, withDone, type AdminPages, type AdminView, type AdminVisit } from '../admin';
import { checkUpload, fileTooLargeFor, maxUploadBytes, type ImageUse } from './media';
import { deleteImage, listMedia, uploadImage, type MediaFailure } from './mediaLibrary';
import {
  deleteFormBody,
  deleteFormRoute,
  deleteMediaRoute,
  imageQuery,
  listMediaRoute,
  mediaPage,
  mediaPageQuery,
  uploadFormRoute,
  uploadMediaRoute,
  uploadQuery,
} from './mediaRoutes.schema';
import { siteOf } from './requestSite';

const looking = { section: MEDIA_PATH, permission: 'media.read' } as const;
const editing = { section: MEDIA_PATH, permission: 'media.edit' } as const;

/** Each refusal's error code (its HTTP status: errors.ts). */
const FAILURE_CODES: Readonly<Record<MediaFailure['type'], ErrorCode>> = {
  NO_FILE_NAME: 'invalid-input',
  EMPTY: 'invalid-input',
  TOO_LARGE: 'payload-too-large',
  NOT_AN_IMAGE: 'unsupported-media-type',
  IMAGE_NOT_FOUND: 'image-not-found',
  IN_USE: 'image-in-use',
  NOT_FOUND: 'site-not-found',
  STALE: 'site-edit-stale',
  REFUSED: 'site-edit-refused',
  INVALID: 'invalid-input',
  DOMAIN_TAKEN: 'site-edit-refused',
};
const apiFailure = (failure: MediaFailure): ApiError =>
  new ApiError(
    FAILURE_CODES[failure.type],
    failure.message,
    failure.type === 'NO_FILE_NAME' ? { field: 'fileName' } : {},
  );

/** Where a use of an image is edited in /admin (products: their form; the others: their editors' pages). */
const useHref = (use: ImageUse): string | null =>
  use.kind === 'product'
    ? `/admin/products/${encodeURIComponent(use.id)}`
    : use.kind === 'page'
      ? `/admin/pages/${encodeURIComponent(use.id)}`
      : use.kind === 'design'
        ? '/admin/design'
        : null;

export function registerMediaAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const mediaView = async (
    visit: AdminVisit,
    notice?: { kind: 'done' | 'error'; text: string },
    status = 200,
  ): Promise<AdminView> => {
    const listed = await listMedia(ctx.db, visit.site.id);
    const rows: MediaRow[] = (listed?.images ?? []).map((image) => ({
      ...image,
      thumbnail: imageUrl(assetUrl(visit.site.id, image.path, listed?.version), 100),
      usedBy: image.usedBy.map((u) => ({ ...u, href: useHref(u) })),
    }));
    const canEdit = visit.staff.can('media.edit');
    return {
      title: 'Media',
      status,
      body: (
        <>
          <AdminTitle title="Media" />
          {notice ? <AdminNotice kind={notice.kind}>{notice.text}</AdminNotice> : null}
          <p className="admin-muted">
            The site’s images. An upload is stored without its EXIF data and is part of the site file that{' '}
            <code>vitrine export</code> writes; an image nothing shows can be deleted.
          </p>
          {canEdit ? (
            <UploadForm
              action={MEDIA_PATH}
              crumb={visit.crumb}
              crumbField={visit.crumbField}
              maxBytes={maxUploadBytes(listed?.website ?? visit.site.settings)}
            />
          ) : null}
          <h2>Images</h2>
          <MediaTable rows={rows} crumb={visit.crumb} crumbField={visit.crumbField} canEdit={canEdit} />
        </>
      ),
    };
  };

  app.get(MEDIA_PATH, { schema: mediaPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const done = mediaPageQuery.safeParse(request.query);
      return mediaView(visit, done.success && done.data.done ? { kind: 'done', text: done.data.done } : undefined);
    }),
  );

  app.get('/api/admin/media', { schema: listMediaRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'media.read');
    const site = await siteOf(request);
    const listed = await listMedia(ctx.db, site.id);
    if (!listed) throw new ApiError('site-not-found', `There is no site '${site.id}'.`);
    return { images: listed.images, maxUploadBytes: maxUploadBytes(listed.website), version: listed.version };
  });

  app.register(async (scope) => {
    /** The bytes an upload may send: the site's limit for staff who may upload, none for anyone else. */
    const limitOf = async (request: FastifyRequest): Promise<number> => {
      const staff = await currentStaff(request);
      if (!staff?.can('media.edit')) return 0;
      return maxUploadBytes((await siteOf(request)).settings);
    };
    registerUploadParsers(scope, limitOf);
    await scope.register(fastifyFormbody, { bodyLimit: 8 * 1024 });

    scope.post(MEDIA_PATH, { schema: uploadFormRoute }, (request, reply) =>
      pages.action(request, reply, editing, async (visit) => {
        const file = (request.body as Record<string, unknown> | undefined)?.file;
        const refused = (text: string, status: number) => mediaView(visit, { kind: 'error', text }, status);
        if (!isUploadedFile(file) || (file.size === 0 && file.fileName === ''))
          return refused(MEDIA_MESSAGES.fileNameMissing, 400);
        const uploaded = await uploadFromForm(ctx, visit, file);
        if (!uploaded.ok)
          return refused(uploaded.error.message, new ApiError(FAILURE_CODES[uploaded.error.type], '').statusCode);
        return withDone(MEDIA_PATH, `Uploaded ${uploaded.value.path}.`);
      }),
    );

    scope.post('/api/admin/media', { schema: uploadMediaRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'media.edit');
      const site = await siteOf(request);
      const { fileName } = parseInput(uploadQuery, request.query, 'query');
      const body = request.body;
      if (!isUploadedFile(body)) {
        const named = checkUpload(site.settings, fileName, 0);
        throw apiFailure(named.ok ? { type: 'EMPTY', message: MEDIA_MESSAGES.uploadProblem } : named.error);
      }
      if (!body.complete) throw apiFailure(fileTooLargeFor(site.settings, fileName));
      const uploaded = await uploadImage(ctx.db, site.id, site.settings, staff, { bytes: body.bytes, fileName });
      if (!uploaded.ok) throw apiFailure(uploaded.error);
      const { image, version } = uploaded.value;
      const listed = await listMedia(ctx.db, site.id);
      const item = listed?.images.find((i) => i.path === image.path);
      return reply.code(201).send({
        image: item ?? {
          path: image.path,
          contentType: image.contentType,
          width: image.width,
          height: image.height,
          bytes: image.bytes.length,
          usedBy: [],
        },
        version,
      });
    });

    scope.post(`${MEDIA_PATH}/delete`, { schema: deleteFormRoute }, (request, reply) =>
      pages.action(request, reply, editing, async (visit) => {
        const body = deleteFormBody.safeParse(request.body ?? {});
        if (!body.success) return mediaView(visit, { kind: 'error', text: 'Choose an image to delete.' }, 400);
        const deleted = await deleteImage(ctx.db, visit.site.id, visit.staff, body.data.path);
        if (!deleted.ok)
          return mediaView(
            visit,
            { kind: 'error', text: deleted.error.message },
            new ApiError(FAILURE_CODES[deleted.error.type], '').statusCode,
          );
        return withDone(MEDIA_PATH, `Deleted ${body.data.path}.`);
      }),
    );

    scope.delete('/api/admin/media', { schema: deleteMediaRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'media.edit');
      const site = await siteOf(request);
      const { path } = parseInput(imageQuery, request.query, 'query');
      const deleted = await deleteImage(ctx.db, site.id, staff, path);
      if (!deleted.ok) throw apiFailure(deleted.error);
      return { deleted: path, version: deleted.value.version };
    });
  });
}

/** A form's file, uploaded for the visit's staff member (the spec's refusals as results). */
async function uploadFromForm(ctx: AppContext, visit: AdminVisit, file: UploadedFile) {
  const settings = visit.site.settings;
  if (!file.complete) {
    const refusal = fileTooLargeFor(settings, file.fileName);
    return { ok: false as const, error: refusal };
  }
  const uploaded = await uploadImage(ctx.db, visit.site.id, settings, visit.staff, {
    bytes: file.bytes,
    fileName: file.fileName,
  });
  return uploaded.ok ? { ok: true as const, value: uploaded.value.image } : uploaded;
}
