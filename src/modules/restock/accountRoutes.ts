/**
 * The account area's restock calls (spec §6, §7). For any signed-in site user (401 'sign-in-required' without a
 * session):
 *
 * - POST /api/site-users/account/notifications/restock { productId, variantId, language? } → { signedUp: true }: the
 *   user's own sign-up, with their account's e-mail (no CAPTCHA: they signed in), under the same rules and refusals
 *   as a shopper's (./restock.tsx). The e-mail that follows is in the site's language; `language` is checked and
 *   otherwise not used (the spec's client sends it; the site has one language).
 *
 * For a signed-in site user with the admin or store-manager role (403 'role-not-allowed' for other roles):
 *
 * - GET  /api/site-users/account/notifications/restock/groups?cursor= → { signUpGroups, hasNextPage, nextPageCursor }
 * - GET  /api/site-users/account/notifications/restock?productId&variantId&cursor= → { signUps, hasNextPage, nextPageCursor }
 * - POST /api/site-users/account/notifications/restock/send { productId, variantId } → what was sent
 * - POST /api/site-users/account/notifications/restock/send/all { sendRequests: [{ productId, variantId }] } → per variant
 *
 * A send e-mails at most as many waiting shoppers as there are units in stock (src/modules/restock/send.ts); the
 * e-mails go out through the outbox. A bulk send checks every variant first: an unknown one sends nothing (404).
 */
import type { FastifyInstance } from 'fastify';
import { CONTRIBUTOR_ROLES } from '../../core/enums';
import { STORE_ROLES } from '../../core/siteUserRoles';
import { listRestockGroups, listRestockSignUps } from './lists';
import { sendRestockNotifications, type RestockSendResult } from './send';
import { signUpForRestock } from './signUps';
import * as catalog from '../catalog';
import { mailLinkOrigin, type AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { perWindow, RATE_LIMIT_WINDOW_MS } from '../../platform/http/rateLimits';
import { requireSiteUser } from '../siteUsers';
import { parseInput } from '../../platform/http/validation';
import { restockRefusalError } from './signUpRequests';
import {
  groupsQuery,
  groupsRoute,
  ownSignUpBody,
  ownSignUpRoute,
  sendAllBody,
  sendAllRoute,
  sendBody,
  sendRoute,
  signUpsQuery,
  signUpsRoute,
} from './accountRoutes.schema';

export const RESTOCK_ACCOUNT_API = '/api/site-users/account/notifications/restock';

/** What a send answers (the spec's client reads nothing: this is for people and scripts). */
const sentAnswer = (r: RestockSendResult) => ({
  productId: r.productId,
  variantId: r.variantId,
  sent: r.sent,
  waiting: r.waiting,
  qtyInStock: r.qtyInStock,
});

export function registerRestockAccountRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { requestsPerMinute?: number } = {},
): void {
  const config = { rateLimit: { max: perWindow(options.requestsPerMinute ?? 120), timeWindow: RATE_LIMIT_WINDOW_MS } };

  app.post(RESTOCK_ACCOUNT_API, { config, schema: ownSignUpRoute }, async (request, reply) => {
    const body = parseInput(ownSignUpBody, request.body, 'body');
    const user = await requireSiteUser(request, CONTRIBUTOR_ROLES);
    const site = await siteOf(request);
    const payload = {
      productId: body.productId,
      variantId: body.variantId,
      siteVisitorEmail: user.email,
      isJoinMailingList: false,
    };
    const result = await signUpForRestock(ctx.db, site, payload, {
      baseUrl: mailLinkOrigin(ctx, site, request),
      signedInUser: true,
    });
    if (!result.ok) throw restockRefusalError(result.error);
    reply.header('cache-control', 'no-store');
    return { signedUp: true };
  });

  app.get(`${RESTOCK_ACCOUNT_API}/groups`, { config, schema: groupsRoute }, async (request, reply) => {
    const query = parseInput(groupsQuery, request.query, 'query');
    await requireSiteUser(request, STORE_ROLES);
    const site = await siteOf(request);
    const page = await listRestockGroups(ctx.db, site.id, { cursor: query.cursor });
    if (!page.ok) throw new ApiError('invalid-input', page.error.message, { field: 'cursor' });
    reply.header('cache-control', 'no-store');
    return page.value;
  });

  app.get(RESTOCK_ACCOUNT_API, { config, schema: signUpsRoute }, async (request, reply) => {
    const query = parseInput(signUpsQuery, request.query, 'query');
    await requireSiteUser(request, STORE_ROLES);
    const site = await siteOf(request);
    const page = await listRestockSignUps(
      ctx.db,
      site.id,
      { productId: query.productId, variantId: query.variantId },
      { cursor: query.cursor },
    );
    if (!page.ok) throw new ApiError('invalid-input', page.error.message, { field: 'cursor' });
    reply.header('cache-control', 'no-store');
    return page.value;
  });

  app.post(`${RESTOCK_ACCOUNT_API}/send`, { config, schema: sendRoute }, async (request, reply) => {
    const body = parseInput(sendBody, request.body, 'body');
    await requireSiteUser(request, STORE_ROLES);
    const site = await siteOf(request);
    const sent = await sendRestockNotifications(ctx.db, site, body);
    if (!sent.ok) throw new ApiError('product-not-found', sent.error.message);
    reply.header('cache-control', 'no-store');
    return sentAnswer(sent.value);
  });

  app.post(`${RESTOCK_ACCOUNT_API}/send/all`, { config, schema: sendAllRoute }, async (request, reply) => {
    const body = parseInput(sendAllBody, request.body, 'body');
    await requireSiteUser(request, STORE_ROLES);
    const site = await siteOf(request);
    const products = new Map(
      (await catalog.getProducts(ctx.db, site.id, [...new Set(body.sendRequests.map((r) => r.productId))])).map((p) => [
        p.id,
        p,
      ]),
    );
    for (const [i, r] of body.sendRequests.entries()) {
      const product = products.get(r.productId);
      if (!product)
        throw new ApiError(
          'product-not-found',
          `sendRequests.${i}: there is no product '${r.productId}' in this shop; nothing was sent.`,
          { field: `sendRequests.${i}.productId` },
        );
      if (!product.variants.some((v) => v.sku === r.variantId)) {
        throw new ApiError(
          'product-not-found',
          `sendRequests.${i}: the product '${r.productId}' has no variant '${r.variantId}'; nothing was sent.`,
          { field: `sendRequests.${i}.variantId` },
        );
      }
    }
    const results = [];
    const seen = new Set<string>();
    for (const r of body.sendRequests) {
      const key = `${r.productId}\u0000${r.variantId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const sent = await sendRestockNotifications(ctx.db, site, r);
      // Removed by an import meanwhile: said, and the others still sent.
      results.push(
        sent.ok
          ? sentAnswer(sent.value)
          : { productId: r.productId, variantId: r.variantId, sent: 0, error: sent.error.message },
      );
    }
    reply.header('cache-control', 'no-store');
    return { results, sent: results.reduce((n, r) => n + r.sent, 0) };
  });
}
