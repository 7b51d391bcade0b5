/**
 * Builds the Fastify app: cookies, compression, security headers, the site of each request (by Host), rate limits,
 * the one error handler, and the route modules (cart API, pages, assets). Nothing is listened on here: the CLI
 * calls `listen`, tests call `inject`.
 */
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, {
  LogController,
  type ConnectionError,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Engine } from '../platform/db/connect';
import type { Database } from '../platform/db/tables';
import type { AppContext } from '../platform/http/appContext';
import { ApiError, GENERIC_ERROR_MESSAGE, type ErrorCode } from '../platform/http/errors';
import { EMPTY_BODY_MESSAGE, INVALID_JSON_MESSAGE, registerJsonBodyParser } from '../platform/http/jsonBody';
import { describeWithoutValidating, registerApiDescription } from '../platform/http/apiDescription';
import { BASE_CONTENT_SECURITY_POLICY, contentSecurityPolicyFor } from '../render/contentSecurityPolicy';
import { registerCrumb } from '../platform/http/crumb';
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from '../platform/http/securityHeaders';
import { registerSitePlugin } from '../modules/site';
import { registerAnalyticsRoutes } from '../modules/analytics/routes';
import { registerAnalyticsAdminRoutes } from '../modules/analytics/adminRoutes';
import { registerCustomerAdminRoutes } from '../modules/customers/adminRoutes';
import { registerAssetRoutes } from './routes/assets';
import { registerCartRoutes } from '../modules/cart/routes';
import { cartPages } from '../modules/cart';
import { registerContextRoutes } from '../modules/site/routes';
import { registerInventoryRoutes } from '../modules/catalog/routes';
import { registerCheckoutRoutes } from '../modules/checkout/routes';
import { checkoutPages } from '../modules/checkout';
import { giftCardPages } from '../modules/giftCards';
import { subscriptionPages } from '../modules/subscriptions';
import { registerSubscriptionRoutes } from '../modules/subscriptions/routes';
import { registerPaymentWebhookRoutes } from '../modules/payments/routes';
import { PaymentConfigError, paymentProviderFor, type PaymentEnv } from '../modules/payments';
import { captchaVerifier, formPages, type CaptchaEnv, type FormRouteOptions } from '../modules/forms';
import type { CaptchaScriptUrls } from '../core/forms/captcha';
import { escapeHtml } from '../core/html';
import { ERROR_PAGE_TITLE } from '../core/labels';
import type { PaymentProvider } from '../modules/payments';
import type { Site } from '../modules/site';
import { registerLikeRoutes } from '../modules/likes/routes';
import { registerPageRoutes } from './routes/pages';
import { registerVisitorPages, visitorPages } from './routes/visitorPages';
import { PageRenderer } from '../render/renderPath';
import { CLIENT_DIST_DIR, readClientAssets } from '../render/manifest';
import { installPageFastPath } from '../platform/http/pageFastPath';
import { installDraining } from '../platform/http/gracefulClose';
import { registerFormRoutes } from '../modules/forms/routes';
import { registerRestockRoutes } from '../modules/restock/routes';
import { restockPages, type RestockRouteOptions } from '../modules/restock';
import { pageLockPages, type PageLockRouteOptions } from '../modules/pageLocks';
import { AdminPages } from '../modules/admin';
import { registerAdminRoutes } from '../modules/admin/routes';
import { registerOrderAdminRoutes } from '../modules/orders/adminRoutes';
import { registerRefundAdminRoutes } from '../modules/orders/refundRoutes';
import { registerInventoryAdminRoutes } from '../modules/catalog/adminRoutes';
import { registerStaffAdminRoutes } from '../modules/siteUsers/adminRoutes';
import { registerVersionsAdminRoutes } from '../modules/site/adminRoutes';
import { registerMediaAdminRoutes } from '../modules/site/mediaRoutes';
import { registerProductAdminRoutes } from '../modules/site/productRoutes';
import { registerPagesAdminRoutes } from '../modules/site/pagesAdminRoutes';
import { registerPostsAdminRoutes } from '../modules/site/postsAdminRoutes';
import { registerCollectionsAdminRoutes } from '../modules/site/collectionsAdminRoutes';
import { registerDesignAdminRoutes } from '../modules/site/designAdmin';
import { registerSettingsAdminRoutes } from '../modules/site/settingsAdmin';
import { registerFormAdminRoutes } from '../modules/forms/adminRoutes';
import { registerGiftCardAdminRoutes } from '../modules/giftCards/adminRoutes';
import { registerRestockAdminRoutes } from '../modules/restock/adminRoutes';
import { registerSubscriptionAdminRoutes } from '../modules/subscriptions/adminRoutes';
import { registerSiteUserSession } from '../modules/siteUsers';
// The account's pages from their own file, not the module's index: the admin module imports siteUsers' index, and its
// pages (the staff invitation) import the staff rules that import the admin module — through the index, a command
// starting at the staff rules would meet the invitation page before the rules are set.
import { accountPages, type AccountRouteOptions } from '../modules/siteUsers/pages';
import type { TrustProxy } from '../config';
import { fastifyHttpOptions, httpLimits, type HttpLimits } from '../platform/http/httpLimits';
import { queueRequests } from '../platform/http/requestTurns';
import { registerModuleMailKinds } from '../modules/mailKinds';
import {
  clientBudget,
  countClientBudget,
  DEFAULT_ASSETS_RATE_LIMIT,
  perWindow,
  RateLimitCounters,
  REDIS_COMMAND_TIMEOUT_MS,
} from '../platform/http/rateLimits';

