/**
 * The parts of a blog post around its text (spec §3 content item extras, §4 comments): its categories and tags
 * (linked to their list pages), the comment link with the core's label, an event's dates, place and add-to-calendar
 * link, the like button, the share links, and post text with its #hashtags linked.
 */
import { taxonomyPath, type TaxonomyKind } from '../core/blogTaxonomy';
import { addToCalendarUrl, joinLocation } from '../core/calendar';
import { areCommentsShown, commentCountLabel } from '../core/comments';
import { formatEventRange } from '../core/eventDates';
import { shareLinks, type ShareNetwork } from '../core/share';
import { splitHashtags } from '../core/social';
import type { Post } from '../modules/site/schema';
import { Island } from './Island';

/** What a blog's posts show besides themselves: the site's settings for them. */
export interface BlogContext {
  siteId: string;
  /** The blog at /{collectionSlug}. */
  collectionSlug: string;
  locale: string;
  /** The site's time zone: event dates are written in it. */
  timeZone: string;
  /** The site's comment setting (an explicit false hides every comment link). */
  commentsEnabled: boolean;
  likesEnabled: boolean;
  shareNetworks: readonly ShareNetwork[];
  /** The site's own origin ('https://shop.example'); '' (no domain): no share links, a relative address shares nothing. */
  origin: string;
}

export const postPath = (collectionSlug: string, postSlug: string) => `/${collectionSlug}/${postSlug}`;

/** Categories or tags of a post, each linking to its list page. */
export function PostTaxonomy({
  post,
  kind,
  collectionSlug,
}: {
  post: Post;
  kind: TaxonomyKind;
  collectionSlug: string;
}) {
  const names = kind === 'category' ? post.categories : post.tags;
  if (names.length === 0) return null;
  const label =
    kind === 'category' ? (names.length === 1 ? 'Category' : 'Categories') : names.length === 1 ? 'Tag' : 'Tags';
  return (
    <p className={`post-taxonomy post-taxonomy--${kind}`}>
      <span className="post-taxonomy__label">{label}: </span>
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 ? ', ' : null}
          <a href={taxonomyPath(collectionSlug, kind, name)} rel="tag">
            {kind === 'tag' ? `#${name}` : name}
          </a>
        </span>
      ))}
    </p>
  );
}

/** Whether the post shows comments (the core's rule: enabled on the post or already commented, unless the site says no). */
export const commentsShown = (post: Post, context: Pick<BlogContext, 'commentsEnabled'>): boolean =>
  areCommentsShown({
    commentState: post.commentState,
    publicCommentCount: post.publicCommentCount,
    commentsEnabled: context.commentsEnabled,
  });

/** 'No Comments', '1 Comment', 'N Comments', linking to the post's comments; nothing when comments are not shown. */
export function CommentLink({
  post,
  context,
}: {
  post: Post;
  context: Pick<BlogContext, 'collectionSlug' | 'commentsEnabled'>;
}) {
  if (!commentsShown(post, context)) return null;
  return (
    <a className="post-comments-link" href={`${postPath(context.collectionSlug, post.slug)}#comments`}>
      {commentCountLabel(post.publicCommentCount)}
    </a>
  );
}

/** An event post's dates (in the site's time zone), place and add-to-calendar link. */
export function PostEvent({
  post,
  context,
  compact = false,
}: {
  post: Post;
  context: Pick<BlogContext, 'timeZone' | 'locale'>;
  compact?: boolean;
}) {
  const event = post.event;
  if (!event) return null;
  const startDate = Date.parse(event.start);
  const endDate = event.end === undefined ? null : Date.parse(event.end);
  const when = formatEventRange({ startDate, endDate, allDay: event.allDay }, context.timeZone, context.locale);
  const where = joinLocation(event.location);
  if (compact) {
    return (
      <p className="post-event post-event--compact">
        <time dateTime={event.start}>{when}</time>
        {where ? <> · {where}</> : null}
      </p>
    );
  }
  const calendar = addToCalendarUrl({ title: post.title, startDate, endDate, location: event.location });
  return (
    <section className="post-event" aria-label="Event details">
      <dl className="post-event__details">
        <dt>When</dt>
        <dd>
          <time dateTime={event.start}>{when}</time>
        </dd>
        {where ? (
          <>
            <dt>Where</dt>
            <dd>{where}</dd>
          </>
        ) : null}
      </dl>
      {calendar.ok ? (
        <a className="post-event__calendar" href={calendar.value} target="_blank" rel="noopener noreferrer">
          Add to calendar<span className="visually-hidden"> (Google Calendar, opens in a new tab)</span>
        </a>
      ) : null}
    </section>
  );
}

/** Plain-text paragraphs with each #hashtag linked to the blog's tag page of that word. */
export function PostText({
  text,
  collectionSlug,
  className,
}: {
  text: string;
  collectionSlug: string;
  className?: string;
}) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className={className}>
      {paragraphs.map((paragraph, i) => (
        <p key={i}>
          {splitHashtags(paragraph).map((part, j) =>
            'hashtag' in part ? (
              <a key={j} className="hashtag" href={`/${collectionSlug}/tag/${encodeURIComponent(part.slug)}`} rel="tag">
                {part.hashtag}
              </a>
            ) : (
              part.text
            ),
          )}
        </p>
      ))}
    </div>
  );
}

/** Plain links to each network's share page; nothing without the site's own address. */
export function ShareLinks({ post, context }: { post: Post; context: BlogContext }) {
  if (!context.origin || context.shareNetworks.length === 0) return null;
  const links = shareLinks(
    `${context.origin}${postPath(context.collectionSlug, post.slug)}`,
    post.title,
    context.shareNetworks,
  );
  return (
    <nav className="post-share" aria-label="Share this post">
      <ul className="post-share__list">
        {links.map((link) => (
          <li key={link.network}>
            <a
              className={`post-share__link post-share__link--${link.network}`}
              href={link.href}
              target={link.network === 'email' ? undefined : '_blank'}
              rel="noopener noreferrer"
            >
              {link.label}
              {link.network === 'email' ? null : <span className="visually-hidden"> (opens in a new tab)</span>}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The like button and count of a post (src/client/islands/LikeButton.tsx); nothing unless the site turns likes on. */
export function PostLikes({ post, context, likeCount }: { post: Post; context: BlogContext; likeCount: number }) {
  if (!context.likesEnabled) return null;
  return (
    <div className="post-likes-area" id="likes">
      <Island name="LikeButton" id={`like-${post.id}`} props={{ postId: post.id, likeCount }} />
    </div>
  );
}

/** Where the comment link lands: the post's comments heading with the core's count label. */
export function PostComments({ post, context }: { post: Post; context: BlogContext }) {
  if (!commentsShown(post, context)) return null;
  return (
    <section className="post-comments" id="comments" aria-labelledby="comments-heading" tabIndex={-1}>
      <h2 id="comments-heading">{commentCountLabel(post.publicCommentCount)}</h2>
    </section>
  );
}
