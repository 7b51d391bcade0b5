/**
 * The search page (/search, page type 102): the form, what was searched, the results with the words found marked,
 * and the links to other pages of results. Every text of a result is plain text: the marks are <mark> elements
 * around React text nodes, so nothing a site file holds can become markup.
 */
import type { CurrencyCode } from '../core/currency';
import { ROUTES } from '../core/purchaseRoute';
import { highlight, SEARCH_COUNT_CAP, SEARCH_MESSAGES, searchSnippet, textMatches } from '../core/search';
import { toCoreProduct } from '../modules/catalog/coreProduct';
import type { SearchHit, SearchKind } from '../modules/search';
import type { Product } from '../modules/site/schema';
import type { UiLabels } from './labels';
import { ListPrice } from './ListPrice';
import { ProductMark } from './ProductCard';
import { ResponsiveImage } from './ResponsiveImage';
import { SearchForm } from './SearchForm';

export const SEARCH_KIND_LABELS: Record<SearchKind, string> = { product: 'Product', page: 'Page', post: 'Blog post' };

/** What the search page shows: nothing searched yet, a refusal, or a page of results. */
export type SearchView =
  | { state: 'form'; query: string; message?: string }
  | { state: 'refused'; query: string; message: string }
  | {
      state: 'results';
      query: string;
      terms: string[];
      termsDropped: boolean;
      page: number;
      /** Undefined when the total is past the count's cap (`totalCapped`). */
      pageCount: number | undefined;
      total: number;
      /** More than SEARCH_COUNT_CAP results: `total` is not exact. */
      totalCapped: boolean;
      /** Whether a result follows this page. */
      more: boolean;
      hits: SearchHit[];
      /** No document holds every word: `hits` hold some of them (each says which: `termsFound`). */
      partial: boolean;
      /** The products among the hits, by id: their picture, price and mark. */
      products: ReadonlyMap<string, Product>;
      firstNumber: number;
    };

/** What a product result needs to show its picture and price. */
export interface SearchShop {
  siteId: string;
  currency: CurrencyCode;
  labels: UiLabels;
}

/** Text with the words the terms find in <mark>. */
export function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>{highlight(text, terms).map((piece, i) => (piece.match ? <mark key={i}>{piece.text}</mark> : piece.text))}</>
  );
}

export const searchUrl = (query: string, page = 1): string =>
  `${ROUTES.search}?q=${encodeURIComponent(query)}${page > 1 ? `&page=${page}` : ''}`;

/** '3 results for “mug”', '1 result for “mug”', 'No results for “mug”.', 'More than 100 results for “mug”' (past the count's cap). */
export const resultsSummary = (total: number, query: string, capped = false): string =>
  capped
    ? `More than ${SEARCH_COUNT_CAP} results for “${query}”`
    : total === 0
      ? `No results for “${query}”.`
      : `${total} ${total === 1 ? 'result' : 'results'} for “${query}”`;

/**
 * When no result holds every word: 'No results have every word of “mugs cobalt”.' then '2 results with some of the
 * words:' ('More than 100 results …' past the count's cap).
 */
export const partialSummary = (query: string): string => `No results have every word of “${query}”.`;
export const partialLabel = (total: number, capped = false): string =>
  `${capped ? `More than ${SEARCH_COUNT_CAP} results` : `${total} ${total === 1 ? 'result' : 'results'}`} with some of the words:`;
/** Under a result holding some of the words: the words it lacks. */
export const missingWords = (terms: readonly string[], found: readonly string[]): string =>
  `Missing: ${terms.filter((t) => !found.includes(t)).join(', ')}`;

/** A product result's picture (a link to its page) and, beside the texts, its price and mark. */
function ProductMedia({ product, href, shop }: { product: Product; href: string; shop: SearchShop }) {
  const image = product.images[0];
  return (
    <a className="search-result__media" href={href} tabIndex={-1} aria-hidden="true">
      {image ? <ResponsiveImage siteId={shop.siteId} image={image} sizes="96px" displayWidth={96} /> : null}
    </a>
  );
}

