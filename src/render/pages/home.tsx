/** The home page: the site file's page at '/', titled with the site's title. */
import type { Page } from '../../modules/site';
import { loadBlockData } from '../blockData';
import { pageKind } from '../pageKind';
import { contentPageView } from './content';

export const home = pageKind({
  name: 'home',
  match: (path, data) => (path === '/' ? data.pages.find((p) => p.path === '/') : undefined),
  load: async (request, page: Page) => ({ page, blocks: await loadBlockData(request, page) }),
  view: ({ site }, { page, blocks }) => contentPageView(page, blocks, site.title),
});
