/**
 * What the blog post editor's pages and calls take and answer (issue 26, /admin/posts): staff with 'pages.read' look
 * and preview; editors (and admins, website managers) save and publish, draft editors save drafts only
 * (src/core/publishing.ts). Every save names the version its form was made from (`baseVersion`): a post someone else
 * changed since is refused (409 site-edit-stale), never overwritten.
 */
import { z } from 'zod';
import { POST_LIST_MAX, TAG_MAX_LENGTH } from '../../core/postEditor';
import { PUBLICATION_STATUSES } from '../../core/publishing';
import {
  component,
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
} from '../../platform/http/apiDescription';
import { baseVersionField as version, editorPage, titleField as title } from './editorRoutes.schema';

const idText = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a post id: lower-case letters, digits and dashes');

export const postParams = z.object({ id: idText });

const status = z
  .enum(PUBLICATION_STATUSES, { error: `must be one of ${PUBLICATION_STATUSES.join(', ')}` })
  .describe("The editor status (spec §4): 'published', 'draft', 'needs-review' or 'scheduled' (with publishAt).");
const publishAt = z
  .string()
  .max(40)
  .describe(
    "With status 'scheduled': when it goes live, an ISO time with an offset (2026-06-01T10:00:00-04:00) or a local time in the site's time zone (2026-06-01T10:00); in the future.",
  );
const list = z
  .array(
    z.string().trim().min(1, 'must not be empty').max(TAG_MAX_LENGTH, `must be at most ${TAG_MAX_LENGTH} characters`),
  )
  .max(POST_LIST_MAX, `must be at most ${POST_LIST_MAX}`);

export const createPostBody = z.object({
  baseVersion: version,
  title,
  collectionId: idText.describe('The blog (a collection of type blog).'),
  slug: z.string().max(100).optional().describe('The post URL within its blog; absent: made from the title.'),
  status: status.optional().describe("Absent: 'published', or 'draft' for a draft editor."),
  publishAt: publishAt.optional(),
});

export const updatePostBody = z.object({
  baseVersion: version,
  title: title.optional(),
  slug: z.string().max(100).optional(),
  collectionId: idText.optional(),
  author: z.string().max(100, 'must be at most 100 characters').optional(),
  publishedOn: z.iso.date('must be a date like 2026-05-31').optional(),
  excerpt: z.string().max(1000, 'must be at most 1000 characters').optional(),
  body: z.string().max(100_000, 'must be at most 100000 characters').optional(),
  tags: list.optional(),
  categories: list.optional(),
  status: status.optional(),
  publishAt: publishAt.optional(),
});

export const deletePostQuery = z.object({ baseVersion: version });

const postView = component(
  'AdminPost',
  z.object({
    id: z.string(),
    collectionId: z.string(),
    slug: z.string(),
    title: z.string(),
    author: z.string(),
    publishedOn: z.string(),
    excerpt: z.string(),
    body: z.string(),
    tags: z.array(z.string()),
    categories: z.array(z.string()),
    status: status,
    publishAt: z.string().optional(),
    path: z.string().describe("The post's address on the store."),
  }),
  'A blog post of the site file, with its status as the editor names it.',
);

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer(
    'role-not-allowed: a role without pages.edit or pages.draft; publication-refused: a draft editor publishing, or changing a live post.',
  ),
};
const saveRefusals = {
  ...refusals,
  400: errorAnswer(
    "invalid-input: a field is wrong — the URL with the spec's '{val} is not a valid page URL', a publish time in the past.",
  ),
  404: errorAnswer('post-not-found, blog-not-found, or version-not-found: a baseVersion the site never had.'),
  409: errorAnswer(
    "site-edit-stale: someone saved this since baseVersion (what, by whom); site-edit-refused: 'This post URL already exists'.",
  ),
};

const saved = (what: string, schema: z.ZodType) =>
  jsonAnswer(`${what}: the version the save made.`, z.object({ version: z.number().int() }).and(schema));

export const listPostsRoute = describeRoute({
  operationId: 'listAdminPosts',
  summary: 'The blog posts, newest first, drafts included',
  tags: ['admin'],
  response: {
    200: jsonAnswer(
      'The posts of the current version.',
      z.object({ version: z.number().int(), posts: z.array(postView) }),
    ),
    ...refusals,
  },
});

export const getPostRoute = describeRoute({
  operationId: 'getAdminPost',
  summary: 'A blog post',
  tags: ['admin'],
  params: postParams,
  response: {
    200: jsonAnswer('The post and the version it is of.', z.object({ version: z.number().int(), post: postView })),
    ...refusals,
    404: errorAnswer('post-not-found'),
  },
});

export const createPostRoute = describeRoute({
  operationId: 'createAdminPost',
  summary: 'Write a new post (dated today, by the signed-in staff member)',
  tags: ['admin'],
  body: createPostBody,
  response: { 201: saved('Created', z.object({ post: postView })), ...saveRefusals },
});

export const updatePostRoute = describeRoute({
  operationId: 'updateAdminPost',
  summary: 'Change a post: its text, tags, categories, date, status (each absent field stays)',
  tags: ['admin'],
  params: postParams,
  body: updatePostBody,
  response: { 200: saved('Saved', z.object({ post: postView })), ...saveRefusals },
});

export const deletePostRoute = describeRoute({
  operationId: 'deleteAdminPost',
  summary: 'Delete a post (a draft editor: a draft only)',
  tags: ['admin'],
  params: postParams,
  querystring: deletePostQuery,
  response: { 200: saved('Deleted', z.object({})), ...saveRefusals },
});

const formAnswers = {
  400: htmlAnswer('A field is wrong: the form again with each message by its field.'),
  404: htmlAnswer('No such post.'),
  409: htmlAnswer('Someone saved it meanwhile, or the change is refused: the post with what and why.'),
};

export const postsPage = editorPage('adminPosts', 'The blog posts, newest first, and the new-post form');
export const postEditorPage = editorPage('adminPostEditor', "A post's editor", {
  params: postParams,
  response: { 404: htmlAnswer('No such post.') },
});
export const postPreviewPage = editorPage(
  'adminPostPreview',
  'The stored post as the store shows it, drafts included',
  {
    params: postParams,
    response: { 404: htmlAnswer('No such post.') },
  },
);
export const createPostForm = editorPage('adminCreatePostForm', 'Write a new post (the form)', {
  body: formBody(
    z.object({
      title: z.string(),
      collectionId: z.string(),
      status: z.string().optional(),
      publishAt: z.string().optional(),
    }),
  ),
  response: formAnswers,
});
export const savePostForm = editorPage('adminSavePostForm', "Save a post's editor form", {
  params: postParams,
  response: formAnswers,
});
export const deletePostForm = editorPage('adminDeletePostForm', 'Delete a post (the form; confirm=yes)', {
  params: postParams,
  response: { ...formAnswers, 422: htmlAnswer('Not confirmed: the editor again.') },
});