function Result({
  hit,
  terms,
  product,
  shop,
}: {
  hit: SearchHit;
  terms: readonly string[];
  product: Product | undefined;
  shop: SearchShop;
}) {
  const snippet = searchSnippet(hit.summary, terms);
  // The details (tags, variant values, headings) are shown when they hold a word the text does not.
  const showDetails = hit.details !== '' && textMatches(hit.details, terms) && !textMatches(snippet, terms);
  const core = product ? toCoreProduct(product, shop.currency) : undefined;
  return (
    <li className={product ? 'search-result search-result--product' : 'search-result'}>
      {product ? <ProductMedia product={product} href={hit.path} shop={shop} /> : null}
      <div className="search-result__body">
        <p className="search-result__kind">{SEARCH_KIND_LABELS[hit.kind]}</p>
        <h2 className="search-result__title">
          <a href={hit.path}>
            <Highlighted text={hit.title} terms={terms} />
          </a>
        </h2>
        {showDetails ? (
          <p className="search-result__details">
            <Highlighted text={hit.details} terms={terms} />
          </p>
        ) : null}
        {product && core ? (
          <div className="search-result__price">
            <ListPrice product={product} core={core} currency={shop.currency} labels={shop.labels} />
            <ProductMark product={product} core={core} labels={shop.labels} />
          </div>
        ) : null}
        {snippet ? (
          <p className="search-result__snippet">
            <Highlighted text={snippet} terms={terms} />
          </p>
        ) : null}
        {hit.termsFound ? <p className="search-result__missing">{missingWords(terms, hit.termsFound)}</p> : null}
      </div>
    </li>
  );
}

/**
 * The links to the pages before and after a page that has results (past the last page the message links to the first
 * one instead). `pageCount` undefined: the number of pages is not known (more results than counted).
 */
function Pages({
  query,
  page,
  pageCount,
  more,
}: {
  query: string;
  page: number;
  pageCount: number | undefined;
  more: boolean;
}) {
  if (page === 1 && !more) return null;
  return (
    <nav className="search-pages" aria-label="Pages of results">
      {page > 1 ? (
        <a className="button button--small" rel="prev" href={searchUrl(query, page - 1)}>
          Previous<span className="visually-hidden"> page of results</span>
        </a>
      ) : null}
      <span className="search-pages__current" aria-current="page">
        {pageCount === undefined ? `Page ${page}` : `Page ${page} of ${pageCount}`}
      </span>
      {more ? (
        <a className="button button--small" rel="next" href={searchUrl(query, page + 1)}>
          Next<span className="visually-hidden"> page of results</span>
        </a>
      ) : null}
    </nav>
  );
}

export function SearchPage({ view, shop }: { view: SearchView; shop: SearchShop }) {
  const message = view.state === 'refused' ? view.message : view.state === 'form' ? view.message : undefined;
  return (
    <div className="search-page">
      <h1>{view.state === 'results' ? `Search results for “${view.query}”` : SEARCH_MESSAGES.label}</h1>
      <SearchForm
        id="search-query"
        query={view.query}
        label="Search this site"
        describedBy={message ? 'search-message' : undefined}
        invalid={view.state === 'refused'}
      />
      {message ? (
        <p
          id="search-message"
          className={
            view.state === 'refused' ? 'search-page__message search-page__message--error' : 'search-page__message'
          }
        >
          {message}
        </p>
      ) : null}
      {view.state === 'results' ? (
        <>
          <p className="search-page__summary">
            {view.partial ? partialSummary(view.query) : resultsSummary(view.total, view.query, view.totalCapped)}
            {view.termsDropped ? ` ${SEARCH_MESSAGES.termsDropped}` : ''}
          </p>
          {view.partial ? (
            <p className="search-page__partial" id="search-partial">
              {partialLabel(view.total, view.totalCapped)}
            </p>
          ) : null}
          {view.hits.length > 0 ? (
            <ol
              className="search-results"
              start={view.firstNumber}
              {...(view.partial ? { 'aria-labelledby': 'search-partial' } : {})}
            >
              {view.hits.map((hit) => (
                <Result
                  key={`${hit.kind}/${hit.itemId}`}
                  hit={hit}
                  terms={view.terms}
                  product={hit.kind === 'product' ? view.products.get(hit.itemId) : undefined}
                  shop={shop}
                />
              ))}
            </ol>
          ) : view.total > 0 ? (
            <p>
              {`There are no results on page ${view.page}. `}
              <a href={searchUrl(view.query)}>See the first page of results</a>.
            </p>
          ) : null}
          {view.hits.length > 0 ? (
            <Pages query={view.query} page={view.page} pageCount={view.pageCount} more={view.more} />
          ) : null}
        </>
      ) : null}
    </div>
  );
}
