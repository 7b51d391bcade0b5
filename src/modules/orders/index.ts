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
export { createOrder, getOrder, markOrderRefunded, newOrderId, takeOrderNumber } from './orders';
export { salesSummary, type SalesDay, type SalesSummary } from './sales';
export { countOrdersToFulfil } from './toFulfil';
export { countPendingOrders, pendingOrdersJob } from './counted';
export { CUSTOMERS_PAGE_SIZE, getCustomer, listCustomers, type Customer, type CustomerOrder } from './customers';
export {
  getAdminOrder,
  listAdminOrders,
  type AdminOrder,
  type AdminOrderPage,
  type AdminOrderSummary,
  type OrderListFilter,
} from './adminOrders';
export { addOrderNote, fulfilOrder, unfulfilOrder, type FulfilmentFailure } from './fulfilment';
