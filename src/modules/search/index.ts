/** Site search: the index rewritten by each import, and the query. */
// Other modules import this module through this file only (eslint: module boundaries).
/**
 * Site search (the /search page, page type 102): the index of a site's products, pages and blog posts
 * (`search_documents`, owned here), kept in step with imports, and the ranked query. Rules of words, highlighting
 * and snippets are in src/core/search.ts.
 */
export { searchDocuments, type SearchableContent, type SearchDocument, type SearchKind } from './documents';
export { indexSite } from './indexSite';
export { searchSite, searchSiteSomeWords, type SearchHit, type SearchResults } from './searchSite';
export { searchFollowUps } from './indexStoredSites';
