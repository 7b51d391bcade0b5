/** The site's not-found page (page type 100): what every path no page kind answers shows, with status 404. */
import { PageType } from '../../core/enums';
import type { Site } from '../../modules/site';
import { NotFoundPage } from '../../ui/Pages';
import type { PageContent } from '../pageKind';

export const notFound = (site: Site): PageContent => ({
  body: <NotFoundPage />,
  pageType: PageType.NOT_FOUND,
  title: 'Page not found',
  description: site.title,
  status: 404,
});
