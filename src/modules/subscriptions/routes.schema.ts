/** What the subscription call accepts (spec §7 POST /api/3/commerce/cart/subscription). */
import { z } from 'zod';
import { additionalFieldsSchema } from '../cart';
import { checkoutChoicesBody } from '../checkout';

const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain a NUL character');

export const subscriptionCartBody = z.object(
  {
    itemId: text(200),
    /** Blank or absent while the product has options: the core answers 'Please select the … option.' */
    sku: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').nullable().optional(),
    /** Any JSON value: the core decides whether it is a quantity ('Quantity must be a whole number', …). */
    qty: z.unknown().optional(),
    additionalFields: additionalFieldsSchema,
    subscriptionOptionId: text(200).nullable().optional(),
  },
  { error: 'must be a JSON object' },
);

/** The subscription checkout's quote call: the choices of the checkout's quote call, and the page's cart token. */
export const subscriptionQuoteBody = checkoutChoicesBody.extend({ cartToken: text(200) }).strict();
