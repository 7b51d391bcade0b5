/**
 * Rate limits. A refusal answers 429 with §8's 'Please try again in a few seconds.', so every budget is counted per
 * client IP in fixed windows of RATE_LIMIT_WINDOW_MS (10 s): Retry-After is never more than 10.
 *
 * - Each cart and checkout route (the cart API, `POST /api/commerce/checkout/*`, `POST /checkout`) has its own budget
 *   (`writeRouteConfig`), and all of them together also count against the client's global budget, twice one route's
 *   (`config.clientBudget`, counted by `countClientBudget`).
 * - `/assets` has its own budget (./routes/assets.ts).
 * - `/search` has its own budget (./routes/pages.tsx): its pages are rendered per query.
 *
 * Counters (`RateLimitCounters`) live in Redis when it is configured, shared by every process; otherwise in this
 * process. While Redis cannot be reached (down, restarting, not answering within REDIS_COMMAND_TIMEOUT_MS) they are
 * counted in this process instead — a limit never switches off — and the switch is logged once per outage.
 */
import { normalizeIP } from '@fastify/rate-limit';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import type { Redis } from 'ioredis';
import { LruCache } from '../../render/lru';
import { ApiError } from './errors';

/** Every budget is per client IP per 10-second window. */
export const RATE_LIMIT_WINDOW_MS = 10_000;
/** Default of `cartRateLimitPerMinute`: 100 requests per 10 s on each cart or checkout route, 200 across them. */
export const DEFAULT_CART_RATE_LIMIT_PER_MINUTE = 600;
/** Default budget of `/assets` per 10 s: a product grid loads about 20 images, so 15 such pages. */
export const DEFAULT_ASSETS_RATE_LIMIT = 300;
/** Budget of `/search` per 10 s: every search renders (results are not cached), so a client gets 3 a second. */
export const SEARCH_RATE_LIMIT = 30;
/** A Redis command slower than this counts as Redis being down. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** After a failed Redis command, counting stays in this process this long before Redis is tried again. */
const REDIS_RETRY_AFTER_MS = 1000;
/** Clients counted in memory (per route); past that the least recently seen are forgotten. */
const LOCAL_COUNTERS = 20_000;

/** A per-minute figure as a budget per window (rounded up, at least 1). */
export const perWindow = (perMinute: number): number =>
  Math.max(1, Math.ceil((perMinute * RATE_LIMIT_WINDOW_MS) / 60_000));
/** The client's budget across every cart and checkout route: twice one route's. */
export const clientBudget = (perMinute: number): number => 2 * perWindow(perMinute);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route counts against the client's global budget of cart and checkout requests (`countClientBudget`). */
    clientBudget?: boolean;
  }
}

/** The route config of a cart or checkout route: its own budget, and a share of the client's global one. */
export const writeRouteConfig = (perMinute: number) =>
  ({ rateLimit: { max: perWindow(perMinute), timeWindow: RATE_LIMIT_WINDOW_MS }, clientBudget: true }) as const;

/** Seconds to announce in Retry-After for a window that ends in `ttlMs` (1–10). */
export const retryAfterSeconds = (ttlMs: number): number =>
  Math.min(Math.ceil(RATE_LIMIT_WINDOW_MS / 1000), Math.max(1, Math.ceil(ttlMs / 1000)));

interface Count {
  current: number;
  ttl: number;
}

/** INCR with the window set on the first request (and repaired if a key ever lost its expiry). */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

type RedisWithCounter = Redis & { vitrineRateLimit(key: string, windowMs: number): Promise<[number, number]> };

export class RateLimitCounters {
  readonly #local = new LruCache<string, { count: number; resetAt: number }>(LOCAL_COUNTERS);
  #counting: 'redis' | 'local' = 'redis';
  #retryRedisAt = 0;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {
    redis?.defineCommand('vitrineRateLimit', { numberOfKeys: 1, lua: INCR_SCRIPT });
  }

  /** Counts one request of `key` in its window: how many so far, and the ms left in the window. Never throws. */
  async incr(key: string, windowMs: number): Promise<Count> {
    const redis = this.redis as RedisWithCounter | undefined;
    if (!redis) return this.#incrLocal(key, windowMs);
    if (redis.status === 'ready' && this.now() >= this.#retryRedisAt) {
      try {
        const [current, ttl] = await redis.vitrineRateLimit(key, windowMs);
        if (this.#counting === 'local') {
          this.#counting = 'redis';
          this.log.info('rate limits are counted in Redis again (shared by every process)');
        }
        return { current, ttl };
      } catch (error) {
        this.#retryRedisAt = this.now() + REDIS_RETRY_AFTER_MS;
        this.#fallBack(error);
      }
    } else {
      this.#fallBack(new Error(`Redis connection is ${redis.status}`));
    }
    return this.#incrLocal(key, windowMs);
  }

  #fallBack(error: unknown): void {
    if (this.#counting === 'local') return;
    this.#counting = 'local';
    this.log.warn(
      { err: error },
      'rate-limit store (Redis) unreachable: limits are counted in this process until it answers',
    );
  }

  #incrLocal(key: string, windowMs: number): Count {
    const now = this.now();
    let counter = this.#local.get(key);
    if (!counter || counter.resetAt <= now) {
      counter = { count: 0, resetAt: now + windowMs };
      this.#local.set(key, counter);
    }
    counter.count++;
    return { current: counter.count, ttl: counter.resetAt - now };
  }

  /** The store class @fastify/rate-limit takes (`store` option): one counter per route and client. */
  storeClass() {
    const incr = (key: string, windowMs: number) => this.incr(key, windowMs);
    return class RateLimitStore {
      readonly #prefix: string;

      constructor(prefix?: unknown) {
        // The plugin passes its options to the first store; children get their route's name.
        this.#prefix = typeof prefix === 'string' ? prefix : '';
      }

      incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number): void {
        incr(this.#prefix + key, timeWindow).then(
          (count) => callback(null, count),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      }

      child(options: unknown): RateLimitStore {
        const route = (options as { routeInfo?: { method?: unknown; url?: unknown } } | undefined)?.routeInfo;
        return new RateLimitStore(typeof route?.url === 'string' ? `${String(route.method)} ${route.url}:` : 'custom:');
      }
    };
  }
}

/**
 * Every route whose config says `clientBudget` also counts each request against the client's global budget of
 * `max` per window, after its own budget (so a request refused by its route is not counted twice). Call before the
 * routes are registered.
 */
export function countClientBudget(app: FastifyInstance, counters: RateLimitCounters, max: number): void {
  const check: onRequestAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const { current, ttl } = await counters.incr(`client:${normalizeIP(request.ip)}`, RATE_LIMIT_WINDOW_MS);
    if (current > max) {
      reply.header('retry-after', retryAfterSeconds(ttl));
      throw ApiError.rateLimited();
    }
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.clientBudget) return;
    const hooks = route.onRequest;
    route.onRequest = [...(Array.isArray(hooks) ? hooks : hooks ? [hooks] : []), check];
  });
}