export interface BuildAppOptions {
  db: Kysely<Database>;
  engine: Engine;
  /** Logging (pino, JSON lines): one line per answered request, warnings, errors. Off by default (tests); the CLI turns it on. */
  logger?: boolean;
  /** Shared store for rate limits across processes, and site change notices (site cache); in-memory when absent. */
  redisUrl?: string;
  /**
   * Requests per minute per client IP on each cart and checkout route (default 600), counted in 10-second windows of
   * a sixth of it; the client's budget across all those routes is twice one route's (src/platform/http/rateLimits.ts).
   */
  cartRateLimitPerMinute?: number;
  /** Requests per 10 s per client IP to /assets (default DEFAULT_ASSETS_RATE_LIMIT, 300). */
  assetsRateLimitPer10s?: number;
  /**
   * Which X-Forwarded-* to believe (client IP for rate limits, https for cookies): false (none, the default), a
   * number of proxy hops, the proxies' addresses and CIDR ranges, or true (every hop: only behind a proxy that
   * replaces X-Forwarded-For, since a client can write its own). See TRUST_PROXY in src/config.ts.
   */
  trustProxy?: TrustProxy;
  /** Timeouts, keep-alive limits and the connection cap (default DEFAULT_HTTP_LIMITS, see ./httpLimits). */
  httpLimits?: Partial<HttpLimits>;
  /** Cookies only over HTTPS (default: true when NODE_ENV is production). */
  secureCookies?: boolean;
  /** Directory of the built browser bundle, passed on to the asset routes. */
  clientDir?: string;
  /** How long a looked-up site is reused (default SITE_CACHE_TTL_MS, 1 s; see src/modules/site/siteCache.ts). */
  siteCacheTtlMs?: number;
  /** Payment keys from the environment (Stripe); the test and manual providers need none. */
  paymentEnv?: PaymentEnv;
  /** Replaces the payment provider sites choose (tests: a provider that counts its calls). */
  paymentsFor?: (site: Site) => PaymentProvider;
  /** Form blocks: submissions per minute per client IP, ALTCHA's work (src/modules/forms/formRequests.ts). */
  formRoutes?: FormRouteOptions;
  /** Restock sign-ups: per minute per client IP, and per client and product (src/modules/restock/signUpRequests.ts). */
  restockRoutes?: RestockRouteOptions;
  /** Secrets and API addresses of the third-party CAPTCHA providers (reCAPTCHA Enterprise, Turnstile). */
  captchaEnv?: CaptchaEnv;
  /** Tests only: the providers' browser scripts served by a local stand-in (the pages' CSP then allows its origin). */
  captchaScripts?: CaptchaScriptUrls;
  /** PUBLIC_URL: the origin of e-mail links for the site it names (src/core/linkOrigin.ts). */
  publicUrl?: string;
  /** The port the server listens on (PORT): the staff's e-mail links on a site without a public domain. */
  port?: number;
  /** Site users' sign-in: tries per minute per client IP (src/modules/siteUsers/pages/actions.ts). */
  accountRoutes?: AccountRouteOptions;
  /** Password-protected pages: tries per client and site a minute (src/modules/pageLocks/pages/index.ts). */
  pageLockRoutes?: Omit<PageLockRouteOptions, 'counters'>;
  /** Collect the routes' descriptions for `app.swagger()` (docs/openapi.json, `npm run openapi`); off when serving. */
  describeApi?: boolean;
}

