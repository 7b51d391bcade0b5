/**
 * Restock (back in stock) sign-ups, spec §3, §5, §7, §8 (the sign-up's path is "not shown": ours, in docs/api.md):
 *
 * - POST /api/commerce/restock-notifications, JSON { isJoinMailingList, productId, siteVisitorEmail, variantId,
 *   recaptchaEnterpriseV3Token } → 200 { signedUp: true } | 400 (the §5 e-mail texts, field siteVisitorEmail; bad ids;
 *   CAPTCHA) | 404 | 409 (not offered, in stock) | 429 | 503 — each { code, message, type, field? }: the form shows
 *   `message`.
 *
 * The same sign-up from the form without JavaScript, and the unsubscribe link of restock e-mails, are pages made for
 * one visitor, with their form actions: ./pages/. The account area's calls (lists, sends) are in ./accountRoutes.ts,
 * registered with these. Budgets: ./signUpRequests.ts.
 */
import type { FastifyInstance } from 'fastify';
import { FORM_STATUS_MESSAGES } from '../../core/forms/submission';
import { RESTOCK_SIGN_UP_API } from '../../client/islands/RestockSignUp';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { describeRoute, errorAnswer, jsonAnswer } from '../../platform/http/apiDescription';
import { z } from 'zod';
import { siteOf } from '../site';
import { registerRestockAccountRoutes } from './accountRoutes';
import { signUpForRestock } from './signUps';
import {
  bodyObject,
  restockRefusalError,
  restockRequests,
  restockSignUpFields,
  type RestockRouteOptions,
} from './signUpRequests';

export { restockRefusalError, type RestockRouteOptions } from './signUpRequests';

export async function registerRestockRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: RestockRouteOptions = {},
): Promise<void> {
  const { config, overProductBudget, signUpContext } = restockRequests(ctx, options);
  // The merchant's side: the account area's lists and sends (./accountRoutes.ts).
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
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

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
