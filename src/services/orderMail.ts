/**
 * The e-mails an order sends, written to the outbox inside the order's transaction (nothing is sent for an order that
 * rolled back; nothing is lost while the mail server is down): the confirmation to the shopper, and the new-order
 * notice to the shop's address when the site has one.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import { giftCardPaymentsOfOrder } from './giftCards';
import { enqueueEmail } from './mail/outbox';
import { newOrderEmail, orderConfirmationEmail } from './mail/orderEmails';
import type { Order } from './orderTypes';
import type { Site } from './sites';

export async function enqueueOrderEmails(trx: Kysely<Database>, site: Site, order: Order, orderUrl: string): Promise<void> {
  const checkout = site.settings.store.checkout;
  const manualInstructions = order.status === 'awaiting-payment' ? checkout.payments.manualInstructions : undefined;
  // The gift cards the order spent (written earlier in this transaction), by their last four.
  const giftCards = await giftCardPaymentsOfOrder(trx, order.id);
  const confirmation = orderConfirmationEmail(order, { siteTitle: site.title, orderUrl, giftCards, ...(manualInstructions ? { manualInstructions } : {}) });
  await enqueueEmail(trx, { siteId: site.id, kind: 'order-confirmation', to: order.email, ...confirmation, orderId: order.id });
  if (checkout.shopEmail) {
    const notice = newOrderEmail(order, { siteTitle: site.title, orderUrl, giftCards });
    await enqueueEmail(trx, { siteId: site.id, kind: 'new-order', to: checkout.shopEmail, ...notice, orderId: order.id });
  }
}
