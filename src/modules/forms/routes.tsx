/**
 * Form blocks (spec §4, §5, §7, §8): the calls the form island makes, the ALTCHA challenge, the custom-form template
 * schema, the newsletter's confirmation pages, and forms posted without JavaScript (to their own page, which is
 * rendered again for that visitor with the same errors or the success text; a success redirect is a 303).
 *
 * - POST /api/form/FormSubmissionKey → { key } (single use, FORM_KEY_LIFETIME_MS)
 * - POST /api/form/SaveFormSubmission { key, formId, form (JSON text: field id → value), captchaKey?,
 *   recaptchaEnterpriseV3Token?, pagePath?, placement? ('promoPopup'), productId? (a waitlist's product) } → 200 { ok: true } | 400 { error, errors? } | 401 | 404 | 429 with the §8
 *   texts | 503 when the site's CAPTCHA provider could not be asked
 * - POST /api/rest/forms/validate/{formId} { field id → value } → 200 { errors: {} } | 400 { errors }
 * - GET /api/template/GetTemplateSchema?type=9 → the custom-form template data
 * - GET /api/form/altcha/challenge → a signed ALTCHA challenge
 */
import fastifyFormbody from '@fastify/formbody';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { DEFAULT_LIKERT_LABELS, FIELD_PARTS, FORM_FIELD_KINDS, LIKERT_SCALE } from '../../core/forms/fields';
import { CAPTCHA_ACTIONS, FORM_STATUS_MESSAGES, FORM_SUBMISSION_MESSAGES } from '../../core/forms/submission';
import { FIELD_MESSAGES } from '../../core/forms/validation';
import { hiddenFieldValue } from '../../core/forms/values';
import { PageType } from '../../core/enums';
import { CRUMB_FIELD } from '../../core/crumb';
import { contentSecurityPolicyFor } from '../../render/contentSecurityPolicy';
import { CLIENT_DIST_DIR, readClientAssets } from '../../render/manifest';
import { canonicalPath, PageRenderer } from '../../render/renderPath';
import { createAltchaChallenge, DEFAULT_ALTCHA_DIFFICULTY, type AltchaDifficulty } from './captcha/altcha';
import type { CaptchaVisitor } from './captcha';
import * as catalog from '../catalog';
import { issueFormKey } from './keys';
import { confirmSubscription, NEWSLETTER_CONFIRM_PATH } from './newsletter';
import { submitForm, validateAnswers, type SubmissionRefusal } from './submissions';
import type { Site } from '../site';
import { ALTCHA_FIELD, FORM_ID_FIELD } from '../../client/islands/FormBlockForm';
import { readFormInputs } from '../../ui/FormFields';
import { CRUMB_PLACEHOLDER, type FormPostState } from '../../ui/formPost';
import { mailLinkOrigin, type AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { perWindow, RATE_LIMIT_WINDOW_MS, type RateLimitCounters } from '../../platform/http/rateLimits';
import {
  altchaChallengeRoute,
  formKeyRoute,
  formPostRoute,
  newsletterConfirmPageRoute,
  newsletterConfirmRoute,
  saveFormRoute,
  templateSchemaRoute,
  validateFormRoute,
} from './routes.schema';

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

const FORM_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_FORM_TEXT = 100_000;

/** The §8 answer of a refusal: its status and body. */
function refusalAnswer(refusal: SubmissionRefusal): {
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
const visitorOf = (request: FastifyRequest): CaptchaVisitor => ({
  hostname: request.hostname,
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

/** The CAPTCHA answer of a JSON submission: reCAPTCHA Enterprise's token (§7's enterprise token) or captchaKey. */
const captchaTokenOf = (body: Record<string, unknown>): string | null =>
  typeof body.recaptchaEnterpriseV3Token === 'string'
    ? body.recaptchaEnterpriseV3Token
    : typeof body.captchaKey === 'string'
      ? body.captchaKey
      : null;

const bodyObject = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** The custom-form template (type 9): the field kinds, their parts, the likert scale and the texts of §5. */
export const FORM_TEMPLATE_SCHEMA = {
  type: 9,
  fieldKinds: FORM_FIELD_KINDS,
  parts: FIELD_PARTS,
  likert: { scale: LIKERT_SCALE, labels: DEFAULT_LIKERT_LABELS },
  messages: FIELD_MESSAGES,
  captchaActions: CAPTCHA_ACTIONS,
} as const;

export async function registerFormRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: FormRouteOptions = {},
): Promise<void> {
  const config = {
    rateLimit: {
      max: perWindow(options.submissionsPerMinute ?? 60),
      timeWindow: RATE_LIMIT_WINDOW_MS,
      errorResponseBuilder: () => new ApiError('rate-limited', FORM_STATUS_MESSAGES[429]),
    },
  };
  const challengeConfig = { rateLimit: { ...config.rateLimit, max: perWindow(options.challengesPerMinute ?? 120) } };
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
  const difficulty = options.altchaDifficulty ?? DEFAULT_ALTCHA_DIFFICULTY;
  const renderer = new PageRenderer(
    ctx.db,
    readClientAssets(ctx.clientDir ?? CLIENT_DIST_DIR, (m) => app.log.warn(m)),
    ctx.captchaScripts,
  );
  const captchaDeps = ctx.verifyCaptcha ? { verifyCaptcha: ctx.verifyCaptcha } : {};

  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.post('/api/form/FormSubmissionKey', { config, schema: formKeyRoute }, async (request, reply) => {
    const site = await siteOf(request);
    noStore(reply);
    return { key: await issueFormKey(ctx.db, site.id) };
  });

  app.post('/api/form/SaveFormSubmission', { config, schema: saveFormRoute }, async (request, reply) => {
    const site = await siteOf(request);
    const body = bodyObject(request.body);
    noStore(reply);
    if (typeof body.formId !== 'string' || !FORM_ID.test(body.formId))
      return reply.code(404).send({ error: FORM_STATUS_MESSAGES[404] });
    let values: unknown;
    try {
      if (typeof body.form !== 'string' || body.form.length > MAX_FORM_TEXT) throw new Error('not text');
      values = JSON.parse(body.form);
      if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new Error('not an object');
    } catch {
      return reply.code(400).send({ error: FORM_SUBMISSION_MESSAGES.unparsableFields });
    }
    const wait = await overFormBudget(request, site.id, body.formId);
    if (wait !== null) return reply.code(429).header('retry-after', wait).send({ error: FORM_STATUS_MESSAGES[429] });
    const result = await submitForm(
      ctx.db,
      site,
      {
        formId: body.formId,
        key: typeof body.key === 'string' ? body.key : '',
        values,
        captchaToken: captchaTokenOf(body),
        pagePath: typeof body.pagePath === 'string' && /^\/[^\s]{0,500}$/.test(body.pagePath) ? body.pagePath : null,
        baseUrl: mailLinkOrigin(ctx, site, request),
        visitor: visitorOf(request),
        placement: body.placement === 'promoPopup' ? 'promoPopup' : null,
        productId: typeof body.productId === 'string' && PRODUCT_ID.test(body.productId) ? body.productId : null,
      },
      captchaDeps,
    );
    if (result.ok) return { ok: true };
    const answer = refusalAnswer(result.error);
    return reply.code(answer.status).send(answer.body);
  });

  const checkOpts = { config, schema: validateFormRoute };
  app.post<{ Params: { formId: string } }>('/api/rest/forms/validate/:formId', checkOpts, async (request, reply) => {
    const site = await siteOf(request);
    noStore(reply);
    const form = FORM_ID.test(request.params.formId)
      ? await catalog.getForm(ctx.db, site.id, request.params.formId)
      : undefined;
    if (!form) return reply.code(404).send({ error: FORM_STATUS_MESSAGES[404] });
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return reply.code(400).send({ error: FORM_SUBMISSION_MESSAGES.unparsableFields });
    const checked = validateAnswers(form, body);
    if (checked.ok) return { errors: {} };
    return reply.code(400).send({ errors: checked.error });
  });

  const tmplOpts = { schema: templateSchemaRoute };
  app.get<{ Querystring: { type?: string } }>('/api/template/GetTemplateSchema', tmplOpts, async (request, reply) => {
    const type = request.query.type;
    if (type === undefined || !/^\d{1,4}$/.test(type))
      throw new ApiError(
        'invalid-input',
        "The query parameter 'type' must be a template type number (9: the custom form).",
        { field: 'type' },
      );
    if (type !== '9') throw new ApiError('route-not-found', `There is no template schema of type ${type}.`);
    reply.header('cache-control', 'public, max-age=3600');
    return FORM_TEMPLATE_SCHEMA;
  });

  const challengeOptions = { config: challengeConfig, schema: altchaChallengeRoute };
  app.get('/api/form/altcha/challenge', challengeOptions, async (request, reply) => {
    const site = await siteOf(request);
    noStore(reply);
    return createAltchaChallenge(ctx.db, site.id, difficulty);
  });

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    const sendPage = async (reply: FastifyReply, site: Site, title: string, body: ReactNode, status = 200) => {
      const rendered = await renderer.renderVisitorPage(site, {
        path: NEWSLETTER_CONFIRM_PATH,
        pageType: PageType.PAGE,
        title,
        description: title,
        body,
        status,
      });
      return reply
        .code(rendered.status)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(rendered.html);
    };

    // The link in the confirmation e-mail shows a button: a link checker that follows it confirms nothing.
    const confirmPage = { schema: newsletterConfirmPageRoute };
    scope.get<{ Querystring: { token?: string } }>(NEWSLETTER_CONFIRM_PATH, confirmPage, async (request, reply) => {
      const site = await siteOf(request);
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      const crumb = pageCrumb(request, reply, ctx);
      return sendPage(
        reply,
        site,
        'Confirm your subscription',
        <section className="newsletter-confirm">
          <h1 className="page-title">Confirm your subscription</h1>
          <p>Press the button to join the mailing list of {site.title}.</p>
          <form method="post" action={NEWSLETTER_CONFIRM_PATH}>
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name={CRUMB_FIELD} value={crumb} />
            <button type="submit" className="button button--primary">
              Confirm my subscription
            </button>
          </form>
        </section>,
      );
    });

    scope.post(NEWSLETTER_CONFIRM_PATH, { config, schema: newsletterConfirmRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const email = await confirmSubscription(ctx.db, site.id, bodyObject(request.body).token);
      if (email === null) {
        return sendPage(
          reply,
          site,
          'Link not valid',
          <section>
            <h1 className="page-title">This link is not valid</h1>
            <p>It was already used, or a newer one was sent. Sign up again to get a new link.</p>
          </section>,
          404,
        );
      }
      return sendPage(
        reply,
        site,
        'Subscription confirmed',
        <section role="status">
          <h1 className="page-title">Subscription confirmed</h1>
          <p>
            {email} is on the mailing list of {site.title}. Thank you!
          </p>
        </section>,
      );
    });

    // A form posted without JavaScript, to its own page (any query kept: hidden fields read it).
    scope.post('/*', { config, schema: formPostRoute }, async (request, reply) => {
      if (request.url.startsWith('/api/')) return reply.callNotFound();
      const body = bodyObject(request.body);
      const formId = body[FORM_ID_FIELD];
      if (typeof formId !== 'string' || !FORM_ID.test(formId)) return reply.callNotFound();
      const site = await siteOf(request);
      const path = canonicalPath(request.url);
      const page = await catalog.getPageByPath(ctx.db, site.id, path);
      const block = page?.blocks.find(
        (b) =>
          (b.type === 'form' || b.type === 'productWaitlist') &&
          b.formId === formId &&
          (b.type === 'form' ||
            b.productId === undefined ||
            body.productId === undefined ||
            b.productId === body.productId),
      );
      const form = block ? await catalog.getForm(ctx.db, site.id, formId) : undefined;
      if (!page || !form) return reply.callNotFound();
      const values = (name: string): string[] => {
        const value = body[name];
        return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
      };
      const raw = readFormInputs(form.fields, values);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      for (const field of form.fields) {
        if (field.kind === 'hidden') raw[field.id] = hiddenFieldValue(field, query);
      }
      // What the visitor typed, by input name, to fill the fields in again (React escapes it); hidden ones excepted.
      const posted: Record<string, string[]> = {};
      for (const field of form.fields) {
        if (field.kind === 'hidden') continue;
        for (const name of Object.keys(body)) {
          if (name === field.id || name.startsWith(`${field.id}.`)) posted[name] = values(name).slice(0, 100);
        }
      }
      const wait = await overFormBudget(request, site.id, formId);
      if (wait !== null) reply.header('retry-after', wait);
      const result =
        wait !== null
          ? null
          : await submitForm(
              ctx.db,
              site,
              {
                formId,
                // The crumb (checked before this handler) stands in for the key: this post came from the site's own page.
                key: null,
                values: raw,
                captchaToken: typeof body[ALTCHA_FIELD] === 'string' ? (body[ALTCHA_FIELD] as string) : null,
                pagePath: path,
                baseUrl: mailLinkOrigin(ctx, site, request),
                visitor: visitorOf(request),
                productId: block?.type === 'productWaitlist' ? (block.productId ?? null) : null,
              },
              captchaDeps,
            );
      let state: FormPostState;
      let status = 200;
      if (result === null) {
        status = 429;
        state = { formId, fieldErrors: {}, error: FORM_STATUS_MESSAGES[429], success: false, values: posted };
      } else if (result.ok) {
        if (form.successRedirect && /^\/(?![/\\])[^\t\n\r]*$/.test(form.successRedirect)) {
          return reply.header('cache-control', 'no-store').redirect(form.successRedirect, 303);
        }
        state = { formId, fieldErrors: {}, error: null, success: true, values: {} };
      } else {
        const answer = refusalAnswer(result.error);
        status = answer.status;
        state = {
          formId,
          fieldErrors: answer.body.errors ?? {},
          error: answer.body.error,
          success: false,
          values: posted,
        };
      }
      const rendered = await renderer.render(site, path, state);
      const crumb = pageCrumb(request, reply, ctx);
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .header('content-security-policy', contentSecurityPolicyFor(rendered.html, rendered.policySources))
        .type('text/html; charset=utf-8')
        .send(rendered.html.replaceAll(CRUMB_PLACEHOLDER, crumb));
    });
  });
}
