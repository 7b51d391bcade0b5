import { describe, expect, it } from 'vitest';
import { purchaseEvent, PURCHASE_EVENT_NAME, type PurchasedOrder } from './purchaseEvent';

const order: PurchasedOrder = {
  id: 'OE85TIFSvnE89q13A_Hjtg',
  number: 12,
  currency: 'USD',
  grandTotalCents: 9798,
  shippingCents: 600,
  taxCents: 799,
  discountCents: 400,
  couponCode: 'WELCOME10',
  lines: [
    {
      itemId: 'speckled-mug',
      sku: 'MUG-OAT',
      title: 'Speckled Mug',
      attributes: { Color: 'Oatmeal', Size: 'L' },
      quantity: 2,
      unitPrice: 2800,
    },
    { itemId: 'ebook', sku: 'EB-1', title: 'E-book', attributes: {}, quantity: 1, unitPrice: 999 },
  ],
};

describe('purchaseEvent (§7 checkout confirmed, from the stored order)', () => {
  it('gives id, value, shipping, tax and items, prices in cents ÷ 100', () => {
    expect(purchaseEvent(order)).toEqual({
      event: PURCHASE_EVENT_NAME,
      id: 'OE85TIFSvnE89q13A_Hjtg',
      orderNumber: 12,
      currency: 'USD',
      value: 97.98,
      shipping: 6,
      tax: 7.99,
      discount: 4,
      coupon: 'WELCOME10',
      items: [
        { id: 'speckled-mug', sku: 'MUG-OAT', name: 'Speckled Mug', variant: 'Oatmeal / L', quantity: 2, price: 28 },
        { id: 'ebook', sku: 'EB-1', name: 'E-book', variant: '', quantity: 1, price: 9.99 },
      ],
    });
  });

  it('keeps yen whole, and reads an unknown currency as the default', () => {
    expect(purchaseEvent({ ...order, currency: 'JPY', grandTotalCents: 5000 }).value).toBe(5000);
    expect(purchaseEvent({ ...order, currency: 'XXX' }).currency).toBe('USD');
  });
});
