/** What the refund and cancel calls of the owner's area take and answer (src/modules/orders/adminRoutes.tsx). */
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const orderNumberParams = z.object({
  number: z.coerce.number().int('must be an order number').min(1, 'must be an order number'),
});

export const refundBody = z.object({
  idempotencyKey: z.string().min(1).max(200).optional().describe('Or the Idempotency-Key header.'),
  lines: z
    .array(z.object({ position: z.number().int().min(0), quantity: z.number().int().min(0) }))
    .max(500)
    .optional()
    .describe('Units of lines to refund (position as in the order, from 0).'),
  amountCents: z.number().int().min(0).optional().describe('An amount besides the lines (shipping…), minor units.'),
  reason: z.string().max(500),
  restock: z.boolean().optional(),
});

export const cancelBody = z.object({
  idempotencyKey: z.string().min(1).max(200).optional(),
  reason: z.string().max(500).optional(),
});

const refundAnswer = z.object({
  refund: z.object({
    id: z.string(),
    orderNumber: z.number(),
    amountCents: z.number(),
    currency: z.string(),
    reason: z.string(),
    restock: z.boolean(),
    lines: z.array(z.object({ position: z.number(), quantity: z.number() })).nullable(),
    cancel: z.boolean(),
    status: z.string(),
    createdAt: z.string(),
    createdBy: z.string(),
  }),
  paymentState: z.enum(['awaiting-payment', 'paid', 'partially-refunded', 'refunded']),
  refundedTotalCents: z.number(),
  repeated: z.boolean().describe('True when this key was used before: that refund, nothing done again.'),
});

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks orders.refund.'),
  404: errorAnswer('order-not-found.'),
  409: errorAnswer(
    'refund-conflict: already refunded, more than is left, the same key still being made, or (cancel) the order is not pending.',
  ),
  422: errorAnswer('refund-refused: no reason, nothing chosen, more units than are left, an order awaiting payment.'),
  502: errorAnswer('payment-failed: the payment provider refused; nothing was refunded.'),
};

export const refundRoute = describeRoute({
  operationId: 'refundOrder',
  summary: 'Refund lines and quantities or an amount of an order, optionally restocking (orders.refund)',
  tags: ['admin'],
  params: orderNumberParams,
  body: refundBody,
  response: {
    201: jsonAnswer('The refund made (or, for a key used before, the one made then).', refundAnswer),
    ...refusals,
  },
});

export const cancelRoute = describeRoute({
  operationId: 'cancelOrder',
  summary: 'Cancel an order: refund what is left and put every unit back in stock (orders.refund)',
  tags: ['admin'],
  params: orderNumberParams,
  body: cancelBody,
  response: { 201: jsonAnswer('The cancel’s refund.', refundAnswer), ...refusals },
});

export const refundPage = pageRoute('adminRefundPage', 'Refund an order: lines, amount, reason, restock', {
  tags: ['admin'],
  params: orderNumberParams,
  response: {
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without orders.refund.'),
    404: htmlAnswer('No such order.'),
  },
});

export const refundFormRoute = pageRoute('adminRefundForm', 'The refund page’s form, posted', {
  tags: ['admin'],
  params: orderNumberParams,
  body: formBody(z.record(z.string(), z.string())),
  response: {
    303: redirectAnswer('Refunded: to /admin/orders/{number}?done=refunded.'),
    403: htmlAnswer('A role without orders.refund, or no crumb.'),
    409: htmlAnswer('The page again with what another refund changed.'),
    422: htmlAnswer('The page again with the error.'),
  },
});

export const cancelFormRoute = pageRoute(
  'adminCancelForm',
  'The order page’s cancel form, posted (reason, confirm=yes)',
  {
    tags: ['admin'],
    params: orderNumberParams,
    body: formBody(z.record(z.string(), z.string())),
    response: {
      303: redirectAnswer('Canceled: to /admin/orders/{number}?done=….'),
      403: htmlAnswer('A role without orders.refund, or no crumb.'),
      409: htmlAnswer('The refund page with why not (already refunded, fulfilled or canceled).'),
      422: htmlAnswer('The refund page with the error (the box not ticked).'),
    },
  },
);
