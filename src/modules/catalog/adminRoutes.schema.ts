/** What the inventory's admin pages and calls take and answer (issue 25, /admin/inventory). */
import { z } from 'zod';
import {
  component,
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const inventoryQuery = z.object({
  filter: z.enum(['all', 'sold-out', 'low']).default('all'),
  q: z.string().max(200, 'must be at most 200 characters').default(''),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  done: z.string().max(300).optional(),
});

export const skuParams = z.object({ sku: z.string().min(1).max(200) });

/** A change: `mode` set or adjust, `quantity` (for adjust a signed whole number: '+3', '-2'), and a reason. */
export const stockChangeBody = z.object({
  mode: z.enum(['set', 'adjust'], { message: "must be 'set' or 'adjust'" }),
  quantity: z.union([
    z.number().int('must be a whole number'),
    z
      .string()
      .trim()
      .regex(/^[+-]?\d{1,9}$/, 'must be a whole number, like 5 or -2')
      .transform(Number),
  ]),
  reason: z.string().max(200, 'must be at most 200 characters').optional(),
  back: z.string().max(600).optional(),
});

const inventoryItem = component(
  'InventoryItem',
  z.object({
    sku: z.string(),
    productId: z.string(),
    productName: z.string(),
    attributes: z.record(z.string(), z.string()),
    qtyInStock: z.number().int().nullable().describe('null: unlimited.'),
    soldOut: z.boolean(),
    low: z.boolean().describe("At or below the store's lowStockThreshold, above 0."),
  }),
  'A variant and its live stock.',
);

const stockMovement = component(
  'StockMovement',
  z.object({
    id: z.string(),
    at: z.string().describe('ISO-8601 UTC.'),
    delta: z.number().int(),
    qtyAfter: z.number().int(),
    reason: z.enum(['sale', 'renewal', 'refund', 'import', 'edit']),
    note: z.string().nullable(),
    orderId: z.string().nullable(),
    actor: z.string().nullable(),
  }),
  'One change of a variant’s stock.',
);

const staffRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks the permission (src/core/staffAccess.ts).'),
};

export const inventoryPage = pageRoute('adminInventory', 'The inventory: every variant and its stock', {
  tags: ['admin'],
  querystring: inventoryQuery,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without inventory.read.'),
  },
});

export const inventoryItemPage = pageRoute('adminInventoryItem', 'A variant’s stock and its history', {
  tags: ['admin'],
  params: skuParams,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without inventory.read.'),
    404: htmlAnswer('No variant with this SKU.'),
  },
});

export const inventoryFormRoute = pageRoute('adminChangeStockForm', 'Set or adjust a variant’s stock (the form)', {
  tags: ['admin'],
  params: skuParams,
  body: stockChangeBody,
  response: {
    303: redirectAnswer('Done: back to the page it came from, with a notice.'),
    403: htmlAnswer('A role without inventory.edit.'),
    404: htmlAnswer('No variant with this SKU.'),
    409: htmlAnswer('Refused (below 0, unlimited stock): the page again with the message.'),
    422: htmlAnswer('A wrong quantity: the page again with the message.'),
  },
});

export const listInventoryRoute = describeRoute({
  operationId: 'listInventory',
  summary:
    'Every variant and its live stock, 50 a page: in the catalog’s order; sold out in that order; low on stock fewest first; searched',
  tags: ['admin'],
  querystring: inventoryQuery,
  response: {
    200: jsonAnswer(
      'A page of variants.',
      z.object({
        items: z.array(inventoryItem),
        offset: z.number().int(),
        limit: z.number().int(),
        hasNextPage: z.boolean().describe('More variants after this page (no total is counted).'),
        lowStockThreshold: z.number().int(),
      }),
    ),
    ...staffRefusals,
  },
});

export const changeStockRoute = describeRoute({
  operationId: 'changeStock',
  summary: 'Set a variant’s stock to N, or adjust it by ±N (applied in the database), with a reason',
  tags: ['admin'],
  params: skuParams,
  body: stockChangeBody,
  response: {
    200: jsonAnswer(
      'The stock before and after.',
      z.object({
        sku: z.string(),
        productId: z.string(),
        before: z.number().int().nullable(),
        after: z.number().int(),
        delta: z.number().int(),
      }),
    ),
    400: errorAnswer('invalid-input: a wrong mode or quantity.'),
    ...staffRefusals,
    404: errorAnswer('variant-not-found.'),
    409: errorAnswer('stock-change-refused: it would go below 0, or the variant has unlimited stock.'),
  },
});

export const stockHistoryRoute = describeRoute({
  operationId: 'stockHistory',
  summary: 'A variant’s stock history, newest first',
  tags: ['admin'],
  params: skuParams,
  response: {
    200: jsonAnswer(
      'The variant and its movements.',
      z.object({ item: inventoryItem, movements: z.array(stockMovement) }),
    ),
    ...staffRefusals,
    404: errorAnswer('variant-not-found.'),
  },
});
