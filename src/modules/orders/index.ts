/**
 * Orders: what an order holds, its confirmation page and e-mails, refunds, `vitrine orders`.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { type RenderedEmail } from '../../platform/mail/render';
export { enqueueNewOrderNotice, enqueueOrderEmails } from './mail';
export {
  type CheckoutChoices,
  type CheckoutFailure,
  type CheckoutQuote,
  type Order,
  type OrderLine,
  type PlaceOrderInput,
  type PlacedOrder,
} from './orderTypes';
export { createOrder, getOrder, markOrderRefunded, newOrderId } from './orders';
export { salesSummary, type SalesDay, type SalesSummary } from './sales';
