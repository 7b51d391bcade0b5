/**
 * The storefront's measurement calls (spec §7; issue 11). Each validates and bounds its input, hands the events to
 * the in-process buffer (services/analytics) and answers 202 at once with no body: measurement never slows or fails
 * a page. Beacon calls (census, performance records) cannot add a header, so they take `crumb: 'origin-only'`
 * (another website is still refused); the events endpoint takes the crumb as its form field, the error reporter as
 * its header (403 without).
 *
 *   POST /api/census/RecordHit                 form: event, data (§3 payload as JSON text), ss_cvr
 *   POST /api/census/{button-click|button-render|form-render|overlay}   form: data (JSON text), ss_cvr
 *   POST /api/census/RecordQuickView/{id}      no body
 *   POST /api/events/RecordEvent               form: event (§7 name), crumb, data (JSON text)
 *   POST /api/events/RecordJavascriptErrors    JSON list of { message, stack?, url? }, crumb header
 *   POST /api/1/performance/records            text/plain JSON list of records
 *   GET  /analytics/report?token=…[&days=30]   the merchant's report (HTML, SVG chart) for a `vitrine report token`
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ANALYTICS_LIMITS,
  ANALYTICS_PATHS,
  CENSUS_CALLS,
  isCommerceEventName,
  readCensusPayload,
  readClientErrors,
  readPerformanceRecords,
  sitePath,
  type CensusPayload,
} from '../../core/analytics';
import { PURCHASE_EVENT_NAME, purchaseEvent } from '../../core/checkout/purchaseEvent';
import { VISIT_COOKIE_SEPARATOR } from '../../core/visitorCookie';
import { AnalyticsRecorder, type AnalyticsClient, type AnalyticsEventInput } from './recorder';
import { analyticsReport } from './report';
import { siteOfReportToken } from './reportTokens';
import { getOrder } from '../orders';
import { reportHtml } from './reportPage';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { RATE_LIMIT_WINDOW_MS } from '../../platform/http/rateLimits';
import { currentSiteUser } from '../siteUsers';
import { isTrackedSiteUser } from '../../core/siteUserRoles';
import type { RouteDescription } from '../../platform/http/apiDescription';
import {
  censusRoute,
  performanceRecordsRoute,
  recordEventRoute,
  recordHitRoute,
  recordJavascriptErrorsRoute,
  recordQuickViewRoute,
  reportPageRoute,
} from './routes.schema';

/** Default analytics calls per 10 s per client IP, each route on its own (a busy page sends a handful). */
export const ANALYTICS_RATE_LIMIT_PER_10S = 100;

export interface AnalyticsRouteOptions {
  /** Requests per 10 s per client IP on each analytics route (default ANALYTICS_RATE_LIMIT_PER_10S). */
  rateLimitPer10s?: number;
}
/** The §4 visit cookie's name: the page sends its value as ss_cvr. */
export const VISIT_COOKIE = 'ss_cvr';
export const SESSION_COOKIE = 'ss_cvt';
/** The merchant's report page (token from `vitrine report token`). */
export const REPORT_PAGE_PATH = '/analytics/report';

const recorders = new WeakMap<FastifyInstance, AnalyticsRecorder>();
/** The app's recorder (tests flush its buffer). */
export const analyticsRecorderOf = (app: FastifyInstance): AnalyticsRecorder | undefined => recorders.get(app);

const invalid = (message: string) => new ApiError('invalid-input', message);

const formOf = (request: FastifyRequest): Record<string, unknown> => {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('The body must be form-encoded (Content-Type: application/x-www-form-urlencoded).');
  }
  return body as Record<string, unknown>;
};

const field = (form: Record<string, unknown>, name: string, max: number): string | undefined => {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`The field '${name}' must be given once, as text.`);
  if (value.length > max) throw invalid(`The field '${name}' is longer than ${max} characters.`);
  return value;
};

/** The page path a census call is about: the payload's, else the Referer's path (same site), else '/'. */
function pathOf(request: FastifyRequest, payload: CensusPayload | null): string {
  if (payload?.pagePath) return payload.pagePath;
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      const url = new URL(referer);
      if (url.host === request.host) return sitePath(url.pathname) ?? '/';
    } catch {
      // not a URL: no path
    }
  }
  return '/';
}

