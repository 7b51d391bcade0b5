import { describe, expect, it } from 'vitest';
import {
  BUTTON_LABELS,
  buttonStateLabel,
  DEFAULT_LABELS,
  ERROR_PAGE_TITLE,
  filledText,
  LIKERT_DEFAULT_LABELS,
  LIKERT_MAX,
  LIKERT_MIN,
  PRODUCT_MARK_LABELS,
  resolveSiteLabels,
  selectVariantLabel,
  type SiteLabels,
} from './labels';

describe("the error page's title (§8)", () => {
  it('is verbatim', () => {
    expect(ERROR_PAGE_TITLE).toBe('Something went wrong');
  });
});

describe('default labels (§9)', () => {
  it('are verbatim', () => {
    expect(DEFAULT_LABELS).toEqual({
      addToCart: 'Add To Cart',
      subscribe: 'Subscribe',
      quantity: 'Quantity',
      quickView: 'Quick View',
      salePrice: 'Sale Price:',
      originalPrice: 'Original Price:',
      selectValue: 'Select Value',
      selectVariant: 'Select {variantName}',
    });
    expect(PRODUCT_MARK_LABELS).toEqual({ soldOut: 'sold out', sale: 'sale' });
  });

  it('fills Select {variantName}', () => {
    expect(selectVariantLabel('Size')).toBe('Select Size');
    expect(selectVariantLabel('Size', 'Choose {variantName} ({variantName})')).toBe('Choose Size (Size)');
  });

  it('likert runs -2..2 from Strongly Disagree to Strongly Agree', () => {
    expect([LIKERT_MIN, LIKERT_MAX]).toEqual([-2, 2]);
    expect(LIKERT_DEFAULT_LABELS[-2]).toBe('Strongly Disagree');
    expect(LIKERT_DEFAULT_LABELS[2]).toBe('Strongly Agree');
    expect(Object.keys(LIKERT_DEFAULT_LABELS)).toHaveLength(5);
  });
});

describe('button state labels (§4)', () => {
  it.each<[Parameters<typeof buttonStateLabel>[0], boolean, string]>([
    ['idle', false, 'Add To Cart'],
    ['adding', false, 'Adding…'],
    ['adding', true, 'Add...'],
    ['added', false, 'Added!'],
    ['select-option', false, 'Select Option'],
    ['sold-out', false, 'Sold Out'],
    ['saving', false, 'Saving…'],
  ])('%s (compact %s) → %s', (state, compact, expected) => {
    expect(buttonStateLabel(state, 'Add To Cart', compact)).toBe(expected);
  });

  it('uses the ellipsis character where the spec does', () => {
    expect(BUTTON_LABELS.adding).toBe('Adding\u2026');
    expect(BUTTON_LABELS.saving).toBe('Saving\u2026');
    expect(BUTTON_LABELS.addingCompact).toBe('Add...');
  });
});

describe('site labels (§9 defaults for blank values)', () => {
  it.each<[string, Record<string, string | null | undefined>, Partial<SiteLabels>]>([
    [
      'nothing configured',
      {},
      {
        addToCart: 'Add To Cart',
        subscribe: 'Subscribe',
        quantity: 'Quantity',
        salePrice: 'Sale Price:',
        originalPrice: 'Original Price:',
        selectValue: 'Select Value',
        soldOut: 'sold out',
        sale: 'sale',
      },
    ],
    [
      'blank values',
      { addToCart: '  ', sale: '', soldOut: null },
      { addToCart: 'Add To Cart', sale: 'sale', soldOut: 'sold out' },
    ],
    [
      'own labels',
      { addToCart: 'Buy', sale: 'Deal', soldOut: 'Gone', quantity: 'Qty' },
      { addToCart: 'Buy', sale: 'Deal', soldOut: 'Gone', quantity: 'Qty' },
    ],
  ])('%s', (_, configured, expected) => {
    expect(resolveSiteLabels(configured)).toMatchObject(expected);
  });

  it.each<[string | null | undefined, string | null]>([
    ['x', 'x'],
    [' ', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('filledText(%j) → %j', (text, expected) => {
    expect(filledText(text)).toBe(expected);
  });
});
