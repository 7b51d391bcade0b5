/**
 * Refunding an order (the merchant's `vitrine orders refund N`): the money back through the provider that took it,
 * then one transaction marks the order refunded, puts its stock back and gives what gift cards paid back to them. The provider call carries an idempotency key
 * derived from the payment, and the order's status only moves once (a conditional update), so running the refund
 * twice — or twice at once — refunds and restocks once.
 */
import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import { getOrderByNumber, markOrderRefunded } from './orders';
import type { Order } from './orderTypes';
import { finishAttempt, paymentOfOrder } from '../payments';
import type { PaymentProvider } from '../payments';

export type RefundFailure = { type: 'ORDER_NOT_FOUND' | 'ALREADY_REFUNDED' | 'PROVIDER_REFUSED'; message: string };

export async function refundOrder(
  db: Kysely<Database>,
  siteId: string,
  orderNumber: number,
  provider: PaymentProvider,
  now = new Date(),
): Promise<Result<Order, RefundFailure>> {
  const order = await getOrderByNumber(db, siteId, orderNumber);
  if (!order) return err({ type: 'ORDER_NOT_FOUND', message: `site '${siteId}' has no order #${orderNumber}` });
  if (order.status === 'refunded')
    return err({ type: 'ALREADY_REFUNDED', message: `order #${orderNumber} is already refunded` });

  const payment = await paymentOfOrder(db, order.id);
  if (payment?.reference) {
    // Money that was only promised (a manual payment) or only reserved is released; money taken is given back.
    const returned =
      payment.status === 'captured' || payment.status === 'refunded'
        ? await provider.refund(payment.reference, payment.amount, `${payment.id}:refund`)
        : await provider.void(payment.reference, `${payment.id}:void`);
    if (!returned.ok)
      return err({ type: 'PROVIDER_REFUSED', message: `the payment provider refused the refund: ${returned.error}` });
  }

  const done = await inTransaction<true, RefundFailure>(db, async (trx) => {
    if (!(await markOrderRefunded(trx, order.id, now)))
      return err({ type: 'ALREADY_REFUNDED', message: `order #${orderNumber} is already refunded` });
    if (payment)
      await finishAttempt(trx, payment.id, { status: payment.status === 'captured' ? 'refunded' : 'voided' }, now);
    return ok(true);
  });
  if (!done.ok) return done;
  return ok({ ...order, status: 'refunded' });
}
