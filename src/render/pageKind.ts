/**
 * A page kind (the home page, a product page, the blog …) is one module under ./pages: the paths it answers
 * (`match`), the data it reads (`load`) and what it shows (`view`). ./pageKinds.ts lists them in the order they are
 * tried; ./renderPath.tsx puts the chosen page in the site's frame.
 */
import type { Kysely } from 'kysely';
import type { ReactNode } from 'react';
import type { CurrencyCode } from '../core/currency';
import type { Database } from '../platform/db/tables';
import type { Site } from '../modules/site';
import type { PageCensusFields } from './pageCensus';
import type { SiteData } from './siteData';

/** Everything a page kind may read: the site, its version's shared data, the path and query asked for. */
export interface PageRequest {
  db: Kysely<Database>;
  site: Site;
  currency: CurrencyCode;
  data: SiteData;
  /** The canonical site path (./renderPath.ts `canonicalPath`). */
  path: string;
  /** The address's query (only pages that read it, like the search, depend on it). */
  query: URLSearchParams;
  /**
   * What the page shows of the site's pages, posts and products (issue 26, src/core/publishing.ts): those live at this
   * instant (an ISO UTC time, the storefront), or EVERYTHING (a staff member's preview, drafts included). Every catalog
   * read of a loader passes it.
   */
  liveAt: string;
  /**
   * Names the products whose stock the page was made from (shown, or weighed for a shelf): the cached page is dropped
   * when one of their stock changes (../modules/catalog/stockWatch.ts). A loader that reads variants must call it.
   */
  shows(products: readonly { id: string }[]): void;
}

/** What a page kind's view gives the frame. */
export interface PageContent {
  body: ReactNode;
  /** The page's census fields (./pageCensus.ts). */
  census?: PageCensusFields;
  /** The numeric page type of spec §2. */
  pageType: number;
  title: string;
  /** The whole `<title>` as given (a product's SEO title); absent: '{title} — {site title}'. */
  documentTitle?: string;
  description: string;
  image?: string | null;
  /** 200 unless given (a search refused as too long answers 400). */
  status?: number;
  /** False: the page depends on more than the path (the query), so the caller must not cache it per path. */
  cacheable?: boolean;
  /** Kept out of search engines (pages that are not content: the search). */
  noindex?: boolean;
}

export interface PageKindModule<Match, Data> {
  /** The kind's name, as its file is named. */
  name: string;
  /** The path's parts this kind answers (what its loader needs), or undefined: another kind's path. */
  match(path: string, data: SiteData): Match | undefined;
  /** Reads the page's data; undefined: nothing there (the site's not-found page). */
  load(request: PageRequest, match: Match): Promise<Data | undefined>;
  /** The page. */
  view(request: PageRequest, data: Data): PageContent;
}

/** A page kind with its types closed over, for the table. */
export interface PageKind {
  name: string;
  /** null: not this kind's path; undefined: its path, but nothing there (404). */
  resolve(request: PageRequest): Promise<PageContent | undefined> | null;
}

export function pageKind<Match, Data>(module: PageKindModule<Match, Data>): PageKind {
  return {
    name: module.name,
    resolve(request) {
      const match = module.match(request.path, request.data);
      if (match === undefined) return null;
      return module.load(request, match).then((data) => (data === undefined ? undefined : module.view(request, data)));
    },
  };
}

/** The collection at `/{slug}/…` and the rest of the path split at '/'. */
export const collectionPath = (path: string, data: SiteData) => {
  const [first, second, third, ...extra] = path.slice(1).split('/');
  const collection = first ? data.collections.find((c) => c.slug === first) : undefined;
  return collection ? { collection, second, third, extra } : undefined;
};
