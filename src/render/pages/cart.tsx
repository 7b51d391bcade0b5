/** The cart page shell at /cart (page type 200 show cart): the visitor's lines come from its island. */
import { PageType } from '../../core/enums';
import { payLaterContext } from '../../core/payLater';
import { ROUTES } from '../../core/purchaseRoute';
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
      />
    ),
  }),
});
