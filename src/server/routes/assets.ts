/**
 * Images and the browser bundle.
 *
 * `/assets/{siteId}/{path}?format={w}w` serves a site image resized by sharp to one of the spec's widths (§9; the
 * original without `format`), as WebP when the browser takes it. Renditions are kept in a small in-memory LRU keyed by
 * the site's current version, never by the request's `v` (the in-flight promise is stored, so a burst of requests
 * resizes once). Page HTML adds `v={site version}` to image URLs: such URLs never change meaning, so they are cached
 * for a year; a re-import changes the version and thus the URL. Only the current version is served: any other `v` (an
 * old page, a made-up value) is redirected to the current URL, uncached, without resizing anything.
 *
 * Resizing costs CPU, so at most RESIZE_CONCURRENCY sharp jobs run at once; RESIZE_QUEUE_LENGTH more wait their turn,
 * and past that a request answers 503 'server-busy' with Retry-After. /assets has its own per-client rate limit
 * (../rateLimits).
 *
 * `/client/assets/*` is the Vite build (content-hashed file names): immutable. `/fonts/{file}.{hash}.woff2` are the
 * fonts that ship with Vitrine (src/render/fonts.ts): immutable too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { ADD_TO_CART_MESSAGES } from '../../core/addToCartErrors';
import { IMAGE_WIDTHS, imageUrl } from '../../core/images';
import { fontAt, FONTS_PATH } from '../../render/fonts';
import { LruCache } from '../../render/lru';
import { CLIENT_BASE_URL, CLIENT_DIST_DIR } from '../../render/manifest';
import { getAsset } from '../../modules/catalog';
import { assetUrl } from '../../ui/ResponsiveImage';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { RATE_LIMIT_WINDOW_MS } from '../../platform/http/rateLimits';
import { z } from 'zod';
import { describeRoute, errorAnswer, redirectAnswer } from '../../platform/http/apiDescription';

/** Renditions kept in memory (a few tens of KB each at the usual widths). */
const RENDITION_CACHE_ENTRIES = 300;
const YEAR_SECONDS = 365 * 24 * 60 * 60;
/** Unversioned image URLs may change on re-import: cache them briefly. */
const UNVERSIONED_MAX_AGE_SECONDS = 60 * 60;
/** sharp jobs at once per app (each may use several libvips threads): resizing never takes the CPU from the pages. */
export const RESIZE_CONCURRENCY = 2;
/** Renditions waiting for a turn (a page of ~20 images made cold fits three times over); past that: 503. */
export const RESIZE_QUEUE_LENGTH = 64;
/** Retry-After of a 503 for a full resize queue: the queue drains in about that long. */
const BUSY_RETRY_AFTER_SECONDS = 2;
export const SERVER_BUSY_MESSAGE = `The server is busy. ${ADD_TO_CART_MESSAGES.tooManyRequests}`;

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
    throw new ApiError('invalid-input', `format must be one of ${IMAGE_WIDTHS.map((w) => `${w}w`).join(', ')}.`, {
      field: 'format',
    });
  }
  return width;
}

