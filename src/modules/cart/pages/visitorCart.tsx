/**
 * The cart page of a visitor with a cart cookie (issue 23): /cart made for them, with their lines drawn on the server
 * (each line's thumbnail and product link, options, form answers, quantity, line total, the subtotal), each line's
 * quantity and removal as real forms (./actions.ts) carrying the visitor's crumb, and a refused change's notice.
 * Visitors without a cart cookie get the content page (src/render/pages/cart.tsx: the empty cart) from the page cache
 * and the fast path: this kind takes that path only for requests that carry the cookie.
 */
import type { FastifyRequest } from 'fastify';
import { toSnapshot } from '../../../client/cartStore';
import type { CartProductView } from '../../../client/islands/CartContents';
import { CART_NOTICE_COOKIE } from '../../../core/cartNotice';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../../core/currency';
import { PageType } from '../../../core/enums';
import { payLaterContext } from '../../../core/payLater';
import { ROUTES } from '../../../core/purchaseRoute';
import { visitorPageKind } from '../../../render/visitorPageKind';
import { secureCookiesFor, type AppContext } from '../../../platform/http/appContext';
import { shopPath } from '../../../ui/cartForms';
import { CRUMB_PLACEHOLDER } from '../../../ui/formPost';
import { uiLabels } from '../../../ui/labels';
import { CartPage } from '../../../ui/Pages';
import { productPath } from '../../../ui/ProductCard';
import { imageSources, type SiteImages } from '../../../ui/ResponsiveImage';
import { getProducts, listCollections } from '../../catalog';
import { getCart } from '../cart';
import { takeCartNotice, withCartNotice } from '../cartNoticeRoutes';
import { CART_COOKIE, cartToken, clearCartCookies } from '../cookies';

/** CSS pixels a line's thumbnail is drawn at (styles.css: .cart-line__thumb). */
const THUMBNAIL_WIDTH = 72;

/** A request for /cart that gets the page made for its visitor: it carries a cart cookie. */
export const wantsVisitorCart = (request: FastifyRequest): boolean => request.cookies[CART_COOKIE] !== undefined;

/** /cart for a visitor with a cart cookie: their lines, the lines' forms (the crumb a placeholder), a notice. */
export const visitorCart = (ctx: AppContext) =>
  visitorPageKind({
    name: 'visitorCart',
    paths: [ROUTES.cart],
    takes: wantsVisitorCart,
    headers: { 'cache-control': 'no-store' },
    load: async ({ request, reply, site }) => {
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
      return { cart, collections, products, notice };
    },
    view: ({ site }, { cart, collections, products, notice }) => {
      const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
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
      return {
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
        ...(notice === null ? {} : { finish: (html: string) => withCartNotice(html, notice) }),
      };
    },
  });
