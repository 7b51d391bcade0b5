/** What the owner's orders calls take and answer (/admin/orders, /api/admin/orders). */
import { z } from 'zod';
import { CARRIERS, FULFILMENTS, PAYMENT_STATES } from '../../core/orderStates';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const ordersQuery = z.object({
  payment: z.preprocess(blankToUndefined, z.enum(PAYMENT_STATES as [string, ...string[]]).optional()),
  fulfilment: z.preprocess(blankToUndefined, z.enum(FULFILMENTS as [string, ...string[]]).optional()),
  'to-fulfil': z
    .enum(['1'], { message: "must be '1' (only the orders to fulfil: paid and pending)" })
    .optional()
    .describe('1: only the orders to fulfil — paid (refunded in part or not) and pending, as the home counts them'),
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  cursor: z.string().max(200, 'must be a cursor from the page before').optional(),
  done: z.string().max(200).optional(),
});

export const orderParams = z.object({
  number: z.coerce.number().int().min(1, 'must be an order number').max(Number.MAX_SAFE_INTEGER),
});

const checkbox = z.preprocess((v) => v === 'on' || v === 'true' || v === '1' || v === true, z.boolean());

/** The fulfil form and call: carrier and tracking optional, the e-mail on unless said. */
export const fulfilBody = z.object({
  carrier: z.preprocess(blankToUndefined, z.enum(CARRIERS).optional()),
  trackingNumber: z.string().max(200).optional(),
  notify: z.boolean().default(true),
});

export const fulfilForm = z.object({
  number: z.union([z.string(), z.array(z.string())]).optional(),
  carrier: z.preprocess(blankToUndefined, z.enum(CARRIERS).optional()),
  trackingNumber: z.string().max(200).optional(),
  notify: checkbox.optional(),
  /** The page the form was on (the list or the order's page): where to come back. */
  back: z.string().max(500).optional(),
});

export const noteBody = z.object({ body: z.string().max(10_000) });

const summary = z.object({
  number: z.number().int(),
  placedAt: z.string(),
  customer: z.string(),
  email: z.string(),
  currency: z.string(),
  totalCents: z.number().int(),
  payment: z.enum(PAYMENT_STATES as [string, ...string[]]),
  paymentLabel: z.string(),
  fulfilment: z.enum(FULFILMENTS as [string, ...string[]]),
  fulfilmentLabel: z.string(),
});

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks the permission (src/core/staffAccess.ts); crumb-invalid.'),
};

const pageAnswers = {
  303: redirectAnswer('Nobody signed in: to the sign-in.'),
  403: htmlAnswer('A role without orders.read.'),
};

export const adminOrdersPage = pageRoute('adminOrders', 'The orders, newest first, filtered and searched', {
  tags: ['admin'],
  querystring: ordersQuery,
  response: pageAnswers,
});

export const adminOrderPage = pageRoute('adminOrder', 'One order in full', {
  tags: ['admin'],
  params: orderParams,
  response: { ...pageAnswers, 404: htmlAnswer('No order of that number.') },
});

export const adminFulfilForm = pageRoute('adminFulfilOrders', 'Fulfil the orders ticked (a form, without JavaScript)', {
  tags: ['admin'],
  body: formBody(fulfilForm),
  response: {
    303: redirectAnswer('Done (or nobody signed in): back to the page, with a notice.'),
    403: htmlAnswer('A role without orders.fulfil, or no crumb.'),
    409: htmlAnswer('Another staff member fulfilled it first: the page again, saying so.'),
    422: htmlAnswer('No order ticked, or a bad tracking number: the page again, saying so.'),
  },
});

export const adminUnfulfilForm = pageRoute('adminUnfulfilOrder', 'Take an order back to pending (a form)', {
  tags: ['admin'],
  params: orderParams,
  response: {
    303: redirectAnswer('Done: back to the order.'),
    403: htmlAnswer('A role without orders.fulfil.'),
    409: htmlAnswer('The order is not fulfilled.'),
  },
});

export const adminNoteForm = pageRoute('adminAddOrderNote', 'Add a note to an order (a form)', {
  tags: ['admin'],
  params: orderParams,
  body: formBody(noteBody),
  response: {
    303: redirectAnswer('Done: back to the order.'),
    403: htmlAnswer('A role without orders.fulfil.'),
    422: htmlAnswer('An empty or too long note.'),
  },
});

export const listOrdersRoute = describeRoute({
  operationId: 'listAdminOrders',
  summary: 'The orders, newest first, 50 a page (staff with orders.read)',
  tags: ['admin'],
  querystring: ordersQuery,
  response: {
    200: jsonAnswer(
      'A page of orders and the cursor of the next one.',
      z.object({ orders: z.array(summary), next: z.string().nullable() }),
    ),
    ...refusals,
  },
});

export const getOrderRoute = describeRoute({
  operationId: 'getAdminOrder',
  summary: 'One order in full: lines, payments, shipments, notes, e-mails, timeline (staff with orders.read)',
  tags: ['admin'],
  params: orderParams,
  response: {
    200: jsonAnswer('The order.', z.object({ order: z.record(z.string(), z.unknown()) }).passthrough()),
    ...refusals,
    404: errorAnswer('order-not-found'),
  },
});

const changed = (operationId: string, summaryText: string, body?: z.ZodType) =>
  describeRoute({
    operationId,
    summary: summaryText,
    tags: ['admin'],
    params: orderParams,
    ...(body ? { body } : {}),
    response: {
      200: jsonAnswer(
        'Done: the order as it is now.',
        z.object({ order: z.record(z.string(), z.unknown()) }).passthrough(),
      ),
      400: errorAnswer('invalid-input: a bad carrier, tracking number or note.'),
      ...refusals,
      404: errorAnswer('order-not-found'),
      409: errorAnswer('order-conflict: the order is not in the state needed (someone else changed it first).'),
    },
  });

export const fulfilRoute = changed(
  'fulfilOrder',
  'Mark an order fulfilled, optionally with a carrier and tracking number, e-mailing the customer unless notify is false (orders.fulfil)',
  fulfilBody,
);
export const unfulfilRoute = changed('unfulfilOrder', 'Take a fulfilled order back to pending (orders.fulfil)');
export const noteRoute = changed('addOrderNote', "Add the owner's note to an order (orders.fulfil)", noteBody);
