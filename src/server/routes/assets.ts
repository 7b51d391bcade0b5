/**
 * Images and the browser bundle.
 *
 * `/assets/{siteId}/{path}?format={w}w` serves a site image resized by sharp to one of the spec's widths (§9; the
 * original without `format`), as WebP when the browser takes it. Renditions are kept in a small in-memory LRU (the
 * in-flight promise is stored, so a burst of requests resizes once). Page HTML adds `v={site version}` to image URLs:
 * such URLs never change meaning, so they are cached for a year; a re-import changes the version and thus the URL.
 *
 * `/client/assets/*` is the Vite build (content-hashed file names): immutable.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { IMAGE_WIDTHS } from '../../core/images';
import { LruCache } from '../../render/lru';
import { CLIENT_BASE_URL, CLIENT_DIST_DIR } from '../../render/manifest';
import { getAsset } from '../../services/catalog';
import type { AppContext } from '../context';
import { ApiError } from '../errors';

/** Renditions kept in memory (a few tens of KB each at the usual widths). */
const RENDITION_CACHE_ENTRIES = 300;
const YEAR_SECONDS = 365 * 24 * 60 * 60;
/** Unversioned image URLs may change on re-import: cache them briefly. */
const UNVERSIONED_MAX_AGE_SECONDS = 60 * 60;

interface Rendition {
  contentType: string;
  bytes: Buffer;
}

const FORMAT = /^(\d{1,4})w$/;

/** Parses `?format=500w` into a width of the spec's list; undefined for the original; an ApiError otherwise. */
export function parseFormat(format: unknown): number | undefined {
  if (format === undefined || format === '') return undefined;
  const match = typeof format === 'string' ? FORMAT.exec(format) : null;
  const width = match ? Number(match[1]) : NaN;
  if (!(IMAGE_WIDTHS as readonly number[]).includes(width)) {
    throw new ApiError('invalid-input', `format must be one of ${IMAGE_WIDTHS.map((w) => `${w}w`).join(', ')}.`, { field: 'format' });
  }
  return width;
}

async function resize(bytes: Buffer, width: number | undefined, webp: boolean, contentType: string): Promise<Rendition> {
  if (width === undefined && !webp) return { contentType, bytes };
  let image = sharp(bytes, { failOn: 'error' }).rotate();
  // Never upscale: a wider rendition of a small original is bigger and no sharper.
  if (width !== undefined) image = image.resize({ width, withoutEnlargement: true });
  if (webp) return { contentType: 'image/webp', bytes: await image.webp({ quality: 80 }).toBuffer() };
  if (contentType === 'image/png') return { contentType, bytes: await image.png({ compressionLevel: 9 }).toBuffer() };
  return { contentType: 'image/jpeg', bytes: await image.jpeg({ quality: 80, mozjpeg: true }).toBuffer() };
}

export async function registerAssetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const renditions = new LruCache<string, Promise<Rendition | null>>(RENDITION_CACHE_ENTRIES);

  app.get<{ Params: { siteId: string; '*': string }; Querystring: { format?: string; v?: string } }>(
    '/assets/:siteId/*',
    async (request, reply) => {
      const { siteId } = request.params;
      const path = request.params['*'];
      // Both are looked up in the database, and PostgreSQL refuses a NUL character in text.
      if (`${siteId}${path}`.includes('\u0000')) {
        throw new ApiError('invalid-input', 'An image address must not contain a NUL character (%00).', { field: 'path' });
      }
      const width = parseFormat(request.query.format);
      const webp = /image\/webp/.test(request.headers.accept ?? '');
      const key = [siteId, request.query.v ?? '', path, width ?? 'original', webp ? 'webp' : 'source'].join('\u0000');

      let pending = renditions.get(key);
      if (!pending) {
        pending = getAsset(ctx.db, siteId, path).then((asset) => (asset ? resize(asset.bytes, width, webp, asset.contentType) : null));
        renditions.set(key, pending);
        // A failure (a corrupt image) must not stay cached.
        pending.catch(() => renditions.delete(key));
      }
      const rendition = await pending;
      if (!rendition) {
        renditions.delete(key);
        throw new ApiError('route-not-found', `No image ${path} in site ${siteId}.`);
      }
      const maxAge = request.query.v ? `public, max-age=${YEAR_SECONDS}, immutable` : `public, max-age=${UNVERSIONED_MAX_AGE_SECONDS}`;
      return reply
        .header('content-type', rendition.contentType)
        .header('cache-control', maxAge)
        .header('vary', 'Accept')
        .send(rendition.bytes);
    },
  );

  const clientAssets = join(ctx.clientDir ?? CLIENT_DIST_DIR, 'assets');
  if (existsSync(clientAssets)) {
    await app.register(fastifyStatic, {
      root: clientAssets,
      prefix: `${CLIENT_BASE_URL}assets/`,
      decorateReply: false,
      immutable: true,
      maxAge: YEAR_SECONDS * 1000,
      // Compressed by @fastify/compress; hashed names never change content.
      etag: false,
      lastModified: false,
    });
  }
}
