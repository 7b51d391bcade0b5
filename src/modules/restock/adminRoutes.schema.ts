/** The restock sign-ups at /admin/gathered/restock and /api/admin/gathered/restock, described (docs/openapi.json). */
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const restockQuery = z.object({
  cursor: z.string().max(400).optional(),
  done: z.string().max(300).optional(),
});
export const restockSendBody = z.object({
  productId: z.string().min(1, 'is required').max(200),
  variantId: z.string().min(1, 'is required').max(200),
  back: z.string().max(600).optional(),
});

const readRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks gatherings.read.'),
};

const group = z.object({
  productId: z.string(),
  variantId: z.string().describe('The SKU.'),
  productName: z.string().nullable().describe('null: the product is no longer in the catalog.'),
  variantLabel: z.string(),
  waitingCount: z.number().int(),
  notifiedCount: z.number().int().describe('E-mailed already.'),
  qtyInStock: z.number().int().nullable().describe('null: unlimited.'),
  restockedAt: z.string().nullable(),
  restockSource: z.string().nullable(),
});

export const restockPage = pageRoute('adminRestockPage', 'Restock sign-ups per variant (gatherings.read)', {
  tags: ['admin'],
  querystring: restockQuery,
  response: {
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without gatherings.read.'),
  },
});
export const restockSendForm = pageRoute(
  'adminRestockSendForm',
  'Send now: e-mail as many waiting shoppers as units in stock, oldest first (the form; gatherings.edit)',
  {
    tags: ['admin'],
    body: formBody(restockSendBody),
    response: {
      303: redirectAnswer('Done: back to the page, with how many were e-mailed (or nobody signed in: to the sign-in).'),
      403: htmlAnswer('A role without gatherings.edit.'),
      404: htmlAnswer('No such product or variant: the page again with the message.'),
    },
  },
);

export const listRestockRoute = describeRoute({
  operationId: 'adminListRestockSignUps',
  summary: 'Restock sign-ups per variant: waiting, e-mailed, stock now (gatherings.read)',
  tags: ['admin'],
  querystring: restockQuery,
  response: {
    200: jsonAnswer(
      'A page of groups.',
      z.object({ signUpGroups: z.array(group), hasNextPage: z.boolean(), nextPageCursor: z.string().nullable() }),
    ),
    400: errorAnswer('invalid-input: the cursor is not one of ours.'),
    ...readRefusals,
  },
});
export const restockSendRoute = describeRoute({
  operationId: 'adminSendRestockNow',
  summary:
    'Send now: e-mail as many waiting shoppers of a variant as it has units in stock (all when unlimited), oldest first; each once (gatherings.edit)',
  tags: ['admin'],
  body: restockSendBody,
  response: {
    200: jsonAnswer(
      'What was sent.',
      z.object({
        productId: z.string(),
        variantId: z.string(),
        sent: z.number().int(),
        waiting: z.number().int().describe('Still waiting after it.'),
        qtyInStock: z.number().int().nullable(),
      }),
    ),
    400: errorAnswer('invalid-input: productId or variantId missing.'),
    ...readRefusals,
    403: errorAnswer('role-not-allowed: the role lacks gatherings.edit.'),
    404: errorAnswer('product-not-found: no such product or variant.'),
  },
});
