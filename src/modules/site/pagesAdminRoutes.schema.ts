/**
 * What the pages editor's pages and calls take and answer (issue 26, /admin/pages): staff with 'pages.read' look and
 * preview, 'pages.edit' (admins, website managers, editors) save and publish, 'pages.draft' (draft editors too) create,
 * save and delete pages with the statuses their role may set (src/core/publishing.ts). Every save names the version its form was made from
 * (`baseVersion`): a page someone else changed since is refused (409 site-edit-stale), never overwritten.
 */
import { z } from 'zod';
import {
  component,
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
} from '../../platform/http/apiDescription';
import { baseVersionField as version, editorPage, titleField as title } from './editorRoutes.schema';
import { PUBLICATION_STATUSES } from '../../core/publishing';
import { blockSchema } from './schema';

/** A block as the site file writes it (docs/site-file.md), described once. */
const block = component('SiteBlock', blockSchema, 'A block of a page, as in the site file (docs/site-file.md).');

const idText = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a page id: lower-case letters, digits and dashes');

export const pageParams = z.object({ id: idText });

const status = z
  .enum(PUBLICATION_STATUSES, { error: `must be one of ${PUBLICATION_STATUSES.map((s) => `'${s}'`).join(', ')}` })
  .optional()
  .describe(
    "The editor status (spec §4): 'published', 'draft', 'needs-review' (neither on the store), 'scheduled' (with publishAt). A draft editor sets 'draft' and 'needs-review' only, of a page not live (403 role-not-allowed). Absent: it stays (a new page: the role's default, a draft editor's a draft).",
  );
const publishAt = z
  .string()
  .max(40)
  .optional()
  .describe(
    "With status 'scheduled': when it goes live, in the future — a date and time in the site's time zone (2026-06-01T10:00) or with its offset.",
  );

export const createPageBody = z.object({
  baseVersion: version,
  title,
  path: z.string({ error: 'must be the URL, like /about' }).max(300).describe("The page's URL, like /about."),
  showInNavigation: z.boolean().default(true),
  status,
  publishAt,
});

export const updatePageBody = z.object({
  baseVersion: version,
  title: title.optional(),
  path: z.string().max(300).optional(),
  showInNavigation: z.boolean().optional(),
  password: z
    .string()
    .min(1, 'must not be empty (null removes it)')
    .max(256, 'must be at most 256 characters')
    .refine((p) => p.trim() !== '', 'must not be only spaces')
    .nullable()
    .optional()
    .describe('A new password (stored as its scrypt hash), or null to open the page to everyone.'),
  blocks: z.array(block).max(200).optional().describe('The whole list of blocks, in order: add, edit, move, remove.'),
  status,
  publishAt,
});

export const previewBody = updatePageBody.omit({ baseVersion: true, password: true, status: true, publishAt: true });

export const moveBody = z.object({ baseVersion: version, direction: z.enum(['up', 'down']) });
export const deleteQuery = z.object({ baseVersion: version });
export const renameCollectionBody = z.object({ baseVersion: version, title });

/** The forms (no JavaScript): the same fields as text; the editor's fields are described in docs/admin.md. */
export const moveFormBody = z.object({ baseVersion: z.string(), direction: z.enum(['up', 'down']) });

const pageSummary = component(
  'AdminPageSummary',
  z.object({
    id: z.string(),
    title: z.string(),
    path: z.string(),
    showInNavigation: z.boolean(),
    locked: z.boolean().describe('Whether the page asks for a password.'),
    blocks: z.number().int().describe('How many blocks it has.'),
    status: z
      .enum(PUBLICATION_STATUSES)
      .describe('Its editor status now (a scheduled page whose time has come is published).'),
  }),
);

const pageView = component(
  'AdminPage',
  z.object({
    id: z.string(),
    title: z.string(),
    path: z.string(),
    pageType: z.number().int(),
    showInNavigation: z.boolean(),
    locked: z.boolean().describe('Whether the page asks for a password (never the password).'),
    blocks: z.array(z.record(z.string(), z.unknown())).describe('The blocks as in the site file.'),
    status: z
      .enum(['draft', 'scheduled', 'needs-review'])
      .optional()
      .describe('As in the site file: absent, it is published.'),
    publishAt: z.string().optional().describe("With status 'scheduled': when it goes live."),
  }),
  'A page of the site file, without its password.',
);

const collectionView = component(
  'AdminCollection',
  z.object({ id: z.string(), title: z.string(), slug: z.string(), type: z.enum(['products', 'blog', 'page']) }),
);

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer(
    "role-not-allowed: a role without pages.edit (pages.read to look; pages.draft to create, save and delete drafts), or a status the role may not set: 'A draft editor saves drafts only: …'.",
  ),
};
const saveRefusals = {
  ...refusals,
  400: errorAnswer(
    "invalid-input: a field is wrong — the URL with the spec's '{val} is not a valid page URL', a block with its field.",
  ),
  404: errorAnswer('page-not-found, or version-not-found: a baseVersion the site never had.'),
  409: errorAnswer(
    "site-edit-stale: someone saved this since baseVersion (what, by whom); site-edit-refused: 'This page URL already exists', the first page moved up.",
  ),
};

export const listPagesRoute = describeRoute({
  operationId: 'listAdminPages',
  summary: 'The pages in navigation order, and the collections',
  tags: ['admin'],
  response: {
    200: jsonAnswer(
      'The pages and collections of the current version; `menuSet`: the design has a menu of its own (the header follows it rather than this order).',
      z.object({
        version: z.number().int(),
        menuSet: z.boolean(),
        pages: z.array(pageSummary),
        collections: z.array(collectionView),
      }),
    ),
    ...refusals,
  },
});

