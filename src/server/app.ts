/**
 * Builds the Fastify app: cookies, compression, security headers, the site of each request (by Host), rate limits,
 * the one error handler, and the route modules (cart API, pages, assets). Nothing is listened on here: the CLI
 * calls `listen`, tests call `inject`.
 */
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Engine } from '../db/connect';
import type { Database } from '../db/tables';
import type { AppContext } from './context';
import { ApiError, GENERIC_ERROR_MESSAGE, type ErrorCode } from './errors';
import { registerSitePlugin } from './plugins/site';
import { registerAssetRoutes } from './routes/assets';
import { registerCartRoutes } from './routes/cart';
import { registerPageRoutes } from './routes/pages';

export interface BuildAppOptions {
  db: Kysely<Database>;
  engine: Engine;
  /** Logging (pino, JSON lines): one line per answered request, warnings, errors. Off by default (tests); the CLI turns it on. */
  logger?: boolean;
  /** Shared store for rate limits across processes, and site change notices (site cache); in-memory when absent. */
  redisUrl?: string;
  /** Cart API requests per minute per client IP (default 600: generous, so benchmarks are not throttled). */
  cartRateLimitPerMinute?: number;
  /** Trust X-Forwarded-* from a reverse proxy (client IP for rate limits, https for cookies). */
  trustProxy?: boolean;
  /** Cookies only over HTTPS (default: true when NODE_ENV is production). */
  secureCookies?: boolean;
  /** Directory of the built browser bundle, passed on to the asset routes. */
  clientDir?: string;
  /** How long a looked-up site is reused (default SITE_CACHE_TTL_MS, 1 s; see src/server/siteCache.ts). */
  siteCacheTtlMs?: number;
}

/** Largest request body accepted (the cart's JSON bodies are a few hundred bytes; form answers a few KB). */
const BODY_LIMIT_BYTES = 256 * 1024;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? CONCISE_LOGGER : false,
    // Fastify's own request logging writes two long lines per request; `logRequest` below writes one short one.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy ?? false,
    // JSON bodies with __proto__ or constructor.prototype are refused (400), never merged into objects.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });

  const ctx: AppContext = {
    db: options.db,
    engine: options.engine,
    secureCookies: options.secureCookies ?? process.env.NODE_ENV === 'production',
    ...(options.clientDir !== undefined ? { clientDir: options.clientDir } : {}),
  };

  if (options.logger) app.addHook('onResponse', logRequest);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request, reply) => {
    if (!isApiRequest(request) && ctx.notFoundPage) return ctx.notFoundPage(request, reply);
    return sendError(request, reply, new ApiError('route-not-found', `Nothing is found at ${request.method} ${pathOf(request)}.`));
  });
  app.addHook('onSend', async (request, reply, payload) => {
    setSecurityHeaders(request, reply);
    return payload;
  });

  await app.register(fastifyCookie);
  await app.register(fastifyCompress, { global: true, threshold: 1024 });
  await app.register(fastifyRateLimit, await rateLimitOptions(app, options.redisUrl));
  registerSitePlugin(app, ctx, { redisUrl: options.redisUrl, ttlMs: options.siteCacheTtlMs });

  registerCartRoutes(app, ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 });
  await registerAssetRoutes(app, ctx);
  await registerPageRoutes(app, ctx);
  return app;
}

/** Level info, ISO times, no pid/hostname on every line. */
const CONCISE_LOGGER = { level: 'info', base: null, timestamp: () => `,"time":"${new Date().toISOString()}"` };

/** `GET /shop/p/speckled-mug 200 3.1 ms` (with the client address, for abuse reports). */
async function logRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  request.log.info({ ip: request.ip }, `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`);
}

async function rateLimitOptions(app: FastifyInstance, redisUrl: string | undefined) {
  const base = {
    // Routes opt in (the cart API); pages and assets are cached and cheap.
    global: false,
    errorResponseBuilder: () => ApiError.rateLimited(),
  };
  if (!redisUrl) return base;
  const redis = new Redis(redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  // A Redis outage must not take the shop down: limits are skipped while it is unreachable (skipOnError).
  redis.on('error', (error) => app.log.warn({ err: error }, 'rate-limit store (Redis) unreachable'));
  await redis.connect().catch((error: unknown) => app.log.warn({ err: error }, 'rate-limit store (Redis) unreachable'));
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return { ...base, redis, skipOnError: true, nameSpace: 'vitrine-rl:' };
}

// ---------------------------------------------------------------- errors

/** Fastify's own 4xx errors (body parsing, media type, size), with the texts we show for them. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid-json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid-json', message: 'The request body is empty; a JSON object is expected.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported-media-type',
    message: 'The request body must be JSON (Content-Type: application/json).',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid-input', message: 'The Content-Length header does not match the body.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload-too-large', message: `The request body is larger than ${BODY_LIMIT_BYTES} bytes.` },
};

function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const e = error as Partial<FastifyError> & { statusCode?: number };
  const known = typeof e.code === 'string' ? FASTIFY_ERRORS[e.code] : undefined;
  if (known) return new ApiError(known.code, known.message);
  // Other client errors Fastify raises (a JSON syntax error, a poisoned prototype, a bad URL): 400 with its text.
  if (error instanceof SyntaxError && e.statusCode === 400) return new ApiError('invalid-json', 'The request body is not valid JSON.');
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 429) return ApiError.rateLimited();
    if (e.statusCode === 404) return new ApiError('route-not-found', 'Nothing is found at this address.');
    if (e.statusCode === 413) return new ApiError('payload-too-large', FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE!.message);
    if (e.statusCode === 415) return new ApiError('unsupported-media-type', FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE!.message);
    return new ApiError('invalid-input', `The request is invalid: ${e.message ?? 'unknown problem'}.`);
  }
  return null;
}

async function handleError(this: FastifyInstance, error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const apiError = toApiError(error);
  if (apiError) return sendError(request, reply, apiError);
  // A bug or an outage: log it with the request, tell the client nothing about the internals.
  request.log.error({ err: error }, 'unexpected error');
  return sendError(request, reply, new ApiError('internal', GENERIC_ERROR_MESSAGE));
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  reply.code(error.statusCode).header('cache-control', 'no-store');
  if (error.code === 'rate-limited' && !reply.hasHeader('retry-after')) reply.header('retry-after', '5');
  if (!isApiRequest(request) && acceptsHtml(request)) {
    return reply.type('text/html; charset=utf-8').send(errorPage(error));
  }
  return reply.type('application/json; charset=utf-8').send(error.toBody());
}

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';
const isApiRequest = (request: FastifyRequest) => pathOf(request).startsWith('/api/');
const acceptsHtml = (request: FastifyRequest) => /text\/html/.test(request.headers.accept ?? '');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function errorPage(error: ApiError): string {
  const title = error.statusCode === 404 ? 'Page not found' : error.statusCode >= 500 ? 'Something went wrong' : 'Bad request';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${escapeHtml(error.message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
}

// ---------------------------------------------------------------- security headers

function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  // Pages may be framed by the site's own editor (§2), never by another site.
  reply.header('x-frame-options', 'SAMEORIGIN');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
  if (!reply.hasHeader('content-security-policy')) {
    // Script sources are left to the page routes (islands, CAPTCHA); these parts hold for every answer.
    reply.header('content-security-policy', "frame-ancestors 'self'; base-uri 'self'; object-src 'none'; form-action 'self'");
  }
  if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