/** Largest request body accepted (the cart's JSON bodies are a few hundred bytes; form answers a few KB). */
const BODY_LIMIT_BYTES = 256 * 1024;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  // The outbox's kinds of mail: the server's jobs send the modules' mail, and its pages may write it.
  registerModuleMailKinds();
  const limits = httpLimits(options.httpLimits);
  const app = Fastify({
    ...fastifyHttpOptions(limits),
    logger: options.logger ? CONCISE_LOGGER : false,
    // Fastify's own request logging writes two long lines per request; `logRequest` below writes one short one.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(options.trustProxy ?? false),
    // JSON bodies with __proto__ or constructor.prototype are refused (400), never merged into objects (the same
    // setting for the parser that replaces Fastify's JSON parser: ./jsonBody).
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // The router's own refusals (a bad %-escape, an over-long path parameter) get the same answers as every other
    // error, instead of Fastify's default body (another shape, no HTML page, no security headers).
    frameworkErrors: (error, request, reply) => {
      // These replies run no onSend hook of the app.
      setSecurityHeaders(request, reply);
      void handleError.call(request.server, error, request, reply);
    },
    clientErrorHandler: handleClientError,
    // A request arriving on an open connection while the server closes is answered (with Connection: close), not
    // refused with a 503: a restart drops nothing (../platform/http/gracefulClose).
    return503OnClosing: false,
  });
  app.server.maxConnections = limits.maxConnections;
  installDraining(app);

  const ctx: AppContext = {
    db: options.db,
    engine: options.engine,
    secureCookies: options.secureCookies ?? process.env.NODE_ENV === 'production',
    paymentsFor: options.paymentsFor ?? paymentProviders(options.paymentEnv ?? {}),
    ...(options.clientDir !== undefined ? { clientDir: options.clientDir } : {}),
    verifyCaptcha: captchaVerifier(options.captchaEnv ?? {}, { warn: (message) => app.log.warn(message) }),
    ...(options.captchaScripts !== undefined ? { captchaScripts: options.captchaScripts } : {}),
    ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  };

  if (options.logger) app.addHook('onResponse', logRequest);
  app.setErrorHandler(handleError);
  // Node's own answers to these have no body: they get the usual one.
  app.addHook('onRequest', async (request) => {
    if (!request.headers.host && request.raw.httpVersion === '1.1')
      throw new ApiError('invalid-input', NO_HOST_MESSAGE);
  });
  app.server.on('checkExpectation', answerUnknownExpectation);
  app.server.on('connect', answerConnect);
  app.setNotFoundHandler(async (request, reply) => {
    if (!isApiRequest(request) && ctx.notFoundPage) return ctx.notFoundPage(request, reply);
    return sendError(
      request,
      reply,
      new ApiError('route-not-found', `Nothing is found at ${request.method} ${pathOf(request)}.`),
    );
  });
  // One onSend hook for every answer (each async hook costs every cached page a promise): security headers, the crumb.
  let giveCrumb: (request: FastifyRequest, reply: FastifyReply) => void = () => {};
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply, payload);
    giveCrumb(request, reply);
    done(null, payload);
  });

  // The routes' schemas describe the API (./apiDescription); the handlers validate, with the spec's texts.
  describeWithoutValidating(app);
  if (options.describeApi) await registerApiDescription(app);
  registerJsonBodyParser(app);
  await app.register(fastifyCookie);
  await app.register(fastifyCompress, { global: true, threshold: 1024 });
  const rateLimits = await rateLimitOptions(app, options.redisUrl, options.cartRateLimitPerMinute ?? 600);
  await app.register(fastifyRateLimit, rateLimits.options);
  registerSitePlugin(app, ctx, { redisUrl: options.redisUrl, ttlMs: options.siteCacheTtlMs });
  giveCrumb = registerCrumb(app, ctx);
  registerSiteUserSession(app, ctx);
  // SQLite's queries hold the event loop: one request starts per turn, so connections are accepted and read in between.
  if (ctx.engine === 'sqlite') queueRequests(app);

  // One renderer for every page, content or made for one visitor: one frame, one copy of each site version's data.
  const renderer = new PageRenderer(
    ctx.db,
    readClientAssets(ctx.clientDir ?? CLIENT_DIST_DIR, (m) => app.log.warn(m)),
    ctx.captchaScripts,
  );
  const pages = visitorPages(app, ctx, renderer);
  registerCartRoutes(app, ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 });
  registerInventoryRoutes(app, ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 });
  await registerVisitorPages(app, pages, cartPages(ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 }));
  registerContextRoutes(app);
  registerCheckoutRoutes(app, ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 });
  registerPaymentWebhookRoutes(app, ctx, { stripeWebhookSecret: options.paymentEnv?.stripeWebhookSecret });
  // Before the page routes: pages made per visitor (/checkout …), never from the page cache (./routes/visitorPages.ts).
  await registerVisitorPages(
    app,
    pages,
    checkoutPages(ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 }),
  );
  await registerVisitorPages(
    app,
    pages,
    giftCardPages(ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 }),
  );
  await registerSubscriptionRoutes(app, ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 });
  await registerVisitorPages(
    app,
    pages,
    subscriptionPages(ctx, { rateLimitPerMinute: options.cartRateLimitPerMinute ?? 600 }),
  );
  await registerAssetRoutes(app, ctx, { rateLimitPer10s: options.assetsRateLimitPer10s ?? DEFAULT_ASSETS_RATE_LIMIT });
  // Analytics calls get each cart route's budget per client (100 per 10 s by default).
  await registerAnalyticsRoutes(app, ctx, { rateLimitPer10s: perWindow(options.cartRateLimitPerMinute ?? 600) });
  await registerFormRoutes(app, ctx, { ...options.formRoutes, counters: rateLimits.counters });
  await registerVisitorPages(app, pages, formPages(ctx, { ...options.formRoutes, counters: rateLimits.counters }));
  await registerRestockRoutes(app, ctx, { ...options.restockRoutes, counters: rateLimits.counters });
  await registerVisitorPages(
    app,
    pages,
    restockPages(ctx, { ...options.restockRoutes, counters: rateLimits.counters }),
  );
  await registerVisitorPages(
    app,
    pages,
    accountPages(ctx, { ...options.accountRoutes, counters: rateLimits.counters }),
  );
  await registerVisitorPages(
    app,
    pages,
    pageLockPages(ctx, { ...options.pageLockRoutes, counters: rateLimits.counters }),
  );
  await registerLikeRoutes(app, ctx);
  const adminPages = new AdminPages(ctx, (m) => app.log.warn(m));
  registerAdminRoutes(app, ctx, adminPages);
  registerAnalyticsAdminRoutes(app, ctx, adminPages);
  registerCustomerAdminRoutes(app, ctx, adminPages);
  registerOrderAdminRoutes(app, ctx, adminPages);
  await registerRefundAdminRoutes(app, ctx, adminPages);
  registerInventoryAdminRoutes(app, ctx, adminPages);
  registerStaffAdminRoutes(app, ctx, adminPages);
  registerVersionsAdminRoutes(app, ctx, adminPages);
  registerMediaAdminRoutes(app, ctx, adminPages);
  registerProductAdminRoutes(app, ctx, adminPages, renderer);
  registerPagesAdminRoutes(app, ctx, adminPages, renderer);
  registerPostsAdminRoutes(app, ctx, adminPages, renderer);
  registerCollectionsAdminRoutes(app, ctx, adminPages);
  registerDesignAdminRoutes(app, ctx, adminPages, renderer);
  registerSettingsAdminRoutes(app, ctx, adminPages);
  registerFormAdminRoutes(app, ctx, adminPages);
  registerRestockAdminRoutes(app, ctx, adminPages);
  registerGiftCardAdminRoutes(app, ctx, adminPages);
  registerSubscriptionAdminRoutes(app, ctx, adminPages);
  await registerPageRoutes(app, ctx, renderer, pages);
  // Cached pages are answered before Fastify's routing and hooks, with the same headers (./pageFastPath).
  installPageFastPath(app, {
    trustProxy: options.trustProxy ?? false,
    secureCookies: ctx.secureCookies,
    logRequests: options.logger === true,
  });
  return app;
}

