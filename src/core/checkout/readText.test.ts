import { describe, expect, it } from 'vitest';
import { longerThan, readText } from './readText';

describe('readText', () => {
  it('trims and makes runs of white space and control characters one space', () => {
    expect(readText({ a: '  12  Main\n\tStreet\u0000 ' }, 'a')).toBe('12 Main Street');
    expect(readText({ a: 'line\r\nbreak\u2028here' }, 'a')).toBe('line break here');
  });

  it('reads a finite number as its digits', () => {
    expect(readText({ a: 12345 }, 'a')).toBe('12345');
    expect(readText({ a: Number.NaN }, 'a')).toBe('');
    expect(readText({ a: Number.POSITIVE_INFINITY }, 'a')).toBe('');
  });

  it.each<[string, unknown]>([
    ['null input', null],
    ['undefined input', undefined],
    ['a string', 'a'],
    ['a number', 42],
    ['an array', ['x']],
    ['a missing key', { b: 'x' }],
    ['an object value', { a: { toString: () => 'x' } }],
    ['an array value', { a: ['x'] }],
    ['a boolean value', { a: true }],
    ['null value', { a: null }],
  ])('gives "" for %s', (_name, input) => expect(readText(input, 'a')).toBe(''));

  it('reads own properties only', () => {
    expect(readText({}, 'constructor')).toBe('');
    expect(readText(Object.create({ a: 'inherited' }), 'a')).toBe('');
  });
});

describe('longerThan', () => {
  it.each<[string, number, boolean]>([
    ['abc', 3, false],
    ['abcd', 3, true],
    ['', 0, false],
    ['😀😀😀', 3, false], // 6 UTF-16 units, 3 characters
    ['😀😀😀😀', 3, true],
    ['a😀😀', 3, false],
    ['x'.repeat(1_000_000), 100, true],
  ])('%s over %s → %s', (text, max, expected) => expect(longerThan(text, max)).toBe(expected));
});
