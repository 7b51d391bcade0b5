/**
 * The cart page's form actions without JavaScript (issue 23; the page: ./visitorCart.tsx):
 *
 * - `POST /cart/update` (entryId, quantity) and `POST /cart/remove` (entryId): form-encoded, the crumb required,
 *   rate-limited as the cart API is. They change the line through the cart's own services (updateEntryQuantity,
 *   removeEntry: the same rules and stock checks as the island's calls) and answer 303 to /cart (Post/Redirect/Get);
 *   a refusal is shown there once with §8's title ('Unable to update quantity', 'Unable to remove item') and its
 *   text (the §5 stock text, 'Quantity must be a number.', …), through the cart notice (../cartNoticeRoutes.tsx).
 * - A form that is not one (a field given twice, a value too long) is a 400 page saying what was wrong; a post
 *   without the crumb is refused with 403 (platform/http/crumb.ts). Nothing is changed by any of them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CART_NOTICE_ID, type LineAction } from '../../../core/cartNotice';
import { ROUTES } from '../../../core/purchaseRoute';
import { ENTRY_NOT_FOUND_MESSAGE, removeEntry, updateEntryQuantity, type CartFailure, type CartSite } from '../cart';
import { CART_FORM_FIELDS, CART_REMOVE_PATH, CART_UPDATE_PATH } from '../../../ui/cartForms';
import { FALLBACK_FAILURE_MESSAGES } from '../../../core/addToCartErrors';
import type { AppContext } from '../../../platform/http/appContext';
import { siteOf } from '../../site';
import { writeRouteConfig } from '../../../platform/http/rateLimits';
import { parseInput } from '../../../platform/http/validation';
import { cartToken } from '../cookies';
import { lineNotice, setCartNotice } from '../cartNoticeRoutes';
import { describeRoute, formBody, htmlAnswer, redirectAnswer } from '../../../platform/http/apiDescription';

const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once, as text') })
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain a NUL character');

const lineForm = z.looseObject(
  {
    [CART_FORM_FIELDS.entryId]: text(64),
    // The quantity's own texts ('Quantity must be a number.', …) are the core's: any text up to this length goes on.
    [CART_FORM_FIELDS.quantity]: text(100).optional(),
  },
  { error: 'must be a form (application/x-www-form-urlencoded)' },
);

export function cartActions(
  ctx: AppContext,
  options: { rateLimitPerMinute: number },
): (scope: FastifyInstance) => void {
  const cartSite = async (request: FastifyRequest): Promise<CartSite> => {
    const site = await siteOf(request);
    return { id: site.id, currency: site.currency };
  };

  /** Back to the cart page; a refusal leaves its notice for it, and the address scrolls to it. */
  const backToCart = (
    request: FastifyRequest,
    reply: FastifyReply,
    action: LineAction,
    failure: CartFailure | null,
  ) => {
    if (failure !== null) setCartNotice(reply, ctx, request, lineNotice(action, refusalText(failure)));
    return reply
      .header('cache-control', 'no-store')
      .redirect(failure === null ? ROUTES.cart : `${ROUTES.cart}#${CART_NOTICE_ID}`, 303);
  };

  return (scope) => {
    const config = writeRouteConfig(options.rateLimitPerMinute);

    scope.post(CART_UPDATE_PATH, { config, schema: updateLineRoute }, async (request, reply) => {
      const body = parseInput(lineForm, request.body ?? {}, 'body');
      const quantity = body[CART_FORM_FIELDS.quantity] ?? '';
      const result = await updateEntryQuantity(
        ctx.db,
        await cartSite(request),
        cartToken(request),
        body[CART_FORM_FIELDS.entryId],
        quantity,
      );
      return backToCart(request, reply, 'update', result.ok ? null : result.error);
    });

    scope.post(CART_REMOVE_PATH, { config, schema: removeLineRoute }, async (request, reply) => {
      const body = parseInput(lineForm, request.body ?? {}, 'body');
      const result = await removeEntry(
        ctx.db,
        await cartSite(request),
        cartToken(request),
        body[CART_FORM_FIELDS.entryId],
      );
      return backToCart(request, reply, 'remove', result.ok ? null : result.error);
    });
  };
}

/** What the shopper is told of a refused change (the notice keeps only the texts it knows; others read 'Please try again.'). */
function refusalText(failure: CartFailure): string {
  switch (failure.type) {
    case 'ENTRY_NOT_FOUND':
      return ENTRY_NOT_FOUND_MESSAGE;
    case 'PRODUCT_NOT_FOUND':
      return 'Sorry, that item is no longer available.';
    case 'GIFT_CARD_NOT_IN_CART':
    case 'INVALID_FORM_ANSWERS':
      return failure.message;
    default:
      return failure.message || FALLBACK_FAILURE_MESSAGES.other;
  }
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const lineAnswers = {
  303: redirectAnswer('Done: to /cart; refused (a notice, nothing changed): to /cart#cart-notice.'),
  400: htmlAnswer('No entryId, a field given twice or over its length.'),
};

const updateLineRoute = describeRoute({
  operationId: 'updateCartLineForm',
  summary: 'The cart page’s quantity box (form post)',
  tags: ['cart'],
  body: formBody(lineForm),
  response: lineAnswers,
});

const removeLineRoute = describeRoute({
  operationId: 'removeCartLineForm',
  summary: 'The cart page’s Remove button (form post)',
  tags: ['cart'],
  body: formBody(lineForm),
  response: lineAnswers,
});
