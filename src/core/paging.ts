/**
 * Paging through long lists (a shop of 10,000 products shows one page of its collection at a time): page numbers
 * as addresses write them, the page a number asks for, and the links a pager shows.
 */

/** The largest page number an address may name (more than any list here will have). */
export const MAX_PAGE_NUMBER = 100_000;

/** '2' → 2; '1', '0', '02', '-1', '2.5', 'x', '' → undefined (page 1 has no number of its own in an address). */
export function parsePageNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9]\d{0,5}$/.test(text)) return undefined;
  const page = Number(text);
  return page >= 2 && page <= MAX_PAGE_NUMBER ? page : undefined;
}

export interface PageSlice {
  page: number;
  /** The last page (1 for an empty list). */
  pageCount: number;
  offset: number;
  limit: number;
}

/** The slice of a list of `total` items that page `page` shows, or undefined when the page is past the end. */
export function pageSlice(total: number, pageSize: number, page: number): PageSlice | undefined {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (!Number.isInteger(page) || page < 1 || page > pageCount) return undefined;
  return { page, pageCount, offset: (page - 1) * pageSize, limit: pageSize };
}

/**
 * The page numbers a pager shows: the first, the last, and the current one with a neighbour each side; null marks
 * a gap. 1 … 4 [5] 6 … 20.
 */
export function pagerPages(page: number, pageCount: number): (number | null)[] {
  const shown = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((n) => n >= 1 && n <= pageCount)
    .sort((a, b) => a - b);
  const pages: (number | null)[] = [];
  shown.forEach((n, i) => {
    const previous = shown[i - 1];
    if (previous !== undefined && n - previous === 2) pages.push(previous + 1);
    else if (previous !== undefined && n - previous > 2) pages.push(null);
    pages.push(n);
  });
  return pages;
}
