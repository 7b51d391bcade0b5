/** What the new-collection page and call take and answer (issue 26): staff with 'pages.edit' create a shop or a blog. */
import { z } from 'zod';
import { describeRoute, errorAnswer, formBody, htmlAnswer, jsonAnswer } from '../../platform/http/apiDescription';
import { baseVersionField, editorPage, titleField } from './editorRoutes.schema';

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