const saved = (what: string, schema: z.ZodType) =>
  jsonAnswer(`${what}: the version the save made.`, z.object({ version: z.number().int() }).and(schema));

export const createPageRoute = describeRoute({
  operationId: 'createAdminPage',
  summary: 'Create a page (at the end of the navigation, with a heading of its title)',
  tags: ['admin'],
  body: createPageBody,
  response: { 201: saved('Created', z.object({ page: pageView })), ...saveRefusals },
});

export const getPageRoute = describeRoute({
  operationId: 'getAdminPage',
  summary: 'A page with its blocks',
  tags: ['admin'],
  params: pageParams,
  response: {
    200: jsonAnswer('The page and the version it is of.', z.object({ version: z.number().int(), page: pageView })),
    ...refusals,
    404: errorAnswer('page-not-found'),
  },
});

export const updatePageRoute = describeRoute({
  operationId: 'updateAdminPage',
  summary: 'Change a page: title, URL, navigation, password, blocks, status (each absent field stays)',
  tags: ['admin'],
  params: pageParams,
  body: updatePageBody,
  response: { 200: saved('Saved', z.object({ page: pageView })), ...saveRefusals },
});

export const movePageRoute = describeRoute({
  operationId: 'moveAdminPage',
  summary: 'Move a page one place up or down the navigation order',
  tags: ['admin'],
  params: pageParams,
  body: moveBody,
  response: { 200: saved('Moved', z.object({ order: z.array(z.string()) })), ...saveRefusals },
});

export const deletePageRoute = describeRoute({
  operationId: 'deleteAdminPage',
  summary: 'Delete a page (and its place in the design menu and footer links)',
  tags: ['admin'],
  params: pageParams,
  querystring: deleteQuery,
  response: { 200: saved('Deleted', z.object({})), ...saveRefusals },
});

export const previewPageRoute = describeRoute({
  operationId: 'previewAdminPage',
  summary: 'The storefront render of a draft of a page (unsaved): title, URL, navigation, blocks',
  tags: ['admin'],
  params: pageParams,
  body: previewBody,
  response: {
    200: htmlAnswer('The page as the store would show it (not cached, not indexed).'),
    ...refusals,
    400: errorAnswer('invalid-input: the draft is not a valid page (the field, in words).'),
    404: errorAnswer('page-not-found'),
  },
});

export const renameCollectionRoute = describeRoute({
  operationId: 'renameAdminCollection',
  summary: 'Rename a collection (its URL stays)',
  tags: ['admin'],
  params: pageParams,
  body: renameCollectionBody,
  response: { 200: saved('Renamed', z.object({ collection: collectionView })), ...saveRefusals },
});

export const moveCollectionRoute = describeRoute({
  operationId: 'moveAdminCollection',
  summary: 'Move a collection one place up or down (the navigation lists collections in this order)',
  tags: ['admin'],
  params: pageParams,
  body: moveBody,
  response: { 200: saved('Moved', z.object({ order: z.array(z.string()) })), ...saveRefusals },
});

export const pagesPage = editorPage('adminPages', 'The pages (navigation order), the collections, the new-page form');
export const pageEditorPage = editorPage('adminPageEditor', "A page's editor: settings, blocks, preview", {
  params: pageParams,
  response: { 404: htmlAnswer('No such page.') },
});
export const previewPage = editorPage(
  'adminPagePreview',
  'The stored page as staff see it, a draft too (the editor’s frame)',
  {
    params: pageParams,
    response: { 404: htmlAnswer('No such page.') },
  },
);
const formAnswers = {
  400: htmlAnswer('A field is wrong: the form again with each message by its field.'),
  404: htmlAnswer('No such page.'),
  409: htmlAnswer('Someone saved it meanwhile, or the change is refused: the page with what and why.'),
};
export const createPageForm = editorPage('adminCreatePageForm', 'Create a page (the form)', {
  body: formBody(
    z.object({
      title: z.string(),
      path: z.string(),
      showInNavigation: z.literal('yes').optional(),
      status: z.string().optional(),
      publishAt: z.string().optional(),
    }),
  ),
  response: formAnswers,
});
export const savePageForm = editorPage(
  'adminSavePageForm',
  "Save a page's editor form; its op (save, up:N, down:N, remove:N, add) also moves, removes or adds a block",
  { params: pageParams, response: formAnswers },
);
export const previewPageForm = editorPage(
  'adminPreviewPageForm',
  "The editor's form as the store would show it, unsaved",
  {
    params: pageParams,
    response: { 400: htmlAnswer('The draft is not a valid page: what to correct.'), 404: htmlAnswer('No such page.') },
  },
);
export const movePageForm = editorPage('adminMovePageForm', 'Move a page up or down (the form)', {
  params: pageParams,
  body: formBody(moveFormBody),
  response: formAnswers,
});
export const deletePageForm = editorPage('adminDeletePageForm', 'Delete a page (the form; confirm=yes)', {
  params: pageParams,
  response: { ...formAnswers, 422: htmlAnswer('Not confirmed: the editor again.') },
});
export const renameCollectionForm = editorPage('adminRenameCollectionForm', 'Rename a collection (the form)', {
  params: pageParams,
  response: formAnswers,
});
export const moveCollectionForm = editorPage('adminMoveCollectionForm', 'Move a collection (the form)', {
  params: pageParams,
  body: formBody(moveFormBody),
  response: formAnswers,
});