/** Fastify takes a hop count as well (the hop-th proxy from this server is the last one trusted), but its types do not. */
const trustProxyOption = (trust: TrustProxy) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

/** One provider per site settings (a Stripe client is made once, not per request). */
function paymentProviders(env: PaymentEnv): (site: Site) => PaymentProvider {
  const made = new Map<string, PaymentProvider>();
  return (site) => {
    const settings = site.settings.store.checkout.payments;
    const key = JSON.stringify(settings);
    let provider = made.get(key);
    if (!provider) made.set(key, (provider = paymentProviderFor(settings, env)));
    return provider;
  };
}

/** Level info, ISO times, no pid/hostname on every line. */
const CONCISE_LOGGER = { level: 'info', base: null, timestamp: () => `,"time":"${new Date().toISOString()}"` };

/** `GET /shop/p/speckled-mug 200 3.1 ms` (with the client address, for abuse reports). */
async function logRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  request.log.info(
    { ip: request.ip },
    `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`,
  );
}

/** Per-client budgets in 10-second windows (src/platform/http/rateLimits.ts), counted in Redis when given, else in memory. */
async function rateLimitOptions(app: FastifyInstance, redisUrl: string | undefined, cartPerMinute: number) {
  let redis: Redis | undefined;
  if (redisUrl) {
    redis = new Redis(redisUrl, {
      connectTimeout: 2000,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
      keyPrefix: 'vitrine-rl:',
    });
    // A Redis outage must not take the shop down, nor its limits: they are counted in this process meanwhile, and
    // the counters log the switch once per outage (ioredis reports every reconnection attempt: not logged here).
    redis.on('error', () => {});
    await redis
      .connect()
      .catch((error: unknown) =>
        app.log.warn({ err: error }, 'rate-limit store (Redis) unreachable at startup; retrying'),
      );
    const connection = redis;
    app.addHook('onClose', async () => {
      connection.disconnect();
    });
  }
  const counters = new RateLimitCounters(redis, app.log);
  countClientBudget(app, counters, clientBudget(cartPerMinute));
  const pluginOptions = {
    // Routes opt in (cart, checkout, assets); pages are cached and cheap.
    global: false,
    store: counters.storeClass(),
    errorResponseBuilder: () => ApiError.rateLimited(),
  };
  // The counters also count budgets of the routes' own (a form's, per client: src/modules/forms/formRequests.ts).
  return { options: pluginOptions, counters };
}

