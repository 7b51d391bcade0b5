import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampDigitOption, elementPathText, timeSince, truncate } from './text';

describe('truncate', () => {
  it('keeps text of up to 100 characters', () => {
    const hundred = 'a'.repeat(100);
    expect(truncate(hundred)).toBe(hundred);
    expect(truncate('short')).toBe('short');
  });

  it('cuts longer text to 100 characters including the ellipsis', () => {
    const result = truncate('a'.repeat(150));
    expect(result).toBe(`${'a'.repeat(99)}…`);
    expect(Array.from(result)).toHaveLength(100);
  });

  it('honours a custom length, drops trailing spaces and never splits an emoji', () => {
    expect(truncate('Hello wonderful world', 7)).toBe('Hello…');
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
    expect(truncate('abc', 0)).toBe('');
    expect(truncate('abcdef', Number.NaN)).toBe('abcdef');
  });

  it('never exceeds the limit', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 300 }), (text, max) => {
        expect(Array.from(truncate(text, max)).length).toBeLessThanOrEqual(Math.max(max, 0) || Array.from(text).length);
      }),
    );
  });
});

describe('elementPathText', () => {
  it('cuts at 200 characters', () => {
    expect(elementPathText('x'.repeat(250))).toHaveLength(200);
    expect(elementPathText('div > p')).toBe('div > p');
  });
});

describe('clampDigitOption', () => {
  it.each([
    [2, 2],
    [-1, 0],
    [51, 50],
    [50, 50],
    [3.7, 3],
    ['4', 4],
    ['', 0],
    ['x', 0],
    [Number.NaN, 0],
    [null, 0],
  ])('%j → %s', (value, expected) => {
    expect(clampDigitOption(value)).toBe(expected);
  });

  it('uses a clamped fallback for non-numbers', () => {
    expect(clampDigitOption(undefined, 2)).toBe(2);
    expect(clampDigitOption(undefined, 99)).toBe(50);
    expect(clampDigitOption(undefined, Number.NaN)).toBe(0);
  });
});

describe('timeSince', () => {
  const now = Date.UTC(2024, 5, 1);
  const minute = 60_000;
  it.each([
    [now, 'just now'],
    [now - 59_000, 'just now'],
    [now + 5 * minute, 'just now'],
    [now - minute, '1 minute ago'],
    [now - 5 * minute, '5 minutes ago'],
    [now - 60 * minute, '1 hour ago'],
    [now - 25 * 60 * minute, '1 day ago'],
    [now - 8 * 24 * 60 * minute, '1 week ago'],
    [now - 65 * 24 * 60 * minute, '2 months ago'],
    [now - 800 * 24 * 60 * minute, '2 years ago'],
    [String(now - 3 * minute), '3 minutes ago'],
  ])('%j → %s', (then, text) => {
    expect(timeSince(then, now)).toBe(text);
  });

  it.each([['abc'], [''], [null], [undefined], [Number.NaN], [{}]])("%j → 'Invalid date.'", (value) => {
    expect(timeSince(value, now)).toBe('Invalid date.');
  });

  it('rejects a non-finite now', () => {
    expect(timeSince(now, Number.NaN)).toBe('Invalid date.');
  });
});
