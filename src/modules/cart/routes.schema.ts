/**
 * What the cart routes accept (spec §7). Messages are phrased to follow the field name: "itemId is required."
 * The quantity is passed on untouched: its texts ('Quantity must be a number.', ...) belong to the core's ordered
 * add-to-cart checks (§5), which run after the option, variant and stock checks.
 */
import { z } from 'zod';
import { MAX_CANONICAL_JSON_DEPTH, canonicalJson } from '../../core/canonicalJson';

const MAX_ADDITIONAL_FIELDS_LENGTH = 20_000;
/** Deeper answers are no form's; the limit also keeps canonicalJson's recursion far from the stack's end. */
const MAX_ADDITIONAL_FIELDS_DEPTH = MAX_CANONICAL_JSON_DEPTH;

/** Ids are looked up in the database, and PostgreSQL refuses a NUL character in text: such an id names nothing. */
const requiredString = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character');

const queryFlag = z
  .string({ error: 'must be given once, as text' })
  .max(100, 'must be at most 100 characters')
  .optional();

/** GET /api/commerce/shopping-cart — the flags are accepted (§7) but change nothing: totals are always computed. */
export const getCartQuery = z.object({ mock: queryFlag, timecode: queryFlag, calculateSubtotal: queryFlag });

/**
 * §3: additionalFields is a JSON string (the answers of the product's form). We also accept the object itself, and
 * null / '' / absent for "no form". The stored form is canonical JSON text, or '' when none.
 */
export const additionalFieldsSchema = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown()), z.null()], {
    error: 'must be a JSON string, an object or null',
  })
  .optional()
  .transform((value, ctx): string => {
    if (value === undefined || value === null) return '';
    let parsed: unknown = value;
    if (typeof value === 'string') {
      if (value.trim() === '') return '';
      try {
        parsed = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be valid JSON text' });
        return z.NEVER;
      }
      if (parsed === null) return '';
      if (typeof parsed !== 'object') {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object or array' });
        return z.NEVER;
      }
    }
    const text = canonicalJson(parsed);
    if (text === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must not be nested more than ${MAX_ADDITIONAL_FIELDS_DEPTH} levels deep`,
      });
      return z.NEVER;
    }
    if (text.length > MAX_ADDITIONAL_FIELDS_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_ADDITIONAL_FIELDS_LENGTH} characters of JSON` });
      return z.NEVER;
    }
    return text;
  });

const bodyObject = { error: 'must be a JSON object' } as const;

/** POST /api/commerce/shopping-cart/entries */
export const addEntryBody = z.object(
  {
    itemId: requiredString(200),
    /** Blank or absent while the product has options: the core answers 'Please select the … option.' */
    sku: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').nullable().optional(),
    /** Any JSON value: the core decides whether it is a quantity (absent = 1, the input's initial value). */
    quantity: z.unknown().optional(),
    additionalFields: additionalFieldsSchema,
  },
  bodyObject,
);
export type AddEntryBody = z.output<typeof addEntryBody>;

/** PUT /api/commerce/shopping-cart/entries/{entryId}/additionalFields */
export const updateAdditionalFieldsParams = z.object({ entryId: requiredString(64) });
export const updateAdditionalFieldsBody = z.object(
  {
    itemId: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
    sku: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
    additionalFields: additionalFieldsSchema,
  },
  bodyObject,
);
export type UpdateAdditionalFieldsBody = z.output<typeof updateAdditionalFieldsBody>;

/** PUT /api/commerce/shopping-cart/entries/{entryId}/quantity and DELETE /api/commerce/shopping-cart/entries/{entryId} */
export const entryParams = updateAdditionalFieldsParams;
export const updateQuantityBody = z.object(
  {
    /** Any JSON value: the core reads it as the quantity input does ('Quantity must be a number.', ...). */
    quantity: z.unknown().refine((value) => value !== undefined, 'is required'),
  },
  bodyObject,
);
