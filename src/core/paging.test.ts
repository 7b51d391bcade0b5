import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PAGE_NUMBER, pagerPages, pageSlice, parsePageNumber } from './paging';

describe('parsePageNumber', () => {
  it('reads page numbers from 2 up, written plainly', () => {
    expect(parsePageNumber('2')).toBe(2);
    expect(parsePageNumber(String(MAX_PAGE_NUMBER))).toBe(MAX_PAGE_NUMBER);
    for (const bad of [
      undefined,
      '',
      '1',
      '0',
      '02',
      '-1',
      '2.5',
      '1e3',
      'x',
      ' 2',
      String(MAX_PAGE_NUMBER + 1),
      '9999999',
    ]) {
      expect(parsePageNumber(bad), String(bad)).toBeUndefined();
    }
  });
});

describe('pageSlice', () => {
  it('slices a list into pages, and says when a page is past the end', () => {
    expect(pageSlice(100, 48, 1)).toEqual({ page: 1, pageCount: 3, offset: 0, limit: 48 });
    expect(pageSlice(100, 48, 3)).toEqual({ page: 3, pageCount: 3, offset: 96, limit: 48 });
    expect(pageSlice(100, 48, 4)).toBeUndefined();
    expect(pageSlice(0, 48, 1)).toEqual({ page: 1, pageCount: 1, offset: 0, limit: 48 });
    expect(pageSlice(96, 48, 3)).toBeUndefined();
  });
  it('covers every item exactly once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 100 }), (total, size) => {
        const first = pageSlice(total, size, 1)!;
        let seen = 0;
        for (let page = 1; page <= first.pageCount; page++) {
          const slice = pageSlice(total, size, page)!;
          expect(slice.offset).toBe(seen);
          seen += Math.min(slice.limit, total - slice.offset);
        }
        expect(seen).toBe(total);
        expect(pageSlice(total, size, first.pageCount + 1)).toBeUndefined();
      }),
    );
  });
});

describe('pagerPages', () => {
  it('shows the ends and the neighbourhood of the current page, with gaps', () => {
    expect(pagerPages(1, 1)).toEqual([1]);
    expect(pagerPages(1, 3)).toEqual([1, 2, 3]);
    expect(pagerPages(5, 20)).toEqual([1, null, 4, 5, 6, null, 20]);
    expect(pagerPages(3, 20)).toEqual([1, 2, 3, 4, null, 20]);
    expect(pagerPages(20, 20)).toEqual([1, null, 19, 20]);
    expect(pagerPages(1, 209)).toEqual([1, 2, null, 209]);
    // A gap of one page shows that page, never '…' in its place.
    expect(pagerPages(4, 20)).toEqual([1, 2, 3, 4, 5, null, 20]);
    expect(pagerPages(17, 20)).toEqual([1, null, 16, 17, 18, 19, 20]);
  });
});
