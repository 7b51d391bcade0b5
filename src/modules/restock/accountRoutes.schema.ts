/**
 * What the account area's restock calls accept (spec §7). Messages follow the field's name: "productId is required."
 * A query parameter given twice arrives as a list: refused, it names nothing.
 */
import { z } from 'zod';
import { describeRoute, errorAnswer, jsonAnswer } from '../../platform/http/apiDescription';

const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** At most this many variants in one bulk send. */
export const MAX_SEND_REQUESTS = 100;

const given = (issue: { input?: unknown }, what: string) =>
  issue.input === undefined ? 'is required' : `must be ${what}`;
const productId = z
  .string({ error: (issue) => given(issue, 'a product id (text)') })
  .regex(PRODUCT_ID, 'must be a product id (1-64 lower-case letters, digits or dashes)');
const variantId = z
  .string({ error: (issue) => given(issue, "a variant's SKU (text)") })
  .regex(SKU, "must be a variant's SKU (1-64 letters, digits, dots, dashes or underscores)");
const cursor = z
  .string({ error: 'must be given once, as text' })
  .min(1, 'must not be empty (leave it out for the first page)')
  .max(600, 'is not a cursor of this list')
  .optional();

/** GET /api/site-users/account/notifications/restock/groups?cursor= */
export const groupsQuery = z.object({ cursor });

/** GET /api/site-users/account/notifications/restock?productId&variantId&cursor= */
export const signUpsQuery = z.object({ productId, variantId, cursor });

const target = z.object({ productId, variantId }, { error: 'must be an object { productId, variantId }' });

/** POST /api/site-users/account/notifications/restock { productId, variantId, language? }: the user's own sign-up. */
export const ownSignUpBody = z.object(
  {
    productId,
    variantId,
    language: z
      .string({ error: 'must be a language tag (text), like en or en-GB' })
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag, like en or en-GB')
      .max(35, 'must be a language tag, like en or en-GB')
      .optional(),
  },
  { error: 'must be a JSON object { productId, variantId, language? }' },
);

/** POST …/restock/send */
export const sendBody = target;

/** POST …/restock/send/all */
export const sendAllBody = z.object(
  {
    sendRequests: z
      .array(target, { error: (issue) => given(issue, 'a list of { productId, variantId }') })
      .min(1, 'must name at least one variant')
      .max(MAX_SEND_REQUESTS, `must name at most ${MAX_SEND_REQUESTS} variants`),
  },
  { error: 'must be a JSON object' },
);

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const TAGS = ['account'];
const signedIn = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer(
    "role-not-allowed: the user's role may not make this call (admin or store manager); crumb-invalid / cross-site-refused (writes).",
  ),
};
const cursorPage = <T extends z.ZodRawShape>(listName: string, item: z.ZodObject<T>) =>
  z.object({
    [listName]: z.array(item),
    hasNextPage: z.boolean(),
    nextPageCursor: z.string().nullable().describe('Opaque: ask again with cursor=nextPageCursor.'),
  });
const sentAnswer = z.object({
  productId: z.string(),
  variantId: z.string(),
  sent: z.number().int(),
  waiting: z.number().int(),
  qtyInStock: z.number().int().nullable(),
});

export const ownSignUpRoute = describeRoute({
  operationId: 'signUpOwnRestock',
  summary: 'Restock notification for the signed-in user’s own e-mail',
  tags: TAGS,
  body: ownSignUpBody,
  response: {
    200: jsonAnswer('Signed up (again: nothing changes).', z.object({ signedUp: z.literal(true) })),
    400: errorAnswer('invalid-input.'),
    401: signedIn[401],
    403: errorAnswer('crumb-invalid / cross-site-refused.'),
    404: errorAnswer('product-not-found: an unknown product or variant.'),
    409: errorAnswer('restock-not-offered: not offered for this product, or the variant is in stock.'),
  },
});

export const groupsRoute = describeRoute({
  operationId: 'listRestockGroups',
  summary: 'Restock sign-ups by variant (50 a page)',
  tags: TAGS,
  querystring: groupsQuery,
  response: {
    200: jsonAnswer(
      'A page of groups, by product id then variant.',
      cursorPage(
        'signUpGroups',
        z.object({
          productId: z.string(),
          variantId: z.string(),
          productName: z.string().nullable(),
          variantLabel: z.string(),
          waitingCount: z.number().int(),
          notifiedCount: z.number().int(),
          qtyInStock: z.number().int().nullable(),
          restockedAt: z.string().nullable(),
          restockSource: z.string().nullable().describe("'import', 'refund' or null."),
        }),
      ),
    ),
    400: errorAnswer('invalid-input: a cursor that is not one of this list.'),
    ...signedIn,
  },
});

export const signUpsRoute = describeRoute({
  operationId: 'listRestockSignUps',
  summary: 'The sign-ups of one variant, oldest first (50 a page)',
  tags: TAGS,
  querystring: signUpsQuery,
  response: {
    200: jsonAnswer(
      'A page of sign-ups.',
      cursorPage(
        'signUps',
        z.object({
          productId: z.string(),
          variantId: z.string(),
          email: z.string(),
          isJoinMailingList: z.boolean(),
          createdAt: z.string(),
          notifiedAt: z.string().nullable(),
        }),
      ),
    ),
    400: errorAnswer('invalid-input: productId, variantId or cursor.'),
    ...signedIn,
  },
});

export const sendRoute = describeRoute({
  operationId: 'sendRestockNotifications',
  summary: 'E-mail a variant’s waiting shoppers (as many as there are units)',
  tags: TAGS,
  body: sendBody,
  response: {
    200: jsonAnswer('Sent (through the outbox).', sentAnswer),
    400: errorAnswer('invalid-input.'),
    ...signedIn,
    404: errorAnswer('product-not-found: an unknown product or variant.'),
  },
});

export const sendAllRoute = describeRoute({
  operationId: 'sendRestockNotificationsForVariants',
  summary: 'E-mail the waiting shoppers of several variants (1–100)',
  tags: TAGS,
  body: sendAllBody,
  response: {
    200: jsonAnswer(
      'One answer per variant, and the number sent.',
      z.object({
        results: z.array(
          z.union([
            sentAnswer,
            z.object({ productId: z.string(), variantId: z.string(), sent: z.literal(0), error: z.string() }),
          ]),
        ),
        sent: z.number().int(),
      }),
    ),
    400: errorAnswer('invalid-input.'),
    ...signedIn,
    404: errorAnswer('product-not-found (field sendRequests.N.productId / .variantId): nothing was sent.'),
  },
});
