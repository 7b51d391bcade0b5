/**
 * Express checkout at /commerce/goto-checkout (§2): on to /checkout with a cart, else this page (page type 101,
 * status 400) saying 'Unable to Purchase Item'.
 */
import { ALERT_TITLES } from '../../../core/addToCartErrors';
import { PageType } from '../../../core/enums';
import { htmlAnswer, pageRoute, redirectAnswer } from '../../../platform/http/apiDescription';
import { ANSWERED, visitorPageKind } from '../../../render/visitorPageKind';
import type { AppContext } from '../../../platform/http/appContext';
import { PurchaseRefusedPage } from '../../../ui/checkout/CheckoutPages';
import { CHECKOUT_PATH } from '../../../ui/checkout/paths';
import { cartToken, getCart } from '../../cart';
import { forgetStaleCart, shopPath } from './shared';

export const GOTO_CHECKOUT_PATH = '/commerce/goto-checkout';

export const purchaseRefused = (ctx: AppContext) =>
  visitorPageKind<{ shop: string }>({
    name: 'purchaseRefused',
    paths: [GOTO_CHECKOUT_PATH],
    route: {
      schema: pageRoute('gotoCheckout', 'Express checkout (§2/§5)', {
        response: {
          303: redirectAnswer('A cart: to /checkout.'),
          400: htmlAnswer("No cart: 'Unable to Purchase Item' / 'Either your session has expired or …'."),
        },
      }),
    },
    headers: { 'cache-control': 'no-store' },
    load: async ({ request, reply, site }) => {
      const cart = await getCart(ctx.db, { id: site.id, currency: site.currency }, cartToken(request));
      if (cart.id !== null && cart.entries.length > 0) {
        reply.header('cache-control', 'no-store').redirect(CHECKOUT_PATH, 303);
        return ANSWERED;
      }
      forgetStaleCart(ctx, request, reply, cart.id);
      return { shop: await shopPath(ctx, site) };
    },
    view: ({ site }, { shop }) => ({
      path: GOTO_CHECKOUT_PATH,
      pageType: PageType.ERROR,
      title: ALERT_TITLES.purchaseItem,
      description: `Checkout at ${site.title}.`,
      status: 400,
      body: <PurchaseRefusedPage shopPath={shop} />,
    }),
  });
