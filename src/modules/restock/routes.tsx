/**
 * Restock (back in stock) sign-ups, spec §3, §5, §7, §8 (the sign-up's path is "not shown": ours, in docs/api.md),
 * and the unsubscribe link of restock e-mails:
 *
 * - POST /api/commerce/restock-notifications, JSON { isJoinMailingList, productId, siteVisitorEmail, variantId,
 *   recaptchaEnterpriseV3Token } → 200 { signedUp: true } | 400 (the §5 e-mail texts, field siteVisitorEmail; bad ids;
 *   CAPTCHA) | 404 | 409 (not offered, in stock) | 429 | 503 — each { code, message, type, field? }: the form shows
 *   `message`.
 * - POST /restock/sign-up: the same fields from the form without JavaScript (the crumb, or a same-origin post; the ALTCHA widget's
 *   `altcha` field stands for the token) → the product's page again, for this visitor, with the outcome in the form.
 * - GET /restock/unsubscribe?token= → what the link is for and a button (link checkers that open it change
 *   nothing); POST /restock/unsubscribe { token, crumb } → the sign-up removed.
 *
 * The account area's calls (lists, sends) are in ./restockAccount.ts, registered with these.
 *
 * Rate limits: each route has a budget per client IP (`signUpsPerMinute`, default 30); sign-ups also count per client
 * and product (`signUpsPerProductPerMinute`, default 10) in the app's counters (Redis when configured, so every
 * process shares them). Over either: 429, Retry-After, §8's 'Unable to submit form. Submission rate limit exceeded.
 * Please try again later.'
 */
import fastifyFormbody from '@fastify/formbody';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { CRUMB_FIELD } from '../../core/crumb';
import { PageType } from '../../core/enums';
import { FORM_STATUS_MESSAGES } from '../../core/forms/submission';
import { RESTOCK_FIELDS } from '../../core/restock';
import { contentSecurityPolicyFor } from '../../render/contentSecurityPolicy';
import { CLIENT_DIST_DIR, readClientAssets } from '../../render/manifest';
import { PageRenderer } from '../../render/renderPath';
import type { CaptchaVisitor } from '../forms';
import * as catalog from '../catalog';
import { RESTOCK_UNSUBSCRIBE_PATH } from './send';
import { signUpForRestock, type RestockSignUpContext, type RestockSignUpRefusal } from './signUps';
import { findRestockSubscription, unsubscribeRestock } from './unsubscribe';
import type { Site } from '../site';
import { RESTOCK_FORM_PATH, RESTOCK_SIGN_UP_API } from '../../client/islands/RestockSignUp';
import { ALTCHA_FIELD } from '../../client/captcha/useCaptcha';
import { CRUMB_PLACEHOLDER, type FormPostState } from '../../ui/formPost';
import { restockPostId } from '../../ui/RestockSignUpBlock';
import { registerRestockAccountRoutes } from './accountRoutes';
import { mailLinkOrigin, type AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import {
  perWindow,
  RATE_LIMIT_WINDOW_MS,
  retryAfterSeconds,
  type RateLimitCounters,
} from '../../platform/http/rateLimits';
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
} from '../../platform/http/apiDescription';

export interface RestockRouteOptions {
  /** Sign-ups (and unsubscribes) per minute per client IP on each route (default 30). */
  signUpsPerMinute?: number;
  /** Sign-ups per minute per client IP to one product (default 10), on top of the route's budget. */
  signUpsPerProductPerMinute?: number;
  /** The app's rate-limit counters (src/platform/http/rateLimits.ts); without them the per-product budget is not counted. */
  counters?: RateLimitCounters;
}

const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_POSTED_TEXT = 300;

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

const bodyObject = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
const text = (value: unknown): string => (typeof value === 'string' ? value.slice(0, MAX_POSTED_TEXT) : '');

