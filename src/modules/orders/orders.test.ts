/**
 * createOrder writes an order and its lines with statements built once (one per number of lines, up to a bound, and
 * built anew past it; on PostgreSQL the order and its lines in one statement): on both engines, orders of one, two and
 * many lines read back exactly as written, numbered in turn, and an order refused by a constraint leaves no line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../../test/support/engines';
import { insertBareSite } from '../../../test/support/bareSite';
import { ProductType } from '../../core/enums';
import { createOrder, getOrder, type NewOrder } from './orders';
import type { OrderLine } from './orderTypes';

const SITE = 'orders-test';

const line = (i: number): Omit<OrderLine, 'position' | 'refundedQuantity'> => ({
  itemId: `item-${i}`,
  sku: `SKU-${i}`,
  title: `Thing ${i}`,
  productType: i % 2 === 0 ? ProductType.PHYSICAL : ProductType.DIGITAL,
  attributes: i % 3 === 0 ? {} : { Size: String(i) },
  additionalFields: i === 1 ? '{"engraving":"Ada"}' : '',
  additionalFieldsSummary: i === 1 ? [{ title: 'Engraving', lines: ['Ada'] }] : [],
  image: i % 2 === 0 ? { file: `images/${i}.jpg`, altText: `Thing ${i}` } : null,
  quantity: i + 1,
  unitPrice: 100 * i,
  lineTotal: 100 * i * (i + 1),
});

const newOrder = (lineCount: number, cartId: string): NewOrder => ({
  siteId: SITE,
  cartId,
  email: 'ada@example.com',
  status: 'paid',
  currency: 'USD',
  totals: {
    subtotalCents: 1000,
    shippingCents: 500,
    taxCents: 80,
    discountCents: 0,
    grandTotalCents: 1580,
    pricesIncludeTax: false,
    taxName: 'Sales tax',
  },
  shippingAddress: null,
  shippingOption: null,
  couponCode: lineCount === 2 ? 'WELCOME10' : null,
  paymentProvider: 'test',
  lines: Array.from({ length: lineCount }, (_, i) => line(i)),
  now: new Date('2026-03-01T12:00:00.000Z'),
});

forEachEngine((_engine, getDb) => {
  describe('createOrder', () => {
    beforeAll(async () => {
      await insertBareSite(getDb(), SITE, 'Orders');
    });

    it('writes orders of 1, 2, 1 and 25 lines that read back as written, numbered 1 to 4', async () => {
      const db = getDb();
      const counts = [1, 2, 1, 25];
      for (const [i, count] of counts.entries()) {
        const written = await createOrder(db, newOrder(count, `cart-${i}`));
        expect(written.number).toBe(i + 1);
        expect(written.lines.map((l) => l.position)).toEqual(Array.from({ length: count }, (_, p) => p));
        expect(written.lines).toEqual(
          newOrder(count, '').lines.map((l, position) => ({ position, ...l, refundedQuantity: 0 })),
        );
        expect(await getOrder(db, SITE, written.id)).toEqual(written);
      }
    });

    it('writes neither the order nor its lines when the order is refused (a second order of one cart)', async () => {
      const db = getDb();
      const linesBefore = await db.selectFrom('order_lines').select('order_id').execute();
      await expect(createOrder(db, { ...newOrder(2, 'cart-0'), id: 'refused-order-00000000' })).rejects.toThrow();
      expect(await getOrder(db, SITE, 'refused-order-00000000')).toBeUndefined();
      expect(await db.selectFrom('order_lines').select('order_id').execute()).toHaveLength(linesBefore.length);
    });
  });
});
