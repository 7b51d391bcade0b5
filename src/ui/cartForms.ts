/**
 * The cart page's forms that work without JavaScript: each line's quantity and its removal sit in real
 * `<form method="post">`s with the visitor's crumb, answered 303 back to the cart page (Post/Redirect/Get) with the
 * §8 refusal shown once (src/modules/cart/pages/actions.ts). With JavaScript the CartContents island draws its own
 * controls over the same lines. Names shared by the island and the server.
 */
import type { Collection } from '../modules/site';

export const CART_UPDATE_PATH = '/cart/update';
export const CART_REMOVE_PATH = '/cart/remove';

export const CART_FORM_FIELDS = {
  entryId: 'entryId',
  quantity: 'quantity',
} as const;

export const CONTINUE_SHOPPING_LABEL = 'Continue shopping';

/** Where 'Continue shopping' leads: the site's first product collection, else the home page. */
export const shopPath = (collections: readonly Pick<Collection, 'type' | 'slug'>[]): string => {
  const shop = collections.find((c) => c.type === 'products');
  return shop ? `/${shop.slug}` : '/';
};
