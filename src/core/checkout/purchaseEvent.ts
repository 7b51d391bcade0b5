/**
 * §7 "checkout confirmed": the purchase event (id, value, shipping, tax, items) made from the STORED order, so the
 * figures the analytics receive are the ones the shopper paid. Prices are minor units divided per §7 (`toTrackingValue`:
 * ÷ 100 for two-decimal currencies; yen are whole). The analytics module sends it; this only shapes it.
 */
import { parseCurrencyCode, DEFAULT_CURRENCY } from '../currency';
import { toTrackingValue } from '../money';

export const PURCHASE_EVENT_NAME = 'CommerceShopping_CheckoutConfirmed';

/** What the event needs of an order (the services' Order has these fields). */
export interface PurchasedOrder {
  id: string;
  number: number;
  currency: string;
  grandTotalCents: number;
  shippingCents: number;
  taxCents: number;
  discountCents: number;
  couponCode: string | null;
  lines: readonly {
    itemId: string;
    sku: string;
    title: string;
    attributes: Readonly<Record<string, string>>;
    quantity: number;
    unitPrice: number;
  }[];
}

export interface PurchaseEvent {
  event: typeof PURCHASE_EVENT_NAME;
  id: string;
  orderNumber: number;
  currency: string;
  value: number;
  shipping: number;
  tax: number;
  discount: number;
  coupon: string | null;
  items: { id: string; sku: string; name: string; variant: string; quantity: number; price: number }[];
}

export function purchaseEvent(order: PurchasedOrder): PurchaseEvent {
  const currency = parseCurrencyCode(order.currency) ?? DEFAULT_CURRENCY;
  const value = (minorUnits: number) => toTrackingValue({ minorUnits, currency });
  return {
    event: PURCHASE_EVENT_NAME,
    id: order.id,
    orderNumber: order.number,
    currency,
    value: value(order.grandTotalCents),
    shipping: value(order.shippingCents),
    tax: value(order.taxCents),
    discount: value(order.discountCents),
    coupon: order.couponCode,
    items: order.lines.map((line) => ({
      id: line.itemId,
      sku: line.sku,
      name: line.title,
      variant: Object.values(line.attributes).join(' / '),
      quantity: line.quantity,
      price: value(line.unitPrice),
    })),
  };
}
