import type { ImagePriority } from '../core/images';
import type { Post } from '../site/schema';
import { Paragraphs } from './Layout';
import { ResponsiveImage } from './ResponsiveImage';

export const postPath = (collectionSlug: string, postSlug: string) => `/${collectionSlug}/${postSlug}`;

/** '2026-05-31' → 'May 31, 2026' (dates are calendar dates: formatted in UTC so no time zone shifts the day). */
export const formatPostDate = (isoDate: string, locale: string): string =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

function PostMeta({ post, locale }: { post: Post; locale: string }) {
  return (
    <p className="post-meta">
      <time dateTime={post.publishedOn}>{formatPostDate(post.publishedOn, locale)}</time>
      {post.author ? <> · {post.author}</> : null}
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
}: {
  posts: Post[];
  siteId: string;
  collectionSlug: string;
  headingLevel?: 2 | 3;
  locale?: string;
  /** 'high' where the list opens the page: its first image is then the largest paint, so it must not wait (lazy). */
  firstImagePriority?: ImagePriority;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="post-list">
      {posts.map((post, index) => (
        <li key={post.id} className="post-card">
          {post.image ? (
            <div className="post-card__media">
              <ResponsiveImage siteId={siteId} image={post.image} sizes="(min-width: 1160px) 370px, (min-width: 700px) 45vw, 100vw" displayWidth={500} priority={index === 0 ? firstImagePriority : undefined} />
            </div>
          ) : null}
          <Heading>
            <a href={postPath(collectionSlug, post.slug)}>{post.title}</a>
          </Heading>
          <PostMeta post={post} locale={locale} />
          {post.excerpt ? <p>{post.excerpt}</p> : null}
        </li>
      ))}
    </ul>
  );
}

export function PostView({ post, siteId, locale }: { post: Post; siteId: string; locale: string }) {
  return (
    <article className="post">
      <h1>{post.title}</h1>
      <PostMeta post={post} locale={locale} />
      {post.image ? (
        <div className="post__image">
          <ResponsiveImage siteId={siteId} image={post.image} sizes="(min-width: 760px) 704px, 100vw" displayWidth={750} priority="high" />
        </div>
      ) : null}
      <Paragraphs className="post__body" text={post.body} />
    </article>
  );
}
