/**
 * The restock pages made for one visitor (per-visitor page kinds: src/render/visitorPageKind.ts; `no-store`), with
 * their form actions:
 *   POST /restock/sign-up       the sign-up form without JavaScript (the crumb, or a same-origin post; the ALTCHA
 *                               widget's `altcha` field stands for the token) → `signUpOutcome`: the product's page
 *                               again, for this visitor, with the outcome in the form (the JSON call's statuses)
 *   GET  /restock/unsubscribe   ./unsubscribe.tsx: what the e-mail's link is for, and a button
 *   POST /restock/unsubscribe   { token, crumb } → the sign-up removed (or 'This link is not valid', 404)
 * Budgets: ../signUpRequests.ts.
 */
import fastifyFormbody from '@fastify/formbody';
import { z } from 'zod';
import { ALTCHA_FIELD } from '../../../client/captcha/useCaptcha';
import { RESTOCK_FORM_PATH } from '../../../client/islands/RestockSignUp';
import { FORM_STATUS_MESSAGES } from '../../../core/forms/submission';
import { RESTOCK_FIELDS } from '../../../core/restock';
import { describeRoute, formBody, htmlAnswer } from '../../../platform/http/apiDescription';
import type { AppContext } from '../../../platform/http/appContext';
import { visitorPageKind, type VisitorPageModule } from '../../../render/visitorPageKind';
import type { FormPostState } from '../../../ui/formPost';
import { restockPostId } from '../../../ui/RestockSignUpBlock';
import * as catalog from '../../catalog';
import { siteOf } from '../../site';
import { RESTOCK_UNSUBSCRIBE_PATH } from '../send';
import {
  bodyObject,
  PRODUCT_ID,
  restockRefusalError,
  restockRequests,
  restockSignUpFields,
  type RestockRouteOptions,
} from '../signUpRequests';
import { signUpForRestock } from '../signUps';
import { unsubscribeRestock } from '../unsubscribe';
import { restockUnsubscribe } from './unsubscribe';

const MAX_POSTED_TEXT = 300;
const text = (value: unknown): string => (typeof value === 'string' ? value.slice(0, MAX_POSTED_TEXT) : '');

/** The product's page (a content page) again, with a sign-up's outcome in its form: shown by the form only. */
export const signUpOutcome = visitorPageKind<{ productPath: string; outcome: FormPostState; status: number }>({
  name: 'signUpOutcome',
  paths: [],
  headers: { 'cache-control': 'no-store' },
  view: (_visit, { productPath, outcome, status }) => ({
    contentPage: { path: productPath, formPost: outcome },
    status,
  }),
});

export function restockPages(ctx: AppContext, options: RestockRouteOptions = {}): VisitorPageModule {
  const { config, overProductBudget, signUpContext } = restockRequests(ctx, options);
  const unsubscribe = restockUnsubscribe(ctx);
  return {
    name: 'restock',
    kinds: [signUpOutcome, unsubscribe],
    scope: async (scope) => {
      await scope.register(fastifyFormbody);
    },
    actions: (scope, pages) => {
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
        const show = (state: FormPostState, status = 200) =>
          pages.send(
            signUpOutcome,
            { request, reply, site },
            { productPath: `/${collection.slug}/p/${product.slug}`, outcome: state, status },
          );
        const wait = await overProductBudget(request, site.id, product.id);
        if (wait !== null) {
          reply.header('retry-after', wait);
          return show(outcome({ error: FORM_STATUS_MESSAGES[429] }), 429);
        }
        const token = body[RESTOCK_FIELDS.captchaToken] ?? body[ALTCHA_FIELD];
        const result = await signUpForRestock(
          ctx.db,
          site,
          { ...body, [RESTOCK_FIELDS.captchaToken]: token },
          signUpContext(request, site),
        );
        if (result.ok)
          return show(outcome({ success: true, values: { ...values, siteVisitorEmail: [result.value.email] } }));
        const error = restockRefusalError(result.error);
        return show(
          result.error.kind === 'invalid' && result.error.field === RESTOCK_FIELDS.email
            ? outcome({ fieldErrors: { siteVisitorEmail: error.message } })
            : outcome({ error: error.message }),
          error.statusCode,
        );
      });

      scope.post(RESTOCK_UNSUBSCRIBE_PATH, { config, schema: restockUnsubscribeRoute }, async (request, reply) => {
        const site = await siteOf(request);
        const removed = await unsubscribeRestock(ctx.db, site.id, bodyObject(request.body).token);
        return pages.send(
          unsubscribe,
          { request, reply, site },
          removed ? { shown: 'removed', removed } : { shown: 'notValid' },
        );
      });
    },
  };
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

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

const restockUnsubscribeRoute = describeRoute({
  operationId: 'unsubscribeRestock',
  summary: 'Remove a restock sign-up (form post)',
  tags: ['restock'],
  body: formBody(z.object({ token: z.string(), crumb: z.string() })),
  response: { 200: htmlAnswer("'Sign-up removed'."), 404: htmlAnswer("'This link is not valid'.") },
});