// ---------------------------------------------------------------- errors

export const PAYMENTS_UNAVAILABLE_MESSAGE = 'This shop cannot take payments right now. Please try again later.';

/** Fastify's own 4xx errors (body parsing, media type, size), with the texts we show for them. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid-json', message: INVALID_JSON_MESSAGE },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid-json', message: EMPTY_BODY_MESSAGE },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported-media-type',
    message: 'The request body must be JSON (Content-Type: application/json).',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid-input',
    message: 'The Content-Length header does not match the body.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload-too-large',
    message: `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`,
  },
  FST_ERR_BAD_URL: {
    code: 'invalid-input',
    message: 'The address has an invalid %-escape (a % must be followed by two hex digits that encode UTF-8 text).',
  },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'invalid-input', message: 'A part of the address is too long.' },
};

const FORM_MEDIA_TYPE_MESSAGE =
  'The form must be sent as application/x-www-form-urlencoded, the way a browser posts it.';

function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const e = error as Partial<FastifyError> & { statusCode?: number };
  const known = typeof e.code === 'string' ? FASTIFY_ERRORS[e.code] : undefined;
  if (known) return new ApiError(known.code, known.message);
  // Other client errors Fastify raises (a JSON syntax error, a poisoned prototype, a bad URL): 400 with its text.
  if (error instanceof SyntaxError && e.statusCode === 400) return new ApiError('invalid-json', INVALID_JSON_MESSAGE);
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 429) return ApiError.rateLimited();
    if (e.statusCode === 404) return new ApiError('route-not-found', 'Nothing is found at this address.');
    if (e.statusCode === 413)
      return new ApiError('payload-too-large', FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE!.message);
    if (e.statusCode === 415)
      return new ApiError('unsupported-media-type', FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE!.message);
    return new ApiError('invalid-input', `The request is invalid: ${e.message ?? 'unknown problem'}.`);
  }
  return null;
}

async function handleError(this: FastifyInstance, error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PaymentConfigError) {
    // The shop owner's settings, not the shopper's input: say so in the log, and tell the shopper plainly.
    request.log.error({ err: error }, `payments are not configured: ${error.message}`);
    return sendError(request, reply, new ApiError('payments-unavailable', PAYMENTS_UNAVAILABLE_MESSAGE));
  }
  // @fastify/static refuses a path that goes up ('/client/assets/../x') with a 403: to the client it names nothing.
  if (!(error instanceof ApiError) && (error as { statusCode?: unknown }).statusCode === 403)
    return reply.callNotFound();
  const apiError = toApiError(error);
  // Fastify's refusal of a media type on a page: the one page that takes a body is the checkout form, whose poster
  // must not be told "must be JSON".
  if (apiError?.code === 'unsupported-media-type' && !(error instanceof ApiError) && !isApiRequest(request)) {
    return sendError(request, reply, new ApiError(apiError.code, FORM_MEDIA_TYPE_MESSAGE));
  }
  if (apiError) return sendError(request, reply, apiError);
  // A bug or an outage: log it with the request, tell the client nothing about the internals.
  request.log.error({ err: error }, 'unexpected error');
  return sendError(request, reply, new ApiError('internal', GENERIC_ERROR_MESSAGE));
}

/** What was wrong, for the request-line and header errors of Node's HTTP parser (llhttp). */
const PARSE_ERRORS: Record<string, string> = {
  HPE_INVALID_URL:
    'The address contains characters that are not allowed (spaces, control characters and non-ASCII bytes must be %-encoded).',
  HPE_INVALID_METHOD: 'The request method is not valid.',
  HPE_INVALID_VERSION: 'The request line is not valid HTTP/1.1 (a space in the address must be written %20).',
  HPE_INVALID_CONSTANT: 'The request line is not valid HTTP/1.1 (a space in the address must be written %20).',
  HPE_INVALID_HEADER_TOKEN: 'A request header has a name or value with characters that are not allowed.',
  HPE_INVALID_CONTENT_LENGTH: 'The Content-Length header is not valid.',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'The Content-Length header is given twice, or together with Transfer-Encoding.',
  HPE_INVALID_TRANSFER_ENCODING: 'The Transfer-Encoding header is not valid.',
  HPE_INVALID_CHUNK_SIZE: 'The chunked request body is not valid.',
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a malformed request line or header, headers too
 * large, too slow): the usual error body, as JSON since no route, and so no page, is known yet.
 */
