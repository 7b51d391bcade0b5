/**
 * What the restock routes share (the JSON call, ./routes.ts; the form without JavaScript and the unsubscribe link,
 * ./pages/): each route's budget per client IP, the per-product budget, the sign-up's context, a refusal's answer.
 *
 * Rate limits: each route has a budget per client IP (`signUpsPerMinute`, default 30); sign-ups also count per client
 * and product (`signUpsPerProductPerMinute`, default 10) in the app's counters (Redis when configured, so every
 * process shares them). Over either: 429, Retry-After, §8's 'Unable to submit form. Submission rate limit exceeded.
 * Please try again later.'
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FORM_STATUS_MESSAGES } from '../../core/forms/submission';
import { mailLinkOrigin, type AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import {
  perWindow,
  RATE_LIMIT_WINDOW_MS,
  retryAfterSeconds,
  type RateLimitCounters,
} from '../../platform/http/rateLimits';
import type { CaptchaVisitor } from '../forms';
import type { Site } from '../site';
import type { RestockSignUpContext, RestockSignUpRefusal } from './signUps';

export interface RestockRouteOptions {
  /** Sign-ups (and unsubscribes) per minute per client IP on each route (default 30). */
  signUpsPerMinute?: number;
  /** Sign-ups per minute per client IP to one product (default 10), on top of the route's budget. */
  signUpsPerProductPerMinute?: number;
  /** The app's rate-limit counters (src/platform/http/rateLimits.ts); without them the per-product budget is not counted. */
  counters?: RateLimitCounters;
}

export const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A refusal as the one error answer (its message is what the form shows). */
export function restockRefusalError(refusal: RestockSignUpRefusal): ApiError {
  switch (refusal.kind) {
    case 'invalid':
      return new ApiError('invalid-input', refusal.message, refusal.field ? { field: refusal.field } : {});
    case 'not-found':
      return new ApiError('product-not-found', refusal.message);
    case 'not-offered':
      return new ApiError('restock-not-offered', refusal.message);
    case 'captcha':
      return new ApiError('captcha-refused', refusal.message);
    case 'captcha-unavailable':
      return new ApiError('captcha-unavailable', refusal.message);
  }
}

export const bodyObject = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

const visitorOf = (request: FastifyRequest): CaptchaVisitor => ({
  hostname: request.hostname,
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

/** The routes' budgets and the sign-up's context, for one app. */
export function restockRequests(ctx: AppContext, options: RestockRouteOptions) {
  const config = {
    rateLimit: {
      max: perWindow(options.signUpsPerMinute ?? 30),
      timeWindow: RATE_LIMIT_WINDOW_MS,
      errorResponseBuilder: () => new ApiError('rate-limited', FORM_STATUS_MESSAGES[429]),
    },
  };
  const perProduct = perWindow(options.signUpsPerProductPerMinute ?? 10);
  /** Counts a sign-up to this product by this client: null within the budget, else the seconds to wait. */
  const overProductBudget = async (
    request: FastifyRequest,
    siteId: string,
    productId: unknown,
  ): Promise<number | null> => {
    if (!options.counters) return null;
    const product = typeof productId === 'string' && PRODUCT_ID.test(productId) ? productId : '-';
    const { current, ttl } = await options.counters.incr(
      `restock:${siteId}:${product}:${normalizeIP(request.ip)}`,
      RATE_LIMIT_WINDOW_MS,
    );
    return current > perProduct ? retryAfterSeconds(ttl) : null;
  };
  const signUpContext = (request: FastifyRequest, site: Site): RestockSignUpContext => ({
    baseUrl: mailLinkOrigin(ctx, site, request),
    visitor: visitorOf(request),
    ...(ctx.verifyCaptcha ? { verifyCaptcha: ctx.verifyCaptcha } : {}),
  });
  return { config, overProductBudget, signUpContext };
}

/** The sign-up's fields (the JSON call's body; the form's, as text), described for docs/openapi.json. */
export const restockSignUpFields = z.object({
  isJoinMailingList: z.boolean().optional(),
  productId: z.string(),
  siteVisitorEmail: z.string(),
  variantId: z.string().describe("The variant's SKU."),
  recaptchaEnterpriseV3Token: z
    .string()
    .nullable()
    .optional()
    .describe("The site's CAPTCHA answer whatever its provider; null when it has none."),
});