const visitorOf = (request: FastifyRequest): CaptchaVisitor => ({
  hostname: request.hostname,
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

export async function registerRestockRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: RestockRouteOptions = {},
): Promise<void> {
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
  const renderer = new PageRenderer(
    ctx.db,
    readClientAssets(ctx.clientDir ?? CLIENT_DIST_DIR, (m) => app.log.warn(m)),
    ctx.captchaScripts,
  );
  // The merchant's side: the account area's lists and sends (./restockAccount.ts).
  registerRestockAccountRoutes(app, ctx);

  app.post(RESTOCK_SIGN_UP_API, { config, schema: restockSignUpRoute }, async (request, reply) => {
    const site = await siteOf(request);
    reply.header('cache-control', 'no-store');
    const wait = await overProductBudget(request, site.id, bodyObject(request.body).productId);
    if (wait !== null) {
      reply.header('retry-after', wait);
      throw new ApiError('rate-limited', FORM_STATUS_MESSAGES[429]);
    }
    const result = await signUpForRestock(ctx.db, site, request.body, signUpContext(request, site));
    if (!result.ok) throw restockRefusalError(result.error);
    return { signedUp: true };
  });

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    // The form without JavaScript: the product's page again, with the outcome in the form.
    // Posted from the product's shared cached page, which carries no per-visitor crumb: the browser's word that the
    // form is this site's own is enough (src/platform/http/crumb.ts).
    const formOptions = { config: { ...config, crumb: 'crumb-or-same-origin' as const }, schema: restockFormRoute };
    scope.post(RESTOCK_FORM_PATH, formOptions, async (request, reply) => {
      const site = await siteOf(request);
      const body = bodyObject(request.body);
      const productId = body[RESTOCK_FIELDS.productId];
      const product =
        typeof productId === 'string' && PRODUCT_ID.test(productId)
          ? await catalog.getProduct(ctx.db, site.id, productId)
          : undefined;
      const collection = product && (await catalog.getCollection(ctx.db, site.id, product.collectionId));
      if (!product || !collection) return reply.callNotFound();
      const values: Record<string, string[]> = {
        siteVisitorEmail: [text(body[RESTOCK_FIELDS.email])],
        variantId: [text(body[RESTOCK_FIELDS.variantId])],
        isJoinMailingList: body[RESTOCK_FIELDS.joinMailingList] === 'true' ? ['true'] : [],
      };
      const outcome = (fields: Partial<FormPostState>): FormPostState => ({
        formId: restockPostId(product.id),
        fieldErrors: {},
        error: null,
        success: false,
        values,
        ...fields,
      });
      let state: FormPostState;
      let status = 200;
      const wait = await overProductBudget(request, site.id, product.id);
      if (wait !== null) {
        reply.header('retry-after', wait);
        status = 429;
        state = outcome({ error: FORM_STATUS_MESSAGES[429] });
      } else {
        const token = body[RESTOCK_FIELDS.captchaToken] ?? body[ALTCHA_FIELD];
        const result = await signUpForRestock(
          ctx.db,
          site,
          { ...body, [RESTOCK_FIELDS.captchaToken]: token },
          signUpContext(request, site),
        );
        if (result.ok) {
          state = outcome({ success: true, values: { ...values, siteVisitorEmail: [result.value.email] } });
        } else {
          const error = restockRefusalError(result.error);
          status = error.statusCode;
          state =
            result.error.kind === 'invalid' && result.error.field === RESTOCK_FIELDS.email
              ? outcome({ fieldErrors: { siteVisitorEmail: error.message } })
              : outcome({ error: error.message });
        }
      }
      const rendered = await renderer.render(site, `/${collection.slug}/p/${product.slug}`, state);
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .header('content-security-policy', contentSecurityPolicyFor(rendered.html, rendered.policySources))
        .type('text/html; charset=utf-8')
        .send(rendered.html.replaceAll(CRUMB_PLACEHOLDER, pageCrumb(request, reply, ctx)));
    });

    // Not 'no-referrer': a form posted from such a page says Origin: null, which the crumb check refuses as another
    // website's. The page loads nothing from elsewhere, so the token in its address goes to no other host.
    const sendPage = async (reply: FastifyReply, site: Site, title: string, body: ReactNode, status = 200) => {
      const rendered = await renderer.renderVisitorPage(site, {
        path: RESTOCK_UNSUBSCRIBE_PATH,
        pageType: PageType.PAGE,
        title,
        description: title,
        body,
        status,
      });
      return reply
        .code(rendered.status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(rendered.html);
    };
    const notValid = (reply: FastifyReply, site: Site) =>
      sendPage(
        reply,
        site,
        'Link not valid',
        <section>
          <h1 className="page-title">This link is not valid</h1>
          <p>The sign-up it was for is already removed.</p>
        </section>,
        404,
      );

    // The link in the e-mail shows a button: a mail scanner that opens links removes nothing.
    const unsub = { schema: restockUnsubscribePageRoute };
    scope.get<{ Querystring: { token?: string } }>(RESTOCK_UNSUBSCRIBE_PATH, unsub, async (request, reply) => {
      const site = await siteOf(request);
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      const subscription = await findRestockSubscription(ctx.db, site.id, token);
      if (!subscription) return notValid(reply, site);
      const crumb = pageCrumb(request, reply, ctx);
      return sendPage(
        reply,
        site,
        'Remove your restock sign-up',
        <section className="restock-unsubscribe">
          <h1 className="page-title">Remove your restock sign-up</h1>
          <p>
            {subscription.email} is signed up to hear when {subscription.itemName} is back in stock at {site.title}.
          </p>
          <form method="post" action={RESTOCK_UNSUBSCRIBE_PATH}>
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name={CRUMB_FIELD} value={crumb} />
            <button type="submit" className="button button--primary">
              Remove my sign-up
            </button>
          </form>
        </section>,
      );
    });

    scope.post(RESTOCK_UNSUBSCRIBE_PATH, { config, schema: restockUnsubscribeRoute }, async (request, reply) => {
      const site = await siteOf(request);
      const removed = await unsubscribeRestock(ctx.db, site.id, bodyObject(request.body).token);
      if (!removed) return notValid(reply, site);
      return sendPage(
        reply,
        site,
        'Sign-up removed',
        <section role="status">
          <h1 className="page-title">Sign-up removed</h1>
          <p>
            {removed.email} is no longer signed up for {removed.itemName}. (A mailing list you joined is separate: its
            e-mails have their own link.)
          </p>
        </section>,
      );
    });
  });
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const restockSignUpFields = z.object({
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

const restockSignUpRoute = describeRoute({
  operationId: 'signUpForRestock',
  summary: 'Sign up for a back-in-stock e-mail',
  description: 'One sign-up per e-mail and variant: signing up again answers 200 and changes nothing.',
  tags: ['restock'],
  body: restockSignUpFields,
  response: {
    200: jsonAnswer('Signed up.', z.object({ signedUp: z.literal(true) })),
    400: errorAnswer(
      "invalid-input (field siteVisitorEmail: 'Email cannot be blank', 'Email is invalid'; other fields), captcha-refused: 'Complete CAPTCHA before submitting.'",
    ),
    404: errorAnswer('product-not-found: an unknown product or variant.'),
    409: errorAnswer('restock-not-offered: not offered for this product, or the variant is in stock.'),
    429: errorAnswer(
      "rate-limited: 'Unable to submit form. Submission rate limit exceeded. Please try again later.', Retry-After.",
    ),
    503: errorAnswer("captcha-unavailable: 'Unable to submit form. Please try again later.'"),
  },
});

const restockFormRoute = describeRoute({
  operationId: 'signUpForRestockForm',
  summary: 'Sign up for a back-in-stock e-mail without JavaScript (form post)',
  description: 'The product page comes back for this visitor with the §5 text, the error or the success text.',
  tags: ['restock'],
  body: formBody(
    restockSignUpFields.extend({ isJoinMailingList: z.string().optional(), altcha: z.string().optional() }),
  ),
  response: {
    200: htmlAnswer('The product page with the success text.'),
    400: htmlAnswer('The page with the §5 text at the field, or the CAPTCHA refused.'),
    404: htmlAnswer('An unknown product.'),
    409: htmlAnswer('Not offered, or in stock now.'),
    429: htmlAnswer('Over the budget.'),
    503: htmlAnswer('The CAPTCHA provider could not be asked.'),
  },
});

const restockUnsubscribePageRoute = pageRoute(
  'restockUnsubscribePage',
  'A restock e-mail’s unsubscribe link: a button',
  {
    querystring: z.object({ token: z.string().optional() }),
  },
);

const restockUnsubscribeRoute = describeRoute({
  operationId: 'unsubscribeRestock',
  summary: 'Remove a restock sign-up (form post)',
  tags: ['restock'],
  body: formBody(z.object({ token: z.string(), crumb: z.string() })),
  response: { 200: htmlAnswer("'Sign-up removed'."), 404: htmlAnswer("'This link is not valid'.") },
});
