/** The posts of one category of a blog at /{blog}/category/{slug} (./blogTaxonomy.ts), ten a page. */
import { PageType } from '../../core/enums';
import { BlogTaxonomyPage } from '../../ui/BlogPages';
import { pageKind } from '../pageKind';
import { blogContext } from './blogContext';
import { loadTaxonomyPage, matchTaxonomyPath } from './blogTaxonomy';

export const blogCategory = pageKind({
  name: 'blogCategory',
  match: (path, data) => matchTaxonomyPath('category', path, data),
  load: (request, match) => loadTaxonomyPage(request, 'category', match),
  view: ({ site }, page) => ({
    pageType: PageType.MAIN_CONTENT,
    title: `${page.name} · ${page.collection.title}`,
    description: `Posts in ${page.name}`,
    body: <BlogTaxonomyPage kind="category" {...page} context={blogContext(site, page.collection.slug)} />,
  }),
});