export async function registerAnalyticsRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: AnalyticsRouteOptions = {},
): Promise<void> {
  const max = options.rateLimitPer10s ?? ANALYTICS_RATE_LIMIT_PER_10S;
  const routeOptions = (crumb: 'origin-only' | true, schema: RouteDescription) => ({
    config: { crumb, rateLimit: { max, timeWindow: RATE_LIMIT_WINDOW_MS } },
    bodyLimit: ANALYTICS_LIMITS.bodyBytes,
    schema,
  });
  const recorder = new AnalyticsRecorder(ctx.db, {
    onError: (error, lost) => app.log.error({ err: error, lost }, `analytics: ${lost} events not written`),
  });
  recorders.set(app, recorder);
  app.addHook('onClose', () => recorder.close());

  const client = (request: FastifyRequest, visitCookie?: string): AnalyticsClient => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    visitCookie: visitCookie?.replace(/%7c/gi, VISIT_COOKIE_SEPARATOR),
  });
  const accepted = (reply: FastifyReply) => reply.code(202).header('cache-control', 'no-store').send();
  /** §6: a signed-in site user other than a viewer (the shop's own staff) is not tracked: their visits and shop events are dropped. */
  const untracked = async (request: FastifyRequest) => {
    const user = await currentSiteUser(request);
    return user !== null && !isTrackedSiteUser(user.role);
  };
  const TRACKING_KINDS: ReadonlySet<AnalyticsEventInput['kind']> = new Set(['hit', 'census', 'commerce']);
  const record = async (request: FastifyRequest, events: AnalyticsEventInput[], visitCookie?: string) => {
    const site = await siteOf(request);
    const kept = (await untracked(request)) ? events.filter((e) => !TRACKING_KINDS.has(e.kind)) : events;
    if (kept.length > 0) await recorder.record(site.id, client(request, visitCookie), kept);
  };

  app.get<{ Querystring: { token?: unknown; days?: unknown } }>(
    REPORT_PAGE_PATH,
    { config: { rateLimit: { max: 30, timeWindow: RATE_LIMIT_WINDOW_MS } }, schema: reportPageRoute },
    async (request, reply) => {
      const site = await siteOf(request);
      if ((await siteOfReportToken(ctx.db, request.query.token)) !== site.id) {
        throw new ApiError(
          'report-token-invalid',
          "This report needs a valid token: run 'vitrine report token' and open the address it prints.",
        );
      }
      const daysText = typeof request.query.days === 'string' ? request.query.days : '30';
      const days = /^\d{1,4}$/.test(daysText) ? Number(daysText) : NaN;
      if (!(days >= 1 && days <= 3650)) throw invalid("The parameter 'days' must be a whole number from 1 to 3650.");
      const report = await analyticsReport(ctx.db, { siteId: site.id, currency: site.currency, days, now: new Date() });
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(reportHtml(report));
    },
  );

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: ANALYTICS_LIMITS.bodyBytes });

    scope.post(ANALYTICS_PATHS.recordHit, routeOptions('origin-only', recordHitRoute), async (request, reply) => {
      const form = formOf(request);
      field(form, 'event', ANALYTICS_LIMITS.text);
      const payload = readCensusPayload(field(form, 'data', ANALYTICS_LIMITS.bodyBytes) ?? '');
      if (!payload) throw invalid("The field 'data' must be the page's census payload as JSON text.");
      const visitCookie = field(form, 'ss_cvr', ANALYTICS_LIMITS.text) ?? payload.visitorCookie;
      await record(
        request,
        [
          {
            kind: 'hit',
            name: 'RecordHit',
            path: pathOf(request, payload),
            pageType: payload.pageType ?? null,
            ref: payload.itemId ?? null,
          },
        ],
        visitCookie,
      );
      return accepted(reply);
    });

    for (const call of CENSUS_CALLS) {
      const options = routeOptions('origin-only', censusRoute(call));
      scope.post(`/api/census/${call}`, options, async (request, reply) => {
        const form = formOf(request);
        const payload = readCensusPayload(field(form, 'data', ANALYTICS_LIMITS.bodyBytes) ?? '{}');
        if (!payload) throw invalid("The field 'data' must be the page's fields as JSON text.");
        const ref =
          field(form, 'formId', ANALYTICS_LIMITS.id) ??
          field(form, 'buttonId', ANALYTICS_LIMITS.id) ??
          payload.itemId ??
          null;
        const visitCookie =
          field(form, 'ss_cvr', ANALYTICS_LIMITS.text) ??
          field(form, 'visitorCookie', ANALYTICS_LIMITS.text) ??
          payload.visitorCookie;
        await record(
          request,
          [{ kind: 'census', name: call, path: pathOf(request, payload), pageType: payload.pageType ?? null, ref }],
          visitCookie,
        );
        return accepted(reply);
      });
    }

    scope.post<{ Params: { id: string } }>(
      `${ANALYTICS_PATHS.recordQuickView}/:id`,
      routeOptions('origin-only', recordQuickViewRoute),
      async (request, reply) => {
        const id = request.params.id;
        if (!/^[A-Za-z0-9._-]{1,100}$/.test(id))
          throw invalid('The item id must be 1-100 letters, digits, dots, dashes or underscores.');
        await record(request, [{ kind: 'census', name: 'RecordQuickView', path: pathOf(request, null), ref: id }]);
        return accepted(reply);
      },
    );

    scope.post(ANALYTICS_PATHS.events, routeOptions(true, recordEventRoute), async (request, reply) => {
      const form = formOf(request);
      const event = field(form, 'event', ANALYTICS_LIMITS.text);
      if (!isCommerceEventName(event))
        throw invalid(
          `The field 'event' must name one of the shop's analytics events, not '${(event ?? '').slice(0, 60)}'.`,
        );
      const dataText = field(form, 'data', ANALYTICS_LIMITS.detail) ?? '{}';
      let data: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(dataText);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        data = parsed as Record<string, unknown>;
      } catch {
        throw invalid("The field 'data' must be a JSON object.");
      }
      const site = await siteOf(request);
      const text = (v: unknown) => (typeof v === 'string' && v.length <= ANALYTICS_LIMITS.id ? v : null);
      let ref = text(data.itemId) ?? text(data.productId) ?? text(data.id);
      let value =
        typeof data.value === 'number' && Number.isFinite(data.value) && data.value >= 0 && data.value < 1e12
          ? data.value
          : null;
      if (event === PURCHASE_EVENT_NAME) {
        // The figures come from the stored order, never from the page: a purchase event cannot invent revenue.
        const order = ref ? await getOrder(ctx.db, site.id, ref) : undefined;
        if (!order) throw invalid('The purchase event must name an order of this shop (its id).');
        ref = order.id;
        value = purchaseEvent(order).value;
      }
      const pageType = typeof data.pageType === 'number' && Number.isInteger(data.pageType) ? data.pageType : null;
      await record(
        request,
        [
          {
            kind: 'commerce',
            name: event,
            path: sitePath(data.pagePath) ?? pathOf(request, null),
            pageType,
            ref,
            value,
            detail: dataText,
          },
        ],
        request.cookies?.[VISIT_COOKIE],
      );
      return accepted(reply);
    });

    const errorsOptions = routeOptions(true, recordJavascriptErrorsRoute);
    scope.post(ANALYTICS_PATHS.javascriptErrors, errorsOptions, async (request, reply) => {
      const events = readClientErrors(request.body);
      if (!events) {
        throw invalid(
          `The body must be a JSON list of 1 to ${ANALYTICS_LIMITS.errors} errors, each with a message (and a stack, a url).`,
        );
      }
      await record(
        request,
        events.map((e) => ({
          kind: 'error',
          name: e.message.slice(0, ANALYTICS_LIMITS.text),
          path: e.path,
          detail: e.stack,
        })),
        request.cookies?.[VISIT_COOKIE],
      );
      return accepted(reply);
    });

    const vitalsOptions = routeOptions('origin-only', performanceRecordsRoute);
    scope.post(ANALYTICS_PATHS.performanceRecords, vitalsOptions, async (request, reply) => {
      const records = readPerformanceRecords(typeof request.body === 'string' ? request.body : '');
      if (!records)
        throw invalid(
          `The body must be a JSON list of at most ${ANALYTICS_LIMITS.records} performance records, sent as text/plain.`,
        );
      await record(
        request,
        records.map((r) => ({
          kind: 'vital',
          name: r.name,
          path: r.path,
          pageType: r.pageType ?? null,
          value: r.value,
          rating: r.rating,
          detail: r.element ?? null,
        })),
        request.cookies?.[VISIT_COOKIE],
      );
      return accepted(reply);
    });
  });
}
