/**
 * The cart page without JavaScript (issue 23): a visitor with a cart cookie gets /cart made for them, with their lines
 * drawn on the server (each line's thumbnail and product link, options, form answers, quantity, line total, the
 * subtotal), each line's quantity and removal as real forms carrying the visitor's crumb. Visitors without a cart
 * cookie get the cached page (the empty cart) as before, from the page cache and ../pageFastPath.ts.
 *
 * - `POST /cart/update` (entryId, quantity) and `POST /cart/remove` (entryId): form-encoded, the crumb required,
 *   rate-limited as the cart API is. They change the line through the cart's own services (updateEntryQuantity,
 *   removeEntry: the same rules and stock checks as the island's calls) and answer 303 to /cart (Post/Redirect/Get);
 *   a refusal is shown there once with §8's title ('Unable to update quantity', 'Unable to remove item') and its
 *   text (the §5 stock text, 'Quantity must be a number.', …), through the cart notice cookie (./cartNotice.tsx).
 * - A form that is not one (a field given twice, a value too long) is a 400 page saying what was wrong; a post
 *   without the crumb is refused with 403 (../crumb.ts). Nothing is changed by any of them.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { toSnapshot } from '../../client/cartStore';
import type { CartProductView } from '../../client/islands/CartContents';
import { CART_NOTICE_COOKIE, CART_NOTICE_ID, type LineAction } from '../../core/cartNotice';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { PageType } from '../../core/enums';
import { payLaterContext } from '../../core/payLater';
import { ROUTES } from '../../core/purchaseRoute';
import type { PageRenderer, RenderedHtml } from '../../render/renderPath';
import {
  ENTRY_NOT_FOUND_MESSAGE,
  getCart,
  removeEntry,
  updateEntryQuantity,
  type CartFailure,
  type CartSite,
} from './cart';
import { getProducts, listCollections } from '../catalog';
import type { Site } from '../site';
import { CART_FORM_FIELDS, CART_REMOVE_PATH, CART_UPDATE_PATH, shopPath } from '../../ui/cartForms';
import { FALLBACK_FAILURE_MESSAGES } from '../../core/addToCartErrors';
import { CRUMB_PLACEHOLDER } from '../../ui/formPost';
import { uiLabels } from '../../ui/labels';
import { CartPage } from '../../ui/Pages';
import { productPath } from '../../ui/ProductCard';
import { imageSources, type SiteImages } from '../../ui/ResponsiveImage';
import { secureCookiesFor, type AppContext } from '../../platform/http/appContext';
import { siteOf } from '../site';
import { writeRouteConfig } from '../../platform/http/rateLimits';
import { parseInput } from '../../platform/http/validation';
import { cartToken, clearCartCookies, CART_COOKIE } from './routes';
import { lineNotice, setCartNotice, takeCartNotice, withCartNotice } from './cartNoticeRoutes';
import { describeRoute, formBody, htmlAnswer, redirectAnswer } from '../../platform/http/apiDescription';

/** CSS pixels a line's thumbnail is drawn at (styles.css: .cart-line__thumb). */
const THUMBNAIL_WIDTH = 72;

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

/** A request for /cart that gets the page made for its visitor: it carries a cart cookie. */
export const wantsVisitorCart = (request: FastifyRequest): boolean => request.cookies[CART_COOKIE] !== undefined;

/** Makes /cart for a visitor with a cart cookie: their lines, the lines' forms (the crumb a placeholder), a notice. */
export function visitorCartPage(ctx: AppContext, renderer: PageRenderer) {
  return async (request: FastifyRequest, reply: FastifyReply, site: Site): Promise<RenderedHtml> => {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    const cart = await getCart(ctx.db, { id: site.id, currency: site.currency }, cartToken(request));
    // A cookie naming no open cart (bought, expired, another site's) is dropped: the next /cart is the cached one.
    if (cart.id === null) clearCartCookies(reply, secureCookiesFor(ctx, request));
    const [collections, products] = await Promise.all([
      listCollections(ctx.db, site.id),
      getProducts(
        ctx.db,
        site.id,
        cart.entries.map((e) => e.itemId),
      ),
    ]);
    const notice =
      request.cookies[CART_NOTICE_COOKIE] === undefined ? null : await takeCartNotice(request, reply, ctx, site);
    const slugs = new Map(collections.map((c) => [c.id, c.slug]));
    const views = (images: SiteImages): Record<string, CartProductView> => {
      const out: Record<string, CartProductView> = {};
      for (const product of products) {
        const slug = slugs.get(product.collectionId);
        if (slug === undefined) continue;
        const image = product.images[0];
        const sources = image ? imageSources(site.id, image, images, THUMBNAIL_WIDTH) : undefined;
        out[product.id] = {
          href: productPath(slug, product.slug),
          ...(sources
            ? {
                thumbnail: {
                  src: sources.src,
                  srcSet: sources.srcSet,
                  position: sources.position,
                  ...(sources.width ? { width: sources.width, height: sources.height } : {}),
                },
              }
            : {}),
        };
      }
      return out;
    };
    const rendered = await renderer.renderVisitorPage(site, {
      path: ROUTES.cart,
      pageType: PageType.SHOW_CART,
      title: 'Cart',
      description: `Your cart at ${site.title}.`,
      body: (images) => (
        <CartPage
          currency={currency}
          minimumSubtotal={site.settings.store.minimumSubtotal}
          quantityLabel={uiLabels(site.settings).quantity}
          payLater={payLaterContext(site.settings.store.payLater, currency, site.settings.locale)}
          shopHref={shopPath(collections)}
          initialCart={toSnapshot(cart)}
          crumb={CRUMB_PLACEHOLDER}
          products={views(images)}
        />
      ),
    });
    return notice === null ? rendered : { ...rendered, html: withCartNotice(rendered.html, notice) };
  };
}

export async function registerCartPageRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { rateLimitPerMinute: number },
): Promise<void> {
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

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);
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
  });
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
