/**
 * What a refund by line gives back (the rule the refund page states): each line's units at what they were charged —
 * the line total's share for those units (unit price × quantity as bought), less their share of the order's discount,
 * plus their share of the tax when tax was added on top of the prices (when prices include tax, it is in the line
 * total already). Shipping is not part of any line: it is refunded as an amount. The result never exceeds what is
 * left to refund. Amounts are integer minor units; shares are rounded half up.
 */
export interface RefundableOrder {
  subtotal: number;
  discount: number;
  tax: number;
  shipping: number;
  pricesIncludeTax: boolean;
  grandTotal: number;
  refundedTotal: number;
}

export interface RefundableLine {
  quantity: number;
  lineTotal: number;
}

/** The part of `total` that `part` of `whole` is, rounded half up (0 when `whole` is 0). */
const share = (total: number, part: number, whole: number): number =>
  whole <= 0 ? 0 : Math.round((total * part) / whole);

/** What refunding `quantity` units of `line` gives back, before the cap of what is left. */
export function lineRefundAmount(order: RefundableOrder, line: RefundableLine, quantity: number): number {
  if (quantity <= 0 || line.quantity <= 0) return 0;
  const goods = share(line.lineTotal, quantity, line.quantity);
  const discount = share(order.discount, goods, order.subtotal);
  const tax = order.pricesIncludeTax ? 0 : share(order.tax, goods - discount, order.subtotal - order.discount);
  return Math.max(0, goods - discount + tax);
}

/** What is left to refund of the order. */
export const refundableLeft = (order: RefundableOrder): number => Math.max(0, order.grandTotal - order.refundedTotal);

/** The refund of these lines' units plus `extra` (e.g. shipping), capped at what is left. */
export function refundAmount(
  order: RefundableOrder,
  lines: readonly { line: RefundableLine; quantity: number }[],
  extra = 0,
): number {
  const sum = lines.reduce((total, { line, quantity }) => total + lineRefundAmount(order, line, quantity), extra);
  return Math.min(sum, refundableLeft(order));
}

/**
 * '12.50' (or '12,50', '12') in a currency of `decimals` minor digits as minor units; undefined when it is not an
 * amount above zero.
 */
export function parseAmount(text: string, decimals: number): number | undefined {
  const match = /^\s*(\d{1,9})(?:[.,](\d+))?\s*$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return undefined;
  const minor = Number(match[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
  return minor > 0 ? minor : undefined;
}
