/** A blog collection at /{collection}: its posts, newest first. */
import { PageType } from '../../core/enums';
import * as catalog from '../../modules/catalog';
import { BlogListPage } from '../../ui/BlogPages';
import { collectionPath, pageKind } from '../pageKind';
import { blogContext } from './blogContext';

export const blogList = pageKind({
  name: 'blogList',
  match: (path, data) => {
    const at = collectionPath(path, data);
    return at && at.collection.type === 'blog' && at.second === undefined ? at.collection : undefined;
  },
  load: async ({ db, site, liveAt }, collection) => ({
    collection,
    posts: await catalog.listPosts(db, site.id, collection.id, undefined, liveAt),
  }),
  view: ({ site }, { collection, posts }) => ({
    pageType: PageType.MAIN_CONTENT,
    title: collection.title,
    description: posts[0]?.excerpt ?? collection.title,
    body: <BlogListPage collection={collection} posts={posts} context={blogContext(site, collection.slug)} />,
  }),
});
