/** A blog post at /{collection}/{slug} (page type 50 content item). */
import { PageType, RecordType } from '../../core/enums';
import { imageUrl } from '../../core/images';
import * as catalog from '../../modules/catalog';
import { likeCounts, likesEnabled } from '../../modules/likes';
import { PostView } from '../../ui/Blog';
import { assetUrl } from '../../ui/ResponsiveImage';
import { collectionPath, pageKind } from '../pageKind';
import { blogContext } from './blogContext';

export const blogPost = pageKind({
  name: 'blogPost',
  match: (path, data) => {
    const at = collectionPath(path, data);
    if (
      !at ||
      at.collection.type !== 'blog' ||
      at.second === undefined ||
      at.third !== undefined ||
      at.extra.length > 0
    )
      return undefined;
    return { collection: at.collection, slug: at.second };
  },
  load: async ({ db, site, liveAt }, { collection, slug }) => {
    const post = await catalog.getPostBySlug(db, site.id, collection.slug, slug, liveAt);
    if (!post) return undefined;
    // The count as the page is made (pages are cached): the like button reads the current one when it runs.
    const likeCount = likesEnabled(site) ? ((await likeCounts(db, site.id, [post.id])).get(post.id) ?? 0) : 0;
    return { collection, post, likeCount };
  },
  view: ({ site }, { collection, post, likeCount }) => ({
    pageType: PageType.CONTENT_ITEM,
    census: {
      itemId: post.id,
      collectionId: collection.id,
      recordType: post.event ? RecordType.EVENT : RecordType.TEXT,
      contentSource: 'i',
    },
    title: post.title,
    description: post.excerpt || post.body,
    image: post.image ? imageUrl(assetUrl(site.id, post.image.file, site.version), 1000) : null,
    body: (
      <PostView
        post={post}
        siteId={site.id}
        locale={site.settings.locale}
        context={blogContext(site, collection.slug)}
        likeCount={likeCount}
      />
    ),
  }),
});
