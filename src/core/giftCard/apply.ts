/**
 * Paying with gift cards: which card pays how much of an order. The cards are used in the order the shopper gave
 * them, each for as much of what is left as its balance covers; what none covers is paid by card. Pure arithmetic on
 * integer minor units; the service reads the balances and decrements them with conditional updates.
 */

export const GIFT_CARD_MESSAGES = {
  /** Unknown code, a code of another site, a mistyped one: one message, so that codes cannot be probed. */
  invalid: 'This gift card code is not valid. Please check it and try again.',
  usedUp: 'This gift card has no balance left.',
  otherCurrency: 'This gift card is in another currency and cannot be used here.',
  alreadyApplied: 'This gift card is already applied.',
  tooMany: 'At most 5 gift cards can be used on one order.',
  /** A balance changed between the quote and the order (spent at the same time elsewhere). */
  balanceChanged:
    'A gift card balance changed while you were checking out. Please review your order and place it again.',
} as const;

/** Gift cards one order may use. */
export const MAX_GIFT_CARDS_PER_ORDER = 5;

export interface GiftCardBalance {
  id: string;
  balanceCents: number;
}

export interface AppliedGiftCard {
  id: string;
  /** What this card pays of the order (> 0). */
  amountCents: number;
}

export interface GiftCardPayment {
  applied: AppliedGiftCard[];
  /** What is left to pay by card (≥ 0). */
  remainingCents: number;
}

/**
 * Each card in turn pays min(its balance, what is left). A card whose turn comes when nothing is left pays nothing
 * and is not listed; a card with no balance is never listed.
 */
export function applyGiftCards(totalCents: number, cards: readonly GiftCardBalance[]): GiftCardPayment {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0)
    throw new RangeError(`an order total must be whole minor units >= 0, not ${totalCents}`);
  let remainingCents = totalCents;
  const applied: AppliedGiftCard[] = [];
  for (const card of cards) {
    if (remainingCents === 0) break;
    const balance = Number.isSafeInteger(card.balanceCents) && card.balanceCents > 0 ? card.balanceCents : 0;
    const amountCents = Math.min(balance, remainingCents);
    if (amountCents === 0) continue;
    applied.push({ id: card.id, amountCents });
    remainingCents -= amountCents;
  }
  return { applied, remainingCents };
}
