/** What the subscription call accepts (spec §7 POST /api/3/commerce/cart/subscription). */
import { z } from 'zod';
import { additionalFieldsSchema } from '../cart';
import { checkoutChoicesBody, checkoutQuoteAnswer } from '../checkout';
import { describeRoute, errorAnswer, jsonAnswer } from '../../platform/http/apiDescription';

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

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

export const subscriptionCartRoute = describeRoute({
  operationId: 'createSubscriptionCart',
  summary: 'A subscription cart of one line (spec §7)',
  description:
    'The §5 checks as for an add (counting nothing of the shopper’s cart; the `CART` cookie is neither read nor set). Then the page goes to /checkout/subscribe?cartToken={token}.',
  tags: ['subscriptions'],
  body: subscriptionCartBody,
  response: {
    200: jsonAnswer('Made.', z.object({ cartToken: z.string() })),
    400: errorAnswer(
      'add-to-cart-refused (§5 texts; SUB_QUANTITY_NOT_A_WHOLE_NUMBER, SUB_WITH_FORM_FAILURE with fields, SUB_API_FAILURE), invalid-input.',
    ),
    404: errorAnswer('product-not-found.'),
    409: errorAnswer("out-of-stock: 'Sorry, we do not have enough of that item available.'"),
  },
});

export const subscriptionQuoteRoute = describeRoute({
  operationId: 'quoteSubscriptionCheckout',
  summary: 'The subscription checkout’s totals (no coupon)',
  tags: ['subscriptions'],
  body: subscriptionQuoteBody,
  response: {
    200: jsonAnswer('The quote, as the checkout quote answers it.', checkoutQuoteAnswer),
    400: errorAnswer('invalid-input.'),
    404: errorAnswer("subscription-cart-not-found: 'This subscription link has already been used or has expired.'"),
  },
});
