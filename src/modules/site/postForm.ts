/**
 * The post editor's form (/admin/posts/:id, no JavaScript): what it shows of a post, and what a submitted form asks to
 * change, with each problem by its field. The rules are the core's (src/core/postEditor.ts, publishing.ts); whether
 * the staff member may set the status is checked by the save (./postEdits.ts).
 */
import { parsePostList, postListText } from '../../core/postEditor';
import { localInputOf, PUBLICATION_STATUSES, shownStatus, type PublicationStatus } from '../../core/publishing';
import type { EditorPost } from '../../ui/admin/Posts';
import type { PostChange } from './postEdits';
import type { Post } from './schema';
import { readStatusChange } from './statusForm';

export type FormBody = Record<string, unknown>;

/** A form field's text ('' when absent or not text). */
export const formText = (body: FormBody, name: string): string =>
  typeof body[name] === 'string' ? (body[name] as string) : '';

/** The version the form was made from (0 when missing: refused by the save as unknown). */
export const formVersion = (body: FormBody): number => {
  const value = Number(formText(body, 'baseVersion') || NaN);
  return Number.isInteger(value) && value > 0 && value < 2_147_483_648 ? value : 0;
};

/** The field labels of the problems listed above the form. */
export const POST_FIELD_LABELS: Readonly<Record<string, string>> = {
  title: 'Title',
  slug: 'URL',
  collectionId: 'Blog',
  author: 'Author',
  publishedOn: 'Date',
  excerpt: 'Excerpt',
  body: 'Text',
  tags: 'Tags',
  categories: 'Categories',
  status: 'Status',
  publishAt: 'Publish at',
};

/** A post as its editor shows it. */
export function editorPostOf(post: Post, timeZone: string, now: number): EditorPost {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    collectionId: post.collectionId,
    author: post.author,
    publishedOn: post.publishedOn,
    excerpt: post.excerpt,
    body: post.body,
    tags: postListText(post.tags),
    categories: postListText(post.categories),
    status: shownStatus(post, now),
    publishAt: post.status === 'scheduled' && post.publishAt ? localInputOf(post.publishAt, timeZone) : '',
  };
}

/** A status as a form sends it, or undefined. */
export const statusOfForm = (body: FormBody): PublicationStatus | undefined =>
  PUBLICATION_STATUSES.find((s) => s === formText(body, 'status'));

/**
 * The status and publish time a form asks for (./statusForm.ts; `stored`: the post as saved, whose publish time sent
 * back as shown stays): the change's fields, or the problem by its field.
 */
export function statusFromForm(
  body: FormBody,
  timeZone: string,
  now: number,
  stored?: Post,
): { change: Pick<PostChange, 'status' | 'publishAt'>; problems: Record<string, string> } {
  const read = readStatusChange(body.status, body.publishAt, timeZone, now, stored);
  if (read.ok) return { change: read.value, problems: {} };
  const status = statusOfForm(body);
  return { change: status ? { status } : {}, problems: { [read.error.field]: read.error.message } };
}

/** The editor's form as a change of the post, the post as typed (shown again when refused), and the problems. */
export function postFromForm(
  body: FormBody,
  stored: Post,
  timeZone: string,
  now: number,
): { change: PostChange; typed: EditorPost; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const title = formText(body, 'title').trim();
  if (title === '') problems.title = 'must not be empty';
  else if (title.length > 200) problems.title = 'must be at most 200 characters';
  const author = formText(body, 'author').trim();
  if (author.length > 100) problems.author = 'must be at most 100 characters';
  const publishedOn = formText(body, 'publishedOn').trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(publishedOn) || Number.isNaN(Date.parse(publishedOn)))
    problems.publishedOn = 'must be a date like 2026-05-31';
  const excerpt = formText(body, 'excerpt');
  if (excerpt.length > 1000) problems.excerpt = 'must be at most 1000 characters';
  const text = formText(body, 'body').replace(/\r\n/g, '\n');
  if (text.length > 100_000) problems.body = 'must be at most 100000 characters';
  const tags = parsePostList(formText(body, 'tags'));
  if (!tags.ok) problems.tags = tags.message;
  const categories = parsePostList(formText(body, 'categories'));
  if (!categories.ok) problems.categories = categories.message;
  const status = statusFromForm(body, timeZone, now, stored);
  Object.assign(problems, status.problems);
  const collectionId = formText(body, 'collectionId') || stored.collectionId;
  const change: PostChange = {
    title,
    slug: formText(body, 'slug'),
    collectionId,
    author,
    publishedOn,
    excerpt: excerpt.replace(/\r\n/g, '\n'),
    body: text,
    ...(tags.ok ? { tags: tags.items } : {}),
    ...(categories.ok ? { categories: categories.items } : {}),
    ...status.change,
  };
  const typed: EditorPost = {
    id: stored.id,
    title: formText(body, 'title'),
    slug: formText(body, 'slug'),
    collectionId,
    author: formText(body, 'author'),
    publishedOn,
    excerpt,
    body: text,
    tags: formText(body, 'tags'),
    categories: formText(body, 'categories'),
    status: statusOfForm(body) ?? shownStatus(stored, now),
    publishAt: formText(body, 'publishAt'),
  };
  return { change, typed, problems };
}
