/**
 * What the checkout calls accept. Every text is bounded and NUL-free (PostgreSQL refuses NUL); what the values mean
 * (a valid e-mail, a country we ship to, a postal code) is the core's to judge, so its messages reach the shopper
 * next to the field rather than as one request error.
 */
import { z } from 'zod';
import type { CheckoutQuote } from '../orders';
import { component, describeRoute, errorAnswer, jsonAnswer } from '../../platform/http/apiDescription';
import { cartAnswer } from '../cart';

const text = (max: number) =>
  z
    .string({ error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    .refine((t) => !t.includes('\u0000'), 'must not contain a NUL character');

/** A name the client sent, as a message quotes it: at most 40 characters (a 100 KB key must not come back 100 KB long). */
const quoted = (key: unknown): string => {
  const name = String(key);
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
};

/**
 * The objects' errors: another type, or an unknown field, gets a message that names the problem
 * ("must be a JSON object", 'has an unknown field "emial"') rather than zod's own text ("Invalid input: expected
 * object, received array").
 */
const objectErrors = {
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'unrecognized_keys' ? `has an unknown field ${quoted(issue.keys[0])}` : 'must be a JSON object',
};

export const shippingAddressInput = z
  .object(
    {
      firstName: text(200).optional(),
      lastName: text(200).optional(),
      address1: text(300).optional(),
      address2: text(300).optional(),
      city: text(200).optional(),
      country: text(10).optional(),
      region: text(20).optional(),
      postalCode: text(40).optional(),
      phone: text(40).optional(),
    },
    objectErrors,
  )
  .strict();

export const checkoutChoicesBody = z
  .object(
    {
      email: text(320).optional(),
      shippingAddress: shippingAddressInput.optional(),
      shippingOptionId: text(64).optional(),
      couponCode: text(64).optional(),
      giftCardCodes: z
        .array(text(64), { error: 'must be a list of gift-card codes' })
        .max(10, 'must have at most 10 codes')
        .optional(),
    },
    objectErrors,
  )
  .strict();

/** Made by the page (random, ≥ 128 bits): the same key is the same order. */
export const idempotencyKey = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .regex(/^[A-Za-z0-9_-]{16,100}$/, 'must be 16-100 letters, digits, dashes or underscores');

export const placeOrderBody = checkoutChoicesBody
  .extend({
    idempotencyKey,
    /**
     * What the payment provider needs (card fields, a payment method id); at most a few short values. The count and
     * the names are checked before the values, so that a message never quotes a name of more than 40 characters.
     */
    payment: z
      .record(z.string(), z.unknown(), { error: 'must be a JSON object of text values' })
      .refine((p) => Object.keys(p).length <= 10, 'must have at most 10 values')
      .refine((p) => Object.keys(p).every((key) => key.length <= 40), 'must have value names of at most 40 characters')
      .pipe(z.record(z.string(), text(200)))
      .default({}),
  })
  .strict();

export const orderParams = z.object({ orderId: z.string().max(64) });

// ---------------------------------------------------------------- the answers and the routes described (docs/openapi.json)

const money = z.number().int().describe('Minor units of the site currency.');

export const checkoutQuoteAnswer: z.ZodType<CheckoutQuote> = component(
  'CheckoutQuote',
  z.object({
    cart: cartAnswer,
    lineImages: z
      .record(z.string(), z.object({ file: z.string(), altText: z.string() }).nullable())
      .describe("Entry id → the product's first image, or null."),
    requiresShipping: z.boolean(),
    shippingOptions: z.array(z.object({ id: z.string(), name: z.string(), amount: money })),
    selectedShippingOptionId: z.string().nullable(),
    coupon: z.object({ code: z.string(), discountCents: money }).nullable(),
    couponError: z.string().optional().describe('Only when a code was given and refused.'),
    totals: z.object({
      subtotalCents: money,
      shippingCents: money,
      taxCents: money,
      discountCents: money,
      grandTotalCents: money,
      taxName: z.string(),
      pricesIncludeTax: z.boolean(),
    }),
    giftCards: z.array(z.object({ code: z.string(), lastFour: z.string(), amountCents: money, balanceCents: money })),
    giftCardError: z.string().optional().describe('Only when a code did not apply.'),
    amountDueCents: money.describe('What the payment provider is asked for: the total less the gift cards.'),
    minimumSubtotalMessage: z.string().nullable(),
  }),
  'The cart and its totals for the choices made so far.',
);

const CHECKOUT_TAGS = ['checkout'];

export const quoteRoute = describeRoute({
  operationId: 'quoteCheckout',
  summary: 'The checkout’s totals for the shopper’s choices',
  description: 'Reads the cart of the `CART` cookie; writes nothing. Every part of the body is optional.',
  tags: CHECKOUT_TAGS,
  body: checkoutChoicesBody,
  response: {
    200: jsonAnswer('The quote.', checkoutQuoteAnswer),
    400: errorAnswer('invalid-input (an unknown field, a text over its length), invalid-json.'),
  },
});

export const placeOrderRoute = describeRoute({
  operationId: 'placeOrder',
  summary: 'Place the order (idempotent by key)',
  description:
    'The same `idempotencyKey` again answers the same order (or refusal) and never charges twice. A refusal changes nothing; `fields` and `lines` say where. The `CART`/`hasCart` cookies are cleared on success.',
  tags: CHECKOUT_TAGS,
  body: placeOrderBody,
  response: {
    201: jsonAnswer(
      'Placed.',
      z.object({ order: z.object({ id: z.string(), number: z.number().int() }), orderUrl: z.string() }),
    ),
    400: errorAnswer('checkout-refused (empty cart, below the minimum, details, coupon, gift card), invalid-input.'),
    402: errorAnswer("payment-declined: e.g. 'Your card was declined.' (fields.cardNumber)."),
    409: errorAnswer('out-of-stock (lines), checkout-conflict (the cart changed), checkout-in-progress (ask again).'),
    422: errorAnswer('idempotency-mismatch: the key was used for other details.'),
    502: errorAnswer('payment-failed: the provider could not be reached; nothing was charged.'),
    503: errorAnswer("payments-unavailable: 'This shop cannot take payments right now. Please try again later.'"),
  },
});
