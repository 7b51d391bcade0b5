/** What the page says about itself (`<body data-page-type data-census>`, src/render/pageCensus.ts). */
import type { PageCensus } from '../../render/pageCensus';

export interface PageInfo {
  pageType: number | null;
  path: string;
  census: PageCensus | null;
}

export function readPage(doc: Document = document): PageInfo {
  const type = doc.body.dataset.pageType;
  let census: PageCensus | null = null;
  try {
    census = JSON.parse(doc.body.dataset.census ?? 'null') as PageCensus | null;
  } catch {
    census = null;
  }
  return { pageType: type ? Number(type) : null, path: location.pathname, census };
}