function handleClientError(error: ConnectionError, socket: Socket): void {
  const code = (error as ConnectionError & { code?: string }).code ?? '';
  if (code === 'ECONNRESET' || socket.destroyed) return;
  // Not writable, or an answer already begun (a request timing out while its answer is sent): nothing can be said.
  if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const apiError =
    code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('headers-too-large', 'The request headers (cookies included) are larger than the server accepts.')
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('request-timeout', 'The request was not received in time.')
        : new ApiError(
            'invalid-input',
            PARSE_ERRORS[code] ?? `The request is not well-formed HTTP/1.1 (${parseReason(error)}).`,
          );
  socket.end(rawErrorAnswer(apiError));
  closeAfterAnswer(socket);
}

/** How long a client has to read an error answer written straight to its socket before the connection is dropped. */
const ANSWER_LINGER_MS = 1000;

/**
 * Closes the connection for good shortly after an error answer. `end()` only closes the server's side: Node's HTTP
 * sockets are half-open, so a client that ignores the server's FIN and goes on trickling its body (a slow-request
 * attack does) would otherwise keep the connection, and its place under MAX_CONNECTIONS, for as long as it likes. The
 * short wait lets a well-behaved client read the answer before the connection is reset.
 */
function closeAfterAnswer(socket: Duplex): void {
  const timer = setTimeout(() => socket.destroy(), ANSWER_LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** An error answer written straight to the socket, then closed: for what never reaches Fastify. */
function rawErrorAnswer(apiError: ApiError, extraHeaders = ''): string {
  const body = JSON.stringify(apiError.toBody());
  return (
    `HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode]}\r\nConnection: close\r\nCache-Control: no-store\r\n${extraHeaders}` +
    `X-Content-Type-Options: nosniff\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

const NO_HOST_MESSAGE = 'The request has no Host header: HTTP/1.1 requires one, naming the site.';

/** An Expect other than 100-continue (which Node answers itself): 417, where Node would send no body. */
function answerUnknownExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(
    new ApiError('expectation-failed', 'The Expect header is not supported (only Expect: 100-continue is).').toBody(),
  );
  response.writeHead(417, {
    connection: 'close',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** CONNECT (a proxy's method) never reaches a route: Node would close the connection without a word. */
function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => {});
  if (!socket.writable) return void socket.destroy();
  socket.end(
    rawErrorAnswer(
      new ApiError('method-not-allowed', 'The CONNECT method is not supported: this server is not a proxy.'),
      'Allow: GET, HEAD, POST, PUT, DELETE\r\n',
    ),
  );
  closeAfterAnswer(socket);
}

const parseReason = (error: ConnectionError) => {
  const reason = (error as ConnectionError & { reason?: unknown }).reason;
  return typeof reason === 'string' && reason !== '' ? reason.toLowerCase() : 'unreadable';
};

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

function errorPage(error: ApiError): string {
  const title =
    error.statusCode === 404 ? 'Page not found' : error.statusCode >= 500 ? ERROR_PAGE_TITLE : 'Bad request';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${escapeHtml(error.message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
}

// ---------------------------------------------------------------- security headers

function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply, payload?: unknown): void {
  for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
  // Cached pages bring their own, computed once; other pages get theirs here (the hashes of their inline styles),
  // every other answer the base policy.
  if (!reply.hasHeader('content-security-policy')) {
    const html = typeof payload === 'string' && String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    reply.header('content-security-policy', html ? contentSecurityPolicyFor(payload) : BASE_CONTENT_SECURITY_POLICY);
  }
  if (request.protocol === 'https') reply.header(...STRICT_TRANSPORT_SECURITY);
}
