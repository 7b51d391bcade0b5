/**
 * What the checkout calls accept. Every text is bounded and NUL-free (PostgreSQL refuses NUL); what the values mean
 * (a valid e-mail, a country we ship to, a postal code) is the core's to judge, so its messages reach the shopper
 * next to the field rather than as one request error.
 */
import { z } from 'zod';

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
