/**
 * Form blocks (spec §4, §5, §7, §8): the calls the form island makes, the ALTCHA challenge, the custom-form template
 * schema. The newsletter's confirmation page and forms posted without JavaScript (to their own page, which is made
 * again for that visitor with the errors or the success text; a success redirect is a 303) are pages made for one
 * visitor, with their form actions: ./pages/. Budgets and refusals: ./formRequests.ts.
 *
 * - POST /api/form/FormSubmissionKey → { key } (single use, FORM_KEY_LIFETIME_MS)
 * - POST /api/form/SaveFormSubmission { key, formId, form (JSON text: field id → value), captchaKey?,
 *   recaptchaEnterpriseV3Token?, pagePath?, placement? ('promoPopup'), productId? (a waitlist's product) } → 200 { ok: true } | 400 { error, errors? } | 401 | 404 | 429 with the §8
 *   texts | 503 when the site's CAPTCHA provider could not be asked
 * - POST /api/rest/forms/validate/{formId} { field id → value } → 200 { errors: {} } | 400 { errors }
 * - GET /api/template/GetTemplateSchema?type=9 → the custom-form template data
 * - GET /api/form/altcha/challenge → a signed ALTCHA challenge
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEFAULT_LIKERT_LABELS, FIELD_PARTS, FORM_FIELD_KINDS, LIKERT_SCALE } from '../../core/forms/fields';
import { CAPTCHA_ACTIONS, FORM_STATUS_MESSAGES, FORM_SUBMISSION_MESSAGES } from '../../core/forms/submission';
import { FIELD_MESSAGES } from '../../core/forms/validation';
import { createAltchaChallenge, DEFAULT_ALTCHA_DIFFICULTY } from './captcha/altcha';
import * as catalog from '../catalog';
import { issueFormKey } from './keys';
import { submitForm, validateAnswers } from './submissions';
import { mailLinkOrigin, type AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { perWindow } from '../../platform/http/rateLimits';
import { bodyObject, FORM_ID, formRequests, refusalAnswer, visitorOf, type FormRouteOptions } from './formRequests';
import {
  altchaChallengeRoute,
  formKeyRoute,
  saveFormRoute,
  templateSchemaRoute,
  validateFormRoute,
} from './routes.schema';

export { FORM_BUDGET_WINDOW_MS, type FormRouteOptions } from './formRequests';

const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_FORM_TEXT = 100_000;

/** The CAPTCHA answer of a JSON submission: reCAPTCHA Enterprise's token (§7's enterprise token) or captchaKey. */
const captchaTokenOf = (body: Record<string, unknown>): string | null =>
  typeof body.recaptchaEnterpriseV3Token === 'string'
    ? body.recaptchaEnterpriseV3Token
    : typeof body.captchaKey === 'string'
      ? body.captchaKey
      : null;

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
  const { config, overFormBudget, captchaDeps } = formRequests(ctx, options);
  const challengeConfig = { rateLimit: { ...config.rateLimit, max: perWindow(options.challengesPerMinute ?? 120) } };
  const difficulty = options.altchaDifficulty ?? DEFAULT_ALTCHA_DIFFICULTY;
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
}
