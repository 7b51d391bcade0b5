import type { ImagePriority } from '../core/images';
import type { Post } from '../modules/site/schema';
import { Paragraphs } from './Layout';
import {
  commentsShown,
  CommentLink,
  PostComments,
  PostEvent,
  PostLikes,
  PostTaxonomy,
  PostText,
  postPath,
  ShareLinks,
  type BlogContext,
} from './BlogPostParts';
import { ResponsiveImage } from './ResponsiveImage';

export { postPath, type BlogContext };

/** '2026-05-31' → 'May 31, 2026' (dates are calendar dates: formatted in UTC so no time zone shifts the day). */
export const formatPostDate = (isoDate: string, locale: string): string =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Date, author and — with the blog's context — the comment link. */
function PostMeta({ post, locale, context }: { post: Post; locale: string; context?: BlogContext }) {
  const comments = context && commentsShown(post, context) ? <CommentLink post={post} context={context} /> : null;
  return (
    <p className="post-meta">
      <time dateTime={post.publishedOn}>{formatPostDate(post.publishedOn, locale)}</time>
      {post.author ? <> · {post.author}</> : null}
      {comments ? <> · {comments}</> : null}
    </p>
  );
}

export function PostList({
  posts,
  siteId,
  collectionSlug,
  headingLevel = 2,
  locale = 'en-US',
  firstImagePriority,
  context,
}: {
  posts: Post[];
  siteId: string;
  collectionSlug: string;
  headingLevel?: 2 | 3;
  locale?: string;
  /** 'high' where the list opens the page: its first image is then the largest paint, so it must not wait (lazy). */
  firstImagePriority?: ImagePriority;
  /** The blog's settings (comment links, event dates in its time zone, category links); without it: date and author only. */
  context?: BlogContext;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="post-list">
      {posts.map((post, index) => (
        <li key={post.id} className="post-card">
          {post.image ? (
            <div className="post-card__media">
              <ResponsiveImage
                siteId={siteId}
                image={post.image}
                sizes="(min-width: 1160px) 370px, (min-width: 700px) 45vw, 100vw"
                displayWidth={500}
                priority={index === 0 ? firstImagePriority : undefined}
              />
            </div>
          ) : null}
          <Heading>
            <a href={postPath(collectionSlug, post.slug)}>{post.title}</a>
          </Heading>
          <PostMeta post={post} locale={locale} context={context} />
          {context ? <PostEvent post={post} context={context} compact /> : null}
          {post.excerpt ? <p>{post.excerpt}</p> : null}
          {context ? <PostTaxonomy post={post} kind="category" collectionSlug={collectionSlug} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** A post's page: its text, event details, categories and tags, likes, share links and comments (with the blog's context). */
export function PostView({
  post,
  siteId,
  locale,
  context,
  likeCount = 0,
}: {
  post: Post;
  siteId: string;
  locale: string;
  context?: BlogContext;
  likeCount?: number;
}) {
  return (
    <article className="post">
      <h1>{post.title}</h1>
      <PostMeta post={post} locale={locale} context={context} />
      {context ? <PostEvent post={post} context={context} /> : null}
      {post.image ? (
        <div className="post__image">
          <ResponsiveImage
            siteId={siteId}
            image={post.image}
            sizes="(min-width: 760px) 704px, 100vw"
            displayWidth={750}
            priority="high"
          />
        </div>
      ) : null}
      {context ? (
        <PostText className="post__body" text={post.body} collectionSlug={context.collectionSlug} />
      ) : (
        <Paragraphs className="post__body" text={post.body} />
      )}
      {context ? (
        <footer className="post__footer">
          <PostTaxonomy post={post} kind="category" collectionSlug={context.collectionSlug} />
          <PostTaxonomy post={post} kind="tag" collectionSlug={context.collectionSlug} />
          <PostLikes post={post} context={context} likeCount={likeCount} />
          <ShareLinks post={post} context={context} />
        </footer>
      ) : null}
      {context ? <PostComments post={post} context={context} /> : null}
    </article>
  );
}
