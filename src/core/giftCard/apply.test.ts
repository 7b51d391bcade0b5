import { describe, expect, it } from 'vitest';
import { applyGiftCards } from './apply';

describe('applyGiftCards', () => {
  it('pays part of an order, the rest by card', () => {
    expect(applyGiftCards(5000, [{ id: 'a', balanceCents: 2000 }])).toEqual({
      applied: [{ id: 'a', amountCents: 2000 }],
      remainingCents: 3000,
    });
  });

  it('pays all of it and leaves the rest of the balance on the card', () => {
    expect(applyGiftCards(1500, [{ id: 'a', balanceCents: 2500 }])).toEqual({
      applied: [{ id: 'a', amountCents: 1500 }],
      remainingCents: 0,
    });
  });

  it('uses several cards in the order given', () => {
    expect(
      applyGiftCards(5000, [
        { id: 'a', balanceCents: 1000 },
        { id: 'b', balanceCents: 3000 },
        { id: 'c', balanceCents: 5000 },
      ]),
    ).toEqual({
      applied: [
        { id: 'a', amountCents: 1000 },
        { id: 'b', amountCents: 3000 },
        { id: 'c', amountCents: 1000 },
      ],
      remainingCents: 0,
    });
  });

  it('does not list a card that is not needed or has nothing left', () => {
    expect(
      applyGiftCards(1000, [
        { id: 'a', balanceCents: 0 },
        { id: 'b', balanceCents: 1000 },
        { id: 'c', balanceCents: 500 },
      ]),
    ).toEqual({
      applied: [{ id: 'b', amountCents: 1000 }],
      remainingCents: 0,
    });
    expect(applyGiftCards(0, [{ id: 'a', balanceCents: 500 }])).toEqual({ applied: [], remainingCents: 0 });
  });

  it('never trusts a broken balance and refuses a broken total', () => {
    expect(
      applyGiftCards(1000, [
        { id: 'a', balanceCents: -5 },
        { id: 'b', balanceCents: Number.NaN },
      ]),
    ).toEqual({ applied: [], remainingCents: 1000 });
    expect(() => applyGiftCards(-1, [])).toThrow(RangeError);
    expect(() => applyGiftCards(1.5, [])).toThrow(RangeError);
  });
});
