import { describe, expect, it } from 'vitest';
import { lineRefundAmount, parseAmount, refundAmount, type RefundableOrder } from './refundAmount';

// $80.00 of goods (2 × $40 + 1 × $0… here: two lines), 10 % off, NY tax 8.875 % added, $6 shipping.
const order: RefundableOrder = {
  subtotal: 10000,
  discount: 1000,
  tax: 799,
  shipping: 600,
  pricesIncludeTax: false,
  grandTotal: 10000 - 1000 + 799 + 600,
  refundedTotal: 0,
};

describe('lineRefundAmount', () => {
  it('gives back the units at what they were charged: less their discount share, plus their added tax', () => {
    // 1 of 2 × $40: $40 − $4 discount + tax 799 × 3600/9000 = 320 → $39.20.
    expect(lineRefundAmount(order, { quantity: 2, lineTotal: 8000 }, 1)).toBe(3920);
    expect(lineRefundAmount(order, { quantity: 2, lineTotal: 8000 }, 0)).toBe(0);
  });

  it('adds no tax when prices include it', () => {
    const included = { ...order, pricesIncludeTax: true, grandTotal: 9600 };
    expect(lineRefundAmount(included, { quantity: 2, lineTotal: 8000 }, 2)).toBe(7200);
  });

  it('with no discount and no tax is the line total share', () => {
    const plain = { ...order, discount: 0, tax: 0, grandTotal: 10600 };
    expect(lineRefundAmount(plain, { quantity: 3, lineTotal: 1000 }, 1)).toBe(333);
  });
});

describe('refundAmount', () => {
  it('adds an amount (shipping) and never gives more than is left', () => {
    expect(refundAmount(order, [{ line: { quantity: 2, lineTotal: 8000 }, quantity: 1 }], 600)).toBe(4520);
    expect(
      refundAmount({ ...order, refundedTotal: 10000 }, [{ line: { quantity: 2, lineTotal: 8000 }, quantity: 2 }]),
    ).toBe(399);
  });

  it('refunding every unit and the shipping is the grand total (within rounding)', () => {
    const all = refundAmount(
      order,
      [
        { line: { quantity: 2, lineTotal: 8000 }, quantity: 2 },
        { line: { quantity: 1, lineTotal: 2000 }, quantity: 1 },
      ],
      600,
    );
    expect(Math.abs(all - order.grandTotal)).toBeLessThanOrEqual(1);
  });
});

describe('parseAmount', () => {
  it('reads what the owner types', () => {
    expect(parseAmount('12.50', 2)).toBe(1250);
    expect(parseAmount('12,5', 2)).toBe(1250);
    expect(parseAmount(' 12 ', 2)).toBe(1200);
    expect(parseAmount('500', 0)).toBe(500);
  });

  it('refuses what is not an amount above zero', () => {
    for (const text of ['', '0', '0.00', '-1', '1.234', 'ten', '1e3', '12.5.0'])
      expect(parseAmount(text, 2)).toBeUndefined();
    expect(parseAmount('1.5', 0)).toBeUndefined();
  });
});
