/**
 * What the new-collection and delete-collection pages and calls take and answer (issue 26): staff with 'pages.edit'
 * create a shop or a blog, and delete one that holds nothing and no page shows.
 */
import { z } from 'zod';
import { describeRoute, errorAnswer, formBody, htmlAnswer, jsonAnswer } from '../../platform/http/apiDescription';
import { baseVersionField, editorPage, titleField } from './editorRoutes.schema';
import { pageParams } from './pagesAdminRoutes.schema';

export const createCollectionBody = z.object({
  baseVersion: baseVersionField,
  title: z
    .string({ error: 'must be the title' })
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters'),
  kind: z.enum(['products', 'blog'], { error: "must be 'products' (a shop) or 'blog'" }),
  slug: z.string().max(200).default('').describe('Its URL, one part like /journal; empty: made from the title.'),
});

const collectionView = z.object({
  id: z.string(),
  title: titleField,
  slug: z.string(),
  type: z.enum(['products', 'blog', 'page']),
});

export const createCollectionRoute = describeRoute({
  operationId: 'createAdminCollection',
  summary: 'Create a collection: a shop or a blog at its own URL (at the end of the collections)',
  tags: ['admin'],
  body: createCollectionBody,
  response: {
    201: jsonAnswer(
      'Created: the version the save made.',
      z.object({ version: z.number().int(), collection: collectionView }),
    ),
    400: errorAnswer("invalid-input: a field is wrong — the URL with the spec's '{val} is not a valid page URL'."),
    401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
    403: errorAnswer('role-not-allowed: a role without pages.edit.'),
    404: errorAnswer('version-not-found: a baseVersion the site never had.'),
    409: errorAnswer(
      "site-edit-refused: 'This page URL already exists'; site-edit-stale: the collections changed since.",
    ),
  },
});

export const newCollectionPage = editorPage('adminNewCollection', 'The new-collection form');
export const createCollectionForm = editorPage('adminCreateCollectionForm', 'Create a collection (the form)', {
  body: formBody(z.object({ title: z.string(), kind: z.string().optional(), slug: z.string().optional() })),
  response: {
    400: htmlAnswer('A field is wrong: the form again with each message by its field.'),
    409: htmlAnswer('The URL is taken, or the collections changed meanwhile: the form again with why.'),
  },
});

/** A collection's delete: its id (as a page's), and the version the delete page was made from. */
export const deleteCollectionQuery = z.object({ baseVersion: baseVersionField });

export const deleteCollectionRoute = describeRoute({
  operationId: 'deleteAdminCollection',
  summary: 'Delete a collection that holds nothing and no page shows (and its link in the design menu)',
  tags: ['admin'],
  params: pageParams,
  querystring: deleteCollectionQuery,
  response: {
    200: jsonAnswer(
      'Deleted: the version the save made, and the collection as it was.',
      z.object({ version: z.number().int(), collection: collectionView }),
    ),
    400: errorAnswer('invalid-input: the id or baseVersion is not one.'),
    401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
    403: errorAnswer('role-not-allowed: a role without pages.edit.'),
    404: errorAnswer('collection-not-found, or version-not-found: a baseVersion the site never had.'),
    409: errorAnswer(
      "site-edit-refused: it still holds products or posts ('This shop still holds 3 products: move or delete them first.') or a page's product grid or blog posts block shows it (the pages named); site-edit-stale: the collection or the collections' order changed since baseVersion.",
    ),
  },
});

export const deleteCollectionPage = editorPage(
  'adminDeleteCollection',
  "A collection's delete page: what it holds, where it is shown, the confirmation",
  { params: pageParams, response: { 404: htmlAnswer('No such collection.') } },
);
export const deleteCollectionForm = editorPage(
  'adminDeleteCollectionForm',
  'Delete a collection (the form; confirm=yes)',
  {
    params: pageParams,
    body: formBody(z.object({ baseVersion: z.string(), confirm: z.literal('yes').optional() })),
    response: {
      404: htmlAnswer('No such collection.'),
      409: htmlAnswer('It holds products or posts, a page shows it, or it changed meanwhile: the page again with why.'),
      422: htmlAnswer('Not confirmed: the page again.'),
    },
  },
);
