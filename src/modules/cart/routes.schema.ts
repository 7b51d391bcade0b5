/**
 * What the cart routes accept (spec §7). Messages are phrased to follow the field name: "itemId is required."
 * The quantity is passed on untouched: its texts ('Quantity must be a number.', ...) belong to the core's ordered
 * add-to-cart checks (§5), which run after the option, variant and stock checks.
 */
import { z } from 'zod';
import { MAX_CANONICAL_JSON_DEPTH, canonicalJson } from '../../core/canonicalJson';
import type { CartEntry, ShoppingCart } from './cart';
import { component, describeRoute, errorAnswer, jsonAnswer } from '../../platform/http/apiDescription';

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

// ---------------------------------------------------------------- the answers and the routes described (docs/openapi.json)

const money = z.number().int().describe('Minor units of the site currency (2500 = $25.00).');

export const cartEntryAnswer: z.ZodType<CartEntry> = component(
  'CartEntry',
  z.object({
    id: z.string().describe('The entry id (used by the entry calls).'),
    itemId: z.string().describe('The product id.'),
    chosenVariant: z.object({ sku: z.string(), attributes: z.record(z.string(), z.string()) }),
    quantity: z.number().int().min(1).max(9999),
    title: z.string().describe('The product name (the sku when the product was removed since).'),
    subTotal: money,
    purchasePriceCents: money,
    additionalFields: z.string().describe("JSON text of the product form's answers (keys sorted), '' when none."),
    additionalFieldsSummary: z.array(z.object({ title: z.string(), lines: z.array(z.string()) })),
    productType: z
      .number()
      .int()
      .nullable()
      .describe('1 physical, 2 digital, 3 service, 4 gift card; null if removed.'),
  }),
  'A cart line (spec §3).',
);

export const cartAnswer: z.ZodType<ShoppingCart> = component(
  'Cart',
  z.object({
    id: z.string().nullable().describe('A public id derived from the cart token; null: no cart yet.'),
    websiteId: z.string(),
    orderId: z.string().nullable(),
    created: z.number().int().nullable().describe('Epoch milliseconds.'),
    isPurchased: z.boolean(),
    entries: z.array(cartEntryAnswer).describe('In the order they were first added.'),
    shippingOptions: z.array(z.unknown()),
    selectedShippingOption: z.unknown(),
    shippingLocation: z.unknown(),
    applicableTaxRules: z.array(z.unknown()),
    coupons: z.array(z.unknown()),
    validCoupons: z.array(z.unknown()),
    invalidCoupons: z.array(z.unknown()),
    subtotalCents: money,
    taxCents: money,
    shippingCostCents: money,
    discountCents: money,
    grandTotalCents: money,
    totalQuantity: z.number().int(),
    hasDigital: z.boolean(),
    purelyDigital: z.boolean(),
    requiresShipping: z.boolean(),
  }),
  'The shopping cart of spec §3 (the empty shape when there is none).',
);

const CART_TAGS = ['cart'];
const entryNotFound = "entry-not-found: 'That item is no longer in your cart.'";
const addRefusals =
  'add-to-cart-refused (§5: options not chosen, variant unavailable, quantity), invalid-form-answers (the product form), invalid-input, invalid-json.';

export const getCartRoute = describeRoute({
  operationId: 'getCart',
  summary: 'The shopper’s cart (spec §7)',
  description:
    'The cart named by the `CART` cookie; without one (or one naming no open cart: the cookies are then cleared) the empty shape, and nothing is created.',
  tags: CART_TAGS,
  querystring: getCartQuery,
  response: { 200: jsonAnswer('The cart.', cartAnswer), 400: errorAnswer('invalid-input: a flag given twice.') },
});

export const addEntryRoute = describeRoute({
  operationId: 'addCartEntry',
  summary: 'Add to cart (spec §7; the §5 checks)',
  description:
    'Creates the cart on the first add (`CART` and `hasCart` cookies). The optional `X-Cart-Claim` header (22 base64url characters) makes quick adds of a new visitor share one cart.',
  tags: CART_TAGS,
  body: addEntryBody,
  response: {
    200: jsonAnswer(
      'Added (merged into a line with the same sku and answers).',
      z.object({ shoppingCart: cartAnswer, newlyAdded: cartEntryAnswer }),
    ),
    400: errorAnswer(addRefusals),
    404: errorAnswer("product-not-found: 'Sorry, that item is no longer available.'; site-not-found."),
    409: errorAnswer("out-of-stock: 'Sorry, we do not have enough of that item available.'"),
  },
});

const updatedAnswer = z.object({ shoppingCart: cartAnswer, updatedEntry: cartEntryAnswer });

export const updateAdditionalFieldsRoute = describeRoute({
  operationId: 'updateCartEntryAdditionalFields',
  summary: 'Change a cart line’s form answers',
  tags: CART_TAGS,
  params: updateAdditionalFieldsParams,
  body: updateAdditionalFieldsBody,
  response: {
    200: jsonAnswer('Changed (merged into a line with the same answers, then that line).', updatedAnswer),
    400: errorAnswer('invalid-form-answers, invalid-input, invalid-json.'),
    404: errorAnswer(entryNotFound),
  },
});

export const updateQuantityRoute = describeRoute({
  operationId: 'updateCartEntryQuantity',
  summary: 'Change a cart line’s quantity (the cart page)',
  tags: CART_TAGS,
  params: entryParams,
  body: updateQuantityBody,
  response: {
    200: jsonAnswer('Changed.', updatedAnswer),
    400: errorAnswer('add-to-cart-refused (QUANTITY_NOT_A_NUMBER: the quantity texts of §5), invalid-input.'),
    404: errorAnswer(entryNotFound),
    409: errorAnswer("out-of-stock (raising it): 'Sorry, we do not have enough of that item available.'"),
  },
});

export const removeEntryRoute = describeRoute({
  operationId: 'removeCartEntry',
  summary: 'Remove a cart line',
  tags: CART_TAGS,
  params: entryParams,
  response: {
    200: jsonAnswer('Removed (the cart stays, empty after its last line).', z.object({ shoppingCart: cartAnswer })),
    404: errorAnswer(entryNotFound),
  },
});
