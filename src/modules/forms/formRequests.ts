/**
 * What the forms' routes share (the island's calls, ./routes.tsx; the pages and posts without JavaScript, ./pages/):
 * each route's budget per client IP, the per-form budget, a refusal's §8 answer, what a CAPTCHA check reads.
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { FORM_STATUS_MESSAGES, FORM_SUBMISSION_MESSAGES } from '../../core/forms/submission';
import { FIELD_MESSAGES } from '../../core/forms/validation';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { perWindow, RATE_LIMIT_WINDOW_MS, type RateLimitCounters } from '../../platform/http/rateLimits';
import type { AltchaDifficulty } from './captcha/altcha';
import type { CaptchaVisitor } from './captcha';
import type { SubmissionRefusal } from './submissions';

export interface FormRouteOptions {
  /**
   * Form submissions (and keys) per minute per client IP on each route (default 60: 10 per 10-second window, so a
   * visitor sending several forms of a page in a row — contact, newsletter, a restock sign-up — is never refused;
   * the per-form budget below is what holds one form against a flood).
   */
  submissionsPerMinute?: number;
  /**
   * Submissions per minute per client IP to each form (default 10), on top of the route's budget: one form cannot
   * take a client's whole budget. Counted over a whole minute (FORM_BUDGET_WINDOW_MS), not in 10-second windows, so
   * a few quick tries (a refused one, then again) are never refused; in `counters` (Redis when configured: shared by
   * every process).
   */
  submissionsPerFormPerMinute?: number;
  /**
   * ALTCHA challenges per minute per client IP (default 120): one per form a visitor starts on and one after each
   * failed submission (the widget solves them by itself), so more than submissions; worthless without the work.
   */
  challengesPerMinute?: number;
  /** ALTCHA's work (tests make it light). */
  altchaDifficulty?: AltchaDifficulty;
  /** The app's rate-limit counters (src/platform/http/rateLimits.ts); without them the per-form budget is not counted. */
  counters?: RateLimitCounters;
}

/** The per-form budget's window: a minute, as its setting says. */
export const FORM_BUDGET_WINDOW_MS = 60_000;

export const FORM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The §8 answer of a refusal: its status and body. */
export function refusalAnswer(refusal: SubmissionRefusal): {
  status: number;
  body: { error: string; errors?: Record<string, string> };
} {
  switch (refusal.kind) {
    case 'form-not-found':
      return { status: 404, body: { error: FORM_STATUS_MESSAGES[404] } };
    case 'key-refused':
      return { status: 401, body: { error: FORM_STATUS_MESSAGES[401] } };
    case 'fields':
      return { status: 400, body: { error: FORM_SUBMISSION_MESSAGES.invalidFields, errors: refusal.fieldErrors } };
    case 'captcha':
      return { status: 400, body: { error: FIELD_MESSAGES.captchaIncomplete } };
    case 'captcha-unavailable':
      // The provider did not answer (or is not set up here): nothing was judged, so the visitor may try again.
      return { status: 503, body: { error: FORM_STATUS_MESSAGES[500] } };
  }
}

/** What a third-party CAPTCHA's checks read of the request. */
export const visitorOf = (request: FastifyRequest): CaptchaVisitor => ({
  hostname: request.hostname,
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

export const bodyObject = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** The routes' budgets and the CAPTCHA check, for one app. */
export function formRequests(ctx: AppContext, options: FormRouteOptions) {
  const config = {
    rateLimit: {
      max: perWindow(options.submissionsPerMinute ?? 60),
      timeWindow: RATE_LIMIT_WINDOW_MS,
      errorResponseBuilder: () => new ApiError('rate-limited', FORM_STATUS_MESSAGES[429]),
    },
  };
  const perForm = Math.max(1, options.submissionsPerFormPerMinute ?? 10);
  /** Counts a submission to this form by this client: null within the budget, else the seconds to wait. */
  const overFormBudget = async (request: FastifyRequest, siteId: string, formId: string): Promise<number | null> => {
    if (!options.counters) return null;
    const { current, ttl } = await options.counters.incr(
      `form-minute:${siteId}:${formId}:${normalizeIP(request.ip)}`,
      FORM_BUDGET_WINDOW_MS,
    );
    return current > perForm ? Math.min(FORM_BUDGET_WINDOW_MS / 1000, Math.max(1, Math.ceil(ttl / 1000))) : null;
  };
  const captchaDeps = ctx.verifyCaptcha ? { verifyCaptcha: ctx.verifyCaptcha } : {};
  return { config, overFormBudget, captchaDeps };
}
