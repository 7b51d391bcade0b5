/**
 * The rules of the blog post editor at /admin/posts (issue 26), shared by its form and its JSON calls: a post's URL
 * within its blog, its tags and categories as the owner types them, with the spec's editor messages (§5) where they fit.
 */
import { alreadyExists, notAValidPageUrl } from './pageEditor';
import { slugOf } from './slug';

/** A post's slug: lower-case letters, digits and dashes (the site file's identifiers). */
const POST_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The most tags, and the most categories, a post has; each at most TAG_MAX_LENGTH characters. */
export const POST_LIST_MAX = 30;
export const TAG_MAX_LENGTH = 60;

/** 'My first post!' → 'my-first-post'; 'post' when nothing is left. */
export const postSlugOf = (title: string): string => slugOf(title, 'post');

export type PostSlugCheck = { ok: true; slug: string } | { ok: false; message: string };

/**
 * The slug the owner typed for a post ('First Post' is taken as 'first-post'; a leading or trailing '/' is dropped):
 * refused with '{val} is not a valid page URL' when it cannot be one, 'This post URL already exists' when another post
 * of the blog (`taken`: their slugs) has it. Empty: made from the title.
 */
export function checkPostSlug(typed: string, title: string, taken: readonly string[]): PostSlugCheck {
  const trimmed = typed.trim().replace(/^\/+|\/+$/g, '');
  const slug = trimmed === '' ? postSlugOf(title) : trimmed.toLowerCase().replace(/\s+/g, '-');
  if (!POST_SLUG.test(slug)) return { ok: false, message: notAValidPageUrl(typed.trim()) };
  if (taken.includes(slug)) return { ok: false, message: alreadyExists('post URL') };
  return { ok: true, slug };
}

export type ListCheck = { ok: true; items: string[] } | { ok: false; message: string };

/**
 * Tags or categories as typed, separated by commas: each trimmed, the empty ones dropped, one of each (the first
 * spelling kept when two differ only in case).
 */
export function parsePostList(typed: string): ListCheck {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const part of typed.split(',')) {
    const item = part.trim().replace(/\s+/g, ' ');
    if (item === '' || seen.has(item.toLowerCase())) continue;
    if (item.length > TAG_MAX_LENGTH)
      return { ok: false, message: `“${item.slice(0, 20)}…” is longer than ${TAG_MAX_LENGTH} characters` };
    seen.add(item.toLowerCase());
    items.push(item);
  }
  if (items.length > POST_LIST_MAX)
    return { ok: false, message: `must be at most ${POST_LIST_MAX}, separated by commas` };
  return { ok: true, items };
}

/** A list as the editor's field shows it. */
export const postListText = (items: readonly string[]): string => items.join(', ');
