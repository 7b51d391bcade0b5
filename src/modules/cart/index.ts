/**
 * The cart: entries added from every purchase route (API and no-JS forms), the cart page, notices, expiry.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { additionalFieldsSchema } from './routes.schema';
export {
  emptyCart,
  getCart,
  newCartRow,
  readCheckoutCart,
  takeCheckoutCart,
  type CartEntry,
  type CheckoutCart,
  type ShoppingCart,
} from './cart';
export { takeCartNotice, withCartNotice } from './cartNoticeRoutes';
export { cartPages, wantsVisitorCart } from './pages';
export { productFormOf, toProductForm, type ProductForm, type ProductForms } from './coreForm';
export { CART_COOKIE, HAS_CART_COOKIE, cartToken, clearCartCookies } from './cookies';
export { cartExpiryJob } from './jobs';
export { cartAnswer } from './routes.schema';
