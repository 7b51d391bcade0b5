import { describe, expect, it } from 'vitest';
import { decodeCartNotice, encodeCartNotice, missingOptionIndexes, type CartNotice } from './cartNotice';

describe('cart notice cookie (no-JavaScript add)', () => {
  it.each<CartNotice>([
    { kind: 'added', itemId: 'speckled-mug' },
    { kind: 'refused', itemId: 'bud-vase', text: 'outOfStock' },
    { kind: 'select', itemId: 'pour-over-dripper', missing: [0, 2] },
    { kind: 'line', action: 'update', text: 'outOfStock' },
    { kind: 'line', action: 'remove', text: 'entryNotFound' },
  ])('reads back what it wrote: %o', (notice) => {
    expect(decodeCartNotice(encodeCartNotice(notice))).toEqual(notice);
  });

  it.each([
    undefined,
    '',
    'a',
    'a.',
    'a.Mug',
    'a.mug.extra',
    'x.mug',
    'r.mug',
    'r.mug.out-of-stock',
    'r.mug.outOfStock.1',
    'r.mug.select',
    'r.mug.select.9',
    'r.mug.select.1-',
    'r.mug.select.0.1',
    `a.${'m'.repeat(300)}`,
    'l.u',
    'l.x.outOfStock',
    'l.u.out-of-stock',
    'l.r.outOfStock.1',
  ])('refuses %s', (value) => {
    expect(decodeCartNotice(value)).toBeNull();
  });

  it('keeps each missing option once', () => {
    expect(decodeCartNotice('r.mug.select.1-1-0')).toEqual({ kind: 'select', itemId: 'mug', missing: [1, 0] });
  });

  it('names missing options by their place among the product options', () => {
    expect(missingOptionIndexes(['Size', 'Colour', 'Fit'], ['Fit', 'Size', 'Other'])).toEqual([0, 2]);
  });
});
