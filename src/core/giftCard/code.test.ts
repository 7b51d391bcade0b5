import { describe, expect, it } from 'vitest';
import {
  formatGiftCardCode,
  GIFT_CARD_CODE_ALPHABET,
  GIFT_CARD_CODE_LENGTH,
  giftCardCodeFromBytes,
  giftCardLastFour,
  isGiftCardCodeShape,
  maskedGiftCard,
  normalizeGiftCardCode,
} from './code';

describe('gift-card codes', () => {
  it('has 32 distinct characters without look-alikes, so 16 characters carry 80 bits', () => {
    expect(GIFT_CARD_CODE_ALPHABET).toHaveLength(32);
    expect(new Set(GIFT_CARD_CODE_ALPHABET).size).toBe(32);
    for (const c of '01IO') expect(GIFT_CARD_CODE_ALPHABET).not.toContain(c);
    expect(GIFT_CARD_CODE_LENGTH).toBeGreaterThanOrEqual(16);
  });

  it('makes a code from random bytes, one character per byte', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 33);
    const code = giftCardCodeFromBytes(bytes);
    expect(code).toHaveLength(16);
    expect(isGiftCardCodeShape(code)).toBe(true);
    expect(giftCardCodeFromBytes(new Uint8Array(16))).toBe('AAAAAAAAAAAAAAAA');
    expect(giftCardCodeFromBytes(new Uint8Array(16).fill(31))).toBe('9999999999999999');
    expect(() => giftCardCodeFromBytes(new Uint8Array(8))).toThrow(RangeError);
  });

  it('normalizes what a shopper types: case, spaces and dashes', () => {
    expect(normalizeGiftCardCode(' abcd-efgh jkln_pqrs ')).toBe('ABCDEFGHJKLNPQRS');
    expect(normalizeGiftCardCode('ＡＢＣＤ')).toBe('ABCD');
    expect(normalizeGiftCardCode(42)).toBe('');
    expect(normalizeGiftCardCode(undefined)).toBe('');
  });

  it('recognizes the shape of a code and nothing else', () => {
    expect(isGiftCardCodeShape('ABCDEFGHJKLNPQRS')).toBe(true);
    expect(isGiftCardCodeShape('ABCDEFGHJKLNPQR')).toBe(false);
    expect(isGiftCardCodeShape('ABCDEFGHJKLNPQRSX')).toBe(false);
    expect(isGiftCardCodeShape('ABCDEFGHJKLNPQR0')).toBe(false);
    expect(isGiftCardCodeShape('')).toBe(false);
  });

  it('groups a code by four for reading, and keeps only the last four in clear', () => {
    expect(formatGiftCardCode('ABCDEFGHJKLNPQRS')).toBe('ABCD-EFGH-JKLN-PQRS');
    expect(formatGiftCardCode('abcd efgh-jkln pqrs')).toBe('ABCD-EFGH-JKLN-PQRS');
    expect(giftCardLastFour('ABCD-EFGH-JKLN-PQRS')).toBe('PQRS');
    expect(maskedGiftCard('PQRS')).toBe('•••• PQRS');
  });
});
