import { describe, expect, it } from 'vitest';
import { isWeight, MAX_WEIGHT, parseWeight, WEIGHT_MESSAGE, weightText, weightUnitOf } from './weight';

describe('a variant’s weight', () => {
  it('is a number from 0 to the maximum with at most 3 decimals', () => {
    expect([0, 0.25, 1.125, 12, MAX_WEIGHT].every(isWeight)).toBe(true);
    expect([-0.001, 0.0001, MAX_WEIGHT + 1, Number.NaN, Infinity].some(isWeight)).toBe(false);
  });

  it('is read as typed: a decimal point or comma, empty for none', () => {
    expect(parseWeight(' 0.25 ')).toEqual({ ok: true, value: 0.25 });
    expect(parseWeight('1,5')).toEqual({ ok: true, value: 1.5 });
    expect(parseWeight('')).toEqual({ ok: true, value: null });
    for (const wrong of ['-1', 'heavy', '1.0001', '1e3', '2000000'])
      expect(parseWeight(wrong)).toEqual({ ok: false, error: WEIGHT_MESSAGE });
  });

  it('is shown as the number, in the store’s unit (kg unless set)', () => {
    expect(weightText(undefined)).toBe('');
    expect(weightText(0.25)).toBe('0.25');
    expect(weightUnitOf(undefined)).toBe('kg');
    expect(weightUnitOf('lb')).toBe('lb');
  });
});
