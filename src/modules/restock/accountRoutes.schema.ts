/**
 * What the account area's restock calls accept (spec §7). Messages follow the field's name: "productId is required."
 * A query parameter given twice arrives as a list: refused, it names nothing.
 */
import { z } from 'zod';

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
