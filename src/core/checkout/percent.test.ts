import { describe, expect, it } from 'vitest';
import { includedPartOf, percentOf, thousandthsOfPercent, wholeCents } from './percent';

describe('wholeCents', () => {
  it.each<[unknown, number]>([
    [0, 0],
    [1, 1],
    [999_999_999_999_999, 999_999_999_999_999],
    [-1, 0],
    [10.5, 0],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0],
    [2 ** 53, 0],
    ['100', 0],
    [null, 0],
    [undefined, 0],
    [{}, 0],
  ])('%s → %s', (value, expected) => expect(wholeCents(value)).toBe(expected));
});

describe('thousandthsOfPercent', () => {
  it.each<[unknown, number | null]>([
    [0, 0],
    [8.875, 8875],
    [20, 20_000],
    [0.001, 1],
    [100, 100_000],
    // 1.005 * 1000 is 1004.9999… in floats: the rate is still 1.005 %.
    [1.005, 1005],
    [-0.001, null],
    [100.001, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ['20', null],
    [undefined, null],
  ])('%s → %s', (value, expected) => expect(thousandthsOfPercent(value)).toBe(expected));
});

describe('percentOf (round half up)', () => {
  it.each<[number, number, number]>([
    [333, 15_000, 50], // 49.95
    [1000, 8875, 89], // 88.75
    [1001, 50_000, 501], // 500.5 goes up
    [999, 50_000, 500], // 499.5 goes up
    [1, 49_999, 0], // 0.49999
    [1, 50_000, 1], // 0.5
    [0, 20_000, 0],
    [1234, 0, 0],
    [1234, 100_000, 1234],
  ])('%s at %s thousandths → %s', (amount, rate, expected) => expect(percentOf(amount, rate)).toBe(expected));

  it('is exact where a float product is not (15 digits × 8.875 %)', () => {
    expect(percentOf(999_999_999_999_999, 8875)).toBe(88_750_000_000_000); // 88 749 999 999 999.91… rounds up
    expect(percentOf(999_999_999_999_999, 100_000)).toBe(999_999_999_999_999);
  });

  it('treats bad amounts and rates as 0', () => {
    expect(percentOf(-500, 20_000)).toBe(0);
    expect(percentOf(10.5, 20_000)).toBe(0);
    expect(percentOf(1000, -5)).toBe(0);
    expect(percentOf(1000, 20_000.7)).toBe(200);
  });
});

describe('includedPartOf (round half up)', () => {
  it.each<[number, number, number]>([
    [1200, 20_000, 200], // 1200 × 20 / 120
    [1000, 20_000, 167], // 166.67
    [1050, 5000, 50], // 50
    [1, 20_000, 0], // 0.1667
    [3, 20_000, 1], // 0.5 goes up
    [1000, 0, 0],
    [1000, 100_000, 500],
    [0, 20_000, 0],
  ])('%s at %s thousandths → %s', (amount, rate, expected) => expect(includedPartOf(amount, rate)).toBe(expected));

  it('treats bad amounts and rates as 0', () => {
    expect(includedPartOf(-1200, 20_000)).toBe(0);
    expect(includedPartOf(1200, -20_000)).toBe(0);
  });
});
