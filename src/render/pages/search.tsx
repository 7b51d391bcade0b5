/**
 * The search page at /search?q=…&page=N (page type 102): the site's products, pages and blog posts that hold every
 * word of the query, ranked, a page of SEARCH_PAGE_SIZE at a time (the total counted up to SEARCH_COUNT_CAP); when
 * none holds every word, those holding some of them, labelled so. Products show their picture and price. It
 * depends on the query, so it is never cached per path (`cacheable: false`), and it sends no page view
 * (src/render/pageCensus.ts). A query too long, or a page number that is not one, answers 400 with the form and what
 * was wrong.
 */
import { PageType } from '../../core/enums';
import { ROUTES } from '../../core/purchaseRoute';
import {
  parseSearchPage,
  parseSearchQuery,
  SEARCH_MESSAGES,
  SEARCH_PAGE_SIZE,
  searchPageCount,
} from '../../core/search';
import { getProducts } from '../../modules/catalog';
import { searchSite, searchSiteSomeWords } from '../../modules/search';
import { SearchPage, type SearchView } from '../../ui/SearchPage';
import { pageKind } from '../pageKind';

export const search = pageKind({
  name: 'search',
  match: (path) => (path === ROUTES.search ? true : undefined),
  load: async ({ db, site, query, liveAt }): Promise<SearchView> => {
    const raw = query.get('q');
    const parsed = parseSearchQuery(raw);
    if (!parsed.ok) return { state: 'refused', query: parsed.text, message: parsed.message };
    const page = parseSearchPage(query.get('page'));
    if (page === null) return { state: 'refused', query: parsed.text, message: SEARCH_MESSAGES.badPage };
    if (parsed.terms.length === 0)
      return { state: 'form', query: parsed.text, ...(parsed.text ? { message: SEARCH_MESSAGES.noWords } : {}) };
    const offset = (page - 1) * SEARCH_PAGE_SIZE;
    const every = await searchSite(db, site.id, parsed.terms, SEARCH_PAGE_SIZE, offset, liveAt);
    // No document holds every word: those holding some of them, said to be so, rather than an empty page.
    const some =
      every.total === 0 && parsed.terms.length > 1
        ? await searchSiteSomeWords(db, site.id, parsed.terms, SEARCH_PAGE_SIZE, offset, liveAt)
        : undefined;
    const partial = some !== undefined && some.total > 0;
    const { total, totalCapped, hits, more } = partial ? some : every;
    // The products found, read now (search pages are never cached): their picture, price and mark.
    const products = await getProducts(
      db,
      site.id,
      hits.filter((h) => h.kind === 'product').map((h) => h.itemId),
      liveAt,
    );
    return {
      state: 'results',
      query: parsed.text,
      terms: parsed.terms,
      termsDropped: parsed.termsDropped,
      page,
      // Past the count's cap the number of pages is not known: the page links to the next one while there is one.
      pageCount: totalCapped ? undefined : searchPageCount(total),
      total,
      totalCapped,
      more,
      hits,
      partial,
      products: new Map(products.map((p) => [p.id, p])),
      firstNumber: offset + 1,
    };
  },
  view: ({ site, currency, data }, view) => ({
    pageType: PageType.SEARCH,
    title: view.state === 'results' ? `Search results for “${view.query}”` : SEARCH_MESSAGES.label,
    description: `Search ${site.title}.`,
    body: <SearchPage view={view} shop={{ siteId: site.id, currency, labels: data.labels }} />,
    status: view.state === 'refused' ? 400 : 200,
    cacheable: false,
    noindex: true,
  }),
});