/** At most `maxRunning` jobs at once; up to `maxWaiting` more wait their turn in order; past that a 503 ApiError. */
export class JobQueue {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly maxRunning: number,
    readonly maxWaiting: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#running < this.maxRunning) this.#running++;
    else if (this.#waiting.length < this.maxWaiting) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else throw new ApiError('server-busy', SERVER_BUSY_MESSAGE);
    try {
      return await job();
    } finally {
      // The slot passes to the next job waiting, or is freed.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

async function resize(
  bytes: Buffer,
  width: number | undefined,
  webp: boolean,
  contentType: string,
): Promise<Rendition> {
  let image = sharp(bytes, { failOn: 'error' }).rotate();
  // Never upscale: a wider rendition of a small original is bigger and no sharper.
  if (width !== undefined) image = image.resize({ width, withoutEnlargement: true });
  if (webp) return { contentType: 'image/webp', bytes: await image.webp({ quality: 80 }).toBuffer() };
  if (contentType === 'image/png') return { contentType, bytes: await image.png({ compressionLevel: 9 }).toBuffer() };
  return { contentType: 'image/jpeg', bytes: await image.jpeg({ quality: 80, mozjpeg: true }).toBuffer() };
}

export async function registerAssetRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { rateLimitPer10s: number },
): Promise<void> {
  const renditions = new LruCache<string, Promise<Rendition | null>>(RENDITION_CACHE_ENTRIES);
  const resizes = new JobQueue(RESIZE_CONCURRENCY, RESIZE_QUEUE_LENGTH);

  app.get<{ Params: { siteId: string; '*': string }; Querystring: { format?: string; v?: unknown } }>(
    '/assets/:siteId/*',
    { config: { rateLimit: { max: options.rateLimitPer10s, timeWindow: RATE_LIMIT_WINDOW_MS } }, schema: imageRoute },
    async (request, reply) => {
      const { siteId } = request.params;
      const path = request.params['*'];
      // Both are looked up in the database, and PostgreSQL refuses a NUL character in text.
      if (`${siteId}${path}`.includes('\u0000')) {
        throw new ApiError('invalid-input', 'An image address must not contain a NUL character (%00).', {
          field: 'path',
        });
      }
      const width = parseFormat(request.query.format);
      const site = await request.server.siteCache.siteById(siteId);
      if (!site) throw new ApiError('route-not-found', `No image ${path} in site ${siteId}.`);
      const { v } = request.query;
      if (v !== undefined && v !== String(site.version)) {
        // Not the current version: the page's URL of today, which may be cached for a year. The redirect itself is
        // not kept anywhere: the version it names changes on the next import.
        const current = assetUrl(siteId, path, site.version);
        return reply
          .code(302)
          .header('location', width === undefined ? current : imageUrl(current, width))
          .header('cache-control', 'no-store')
          .send();
      }
      const webp = /image\/webp/.test(request.headers.accept ?? '');
      const key = [siteId, site.version, path, width ?? 'original', webp ? 'webp' : 'source'].join('\u0000');

      let pending = renditions.get(key);
      if (!pending) {
        pending = getAsset(ctx.db, siteId, path).then((asset) => {
          if (!asset) return null;
          if (width === undefined && !webp) return { contentType: asset.contentType, bytes: asset.bytes };
          return resizes.run(() => resize(asset.bytes, width, webp, asset.contentType));
        });
        renditions.set(key, pending);
        // A failure (a corrupt image, a full queue) must not stay cached.
        pending.catch(() => renditions.delete(key));
      }
      let rendition: Rendition | null;
      try {
        rendition = await pending;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'server-busy')
          reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
        throw error;
      }
      if (!rendition) {
        renditions.delete(key);
        throw new ApiError('route-not-found', `No image ${path} in site ${siteId}.`);
      }
      const maxAge =
        v !== undefined
          ? `public, max-age=${YEAR_SECONDS}, immutable`
          : `public, max-age=${UNVERSIONED_MAX_AGE_SECONDS}`;
      return reply
        .header('content-type', rendition.contentType)
        .header('cache-control', maxAge)
        .header('vary', 'Accept')
        .send(rendition.bytes);
    },
  );

  app.get<{ Params: { file: string } }>(`${FONTS_PATH}:file`, { schema: fontRoute }, async (request, reply) => {
    const bytes = fontAt(`${FONTS_PATH}${request.params.file}`);
    if (!bytes) throw new ApiError('route-not-found', `No font ${request.params.file}.`);
    // WOFF2 is Brotli inside: not compressed again (font/woff2 is not compressible for @fastify/compress).
    return reply
      .header('content-type', 'font/woff2')
      .header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`)
      .send(bytes);
  });

  const clientAssets = join(ctx.clientDir ?? CLIENT_DIST_DIR, 'assets');
  if (existsSync(clientAssets)) {
    await app.register(fastifyStatic, {
      root: clientAssets,
      prefix: `${CLIENT_BASE_URL}assets/`,
      decorateReply: false,
      immutable: true,
      maxAge: YEAR_SECONDS * 1000,
      // Sent as compressed at build time (NAME.br, NAME.gz beside each script and stylesheet: vite.config.ts) when the
      // request accepts it; @fastify/compress leaves an answer that already has a Content-Encoding alone. Those files
      // are not assets of their own: a request naming one is not found. Hashed names never change content.
      preCompressed: true,
      allowedPath: (pathname) => !/\.(br|gz)$/.test(pathname),
      etag: false,
      lastModified: false,
    });
  }
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const fontRoute = describeRoute({
  operationId: 'getFont',
  summary: 'A font that ships with Vitrine (WOFF2, latin subset), by its content-hashed name (cached for a year)',
  tags: ['pages'],
  params: z.object({ file: z.string().describe('e.g. inter-latin-400-normal.0123456789ab.woff2') }),
  response: {
    200: { description: 'The font.', content: { 'font/woff2': { schema: z.string().describe('The bytes.') } } },
    404: errorAnswer('route-not-found: no such font.'),
  },
});

const imageRoute = describeRoute({
  operationId: 'getImage',
  summary: 'A site image, resized on request (cached)',
  tags: ['pages'],
  params: z.object({ siteId: z.string(), path: z.string().describe('The image’s path in the site file.') }),
  querystring: z.object({
    format: z.string().optional().describe('A width rendition, e.g. 500w (webp when accepted).'),
    v: z.string().optional().describe('The site version (as in page HTML: cached for a year).'),
  }),
  response: {
    200: {
      description: 'The image.',
      content: { 'image/*': { schema: z.string().describe('The bytes (JPEG, PNG or WebP).') } },
    },
    302: redirectAnswer('Another version: to the current version’s address.'),
    400: errorAnswer('invalid-input: a bad format, a NUL character.'),
    404: errorAnswer('route-not-found: no such image.'),
    503: errorAnswer("server-busy: 'The server is busy. Please try again in a few seconds.', Retry-After: 2."),
  },
});
