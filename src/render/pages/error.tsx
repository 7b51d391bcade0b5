/**
 * The site's error page (page type 101): what a visitor sees, with status 500, when a page failed to render (a bug, a
 * database outage) — the site's own design and a way on, never a bare error. Made per failure, never cached.
 */
import { PageType } from '../../core/enums';
import type { Site } from '../../modules/site';
import type { PageContent } from '../pageKind';

export const ERROR_PAGE_TEXTS = {
  title: 'Something went wrong',
  body: 'This page could not be shown just now. Please try again in a moment.',
  home: 'Go to the home page',
} as const;

export const errorPage = (site: Site): PageContent => ({
  body: (
    <div className="not-found error-page">
      <h1>{ERROR_PAGE_TEXTS.title}</h1>
      <p>{ERROR_PAGE_TEXTS.body}</p>
      <p>
        <a className="button" href="/">
          {ERROR_PAGE_TEXTS.home}
        </a>
      </p>
    </div>
  ),
  pageType: PageType.ERROR,
  title: ERROR_PAGE_TEXTS.title,
  description: site.title,
  status: 500,
  cacheable: false,
  noindex: true,
});
