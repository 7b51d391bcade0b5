/**
 * The cart page at /cart (page type 200 show cart), as cached: the empty cart, for it is sent only to visitors without
 * a cart cookie. A visitor with one gets a copy made with their lines (src/modules/cart/pages/visitorCart.tsx, a per-visitor kind); the
 * CartContents island keeps either up to date.
 */
import { EMPTY_CART } from '../../client/cartStore';
import { PageType } from '../../core/enums';
import { payLaterContext } from '../../core/payLater';
import { ROUTES } from '../../core/purchaseRoute';
import { shopPath } from '../../ui/cartForms';
import { CartPage } from '../../ui/Pages';
import { pageKind } from '../pageKind';

export const cart = pageKind({
  name: 'cart',
  match: (path) => (path === ROUTES.cart ? true : undefined),
  load: async () => true,
  view: ({ site, currency, data }) => ({
    pageType: PageType.SHOW_CART,
    title: 'Cart',
    description: `Your cart at ${site.title}.`,
    body: (
      <CartPage
        currency={currency}
        minimumSubtotal={site.settings.store.minimumSubtotal}
        quantityLabel={data.labels.quantity}
        payLater={payLaterContext(site.settings.store.payLater, currency, site.settings.locale)}
        shopHref={shopPath(data.collections)}
        initialCart={EMPTY_CART}
      />
    ),
  }),
});
