/**
 * What an order's payment shows in the owner's area: Paid, Partially refunded or Refunded (or Awaiting payment), from
 * its stored status and what refunds have given back so far. Pure: the orders list, the order page and the refund
 * page all say the same.
 */
export type PaymentState = 'awaiting-payment' | 'paid' | 'partially-refunded' | 'refunded';

export const PAYMENT_STATE_LABELS: Readonly<Record<PaymentState, string>> = {
  'awaiting-payment': 'Awaiting payment',
  paid: 'Paid',
  'partially-refunded': 'Partially refunded',
  refunded: 'Refunded',
};

/** The payment state of an order of `status` ('paid' | 'awaiting-payment' | 'refunded') that has refunded `refundedTotal` of `grandTotal`. */
export function paymentState(status: string, refundedTotal: number, grandTotal: number): PaymentState {
  if (status === 'refunded' || (grandTotal > 0 && refundedTotal >= grandTotal)) return 'refunded';
  if (refundedTotal > 0) return 'partially-refunded';
  return status === 'awaiting-payment' ? 'awaiting-payment' : 'paid';
}
