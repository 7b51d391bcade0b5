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

export const shippingAddressInput = z
  .object({
    firstName: text(200).optional(),
    lastName: text(200).optional(),
    address1: text(300).optional(),
    address2: text(300).optional(),
    city: text(200).optional(),
    country: text(10).optional(),
    region: text(20).optional(),
    postalCode: text(40).optional(),
    phone: text(40).optional(),
  })
  .strict();

export const checkoutChoicesBody = z
  .object({
    email: text(320).optional(),
    shippingAddress: shippingAddressInput.optional(),
    shippingOptionId: text(64).optional(),
    couponCode: text(64).optional(),
  })
  .strict();

/** Made by the page (random, ≥ 128 bits): the same key is the same order. */
export const idempotencyKey = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .regex(/^[A-Za-z0-9_-]{16,100}$/, 'must be 16-100 letters, digits, dashes or underscores');

export const placeOrderBody = checkoutChoicesBody
  .extend({
    idempotencyKey,
    /** What the payment provider needs (card fields, a payment method id); at most a few short values. */
    payment: z
      .record(z.string().max(40), text(200))
      .refine((p) => Object.keys(p).length <= 10, 'must have at most 10 values')
      .default({}),
  })
  .strict();

export const orderParams = z.object({ orderId: z.string().max(64) });
