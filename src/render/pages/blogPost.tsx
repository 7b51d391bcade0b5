/** A blog post at /{collection}/{slug} (page type 50 content item). */
import { PageType, RecordType } from '../../core/enums';
import { imageUrl } from '../../core/images';
import * as catalog from '../../services/catalog';
import { PostView } from '../../ui/Pages';
import { assetUrl } from '../../ui/ResponsiveImage';
import { collectionPath, pageKind } from '../pageKind';

export const blogPost = pageKind({
  name: 'blogPost',
  match: (path, data) => {
    const at = collectionPath(path, data);
    if (!at || at.collection.type !== 'blog' || at.second === undefined || at.third !== undefined || at.extra.length > 0) return undefined;
    return { collection: at.collection, slug: at.second };
  },
  load: async ({ db, site }, { collection, slug }) => {
    const post = await catalog.getPostBySlug(db, site.id, collection.slug, slug);
    return post && { collection, post };
  },
  view: ({ site }, { collection, post }) => ({
    pageType: PageType.CONTENT_ITEM,
    census: { itemId: post.id, collectionId: collection.id, recordType: RecordType.TEXT, contentSource: 'i' },
    title: post.title,
    description: post.excerpt || post.body,
    image: post.image ? imageUrl(assetUrl(site.id, post.image.file, site.version), 1000) : null,
    body: <PostView post={post} siteId={site.id} locale={site.settings.locale} />,
  }),
});
