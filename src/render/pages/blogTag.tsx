/** The posts of one tag (or #hashtag) of a blog at /{blog}/tag/{slug} (./blogTaxonomy.ts), ten a page. */
import { PageType } from '../../core/enums';
import { BlogTaxonomyPage } from '../../ui/BlogPages';
import { pageKind } from '../pageKind';
import { blogContext } from './blogContext';
import { loadTaxonomyPage, matchTaxonomyPath } from './blogTaxonomy';

export const blogTag = pageKind({
  name: 'blogTag',
  match: (path, data) => matchTaxonomyPath('tag', path, data),
  load: (request, match) => loadTaxonomyPage(request, 'tag', match),
  view: ({ site }, page) => ({
    pageType: PageType.MAIN_CONTENT,
    title: `#${page.name} · ${page.collection.title}`,
    description: `Posts tagged ${page.name}`,
    body: <BlogTaxonomyPage kind="tag" {...page} context={blogContext(site, page.collection.slug)} />,
  }),
});
