/** What the owner's area's own calls take and answer (the shell: home, audit log). */
import { z } from 'zod';
import { FULFILMENTS, PAYMENT_STATES } from '../../core/orderStates';
import {
  component,
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const auditQuery = z.object({
  cursor: z.string().max(200, 'must be a cursor from the page before').optional(),
});

const auditRecord = component(
  'AuditRecord',
  z.object({
    id: z.string(),
    at: z.string().describe('ISO-8601 UTC.'),
    actor: z.string().describe("The staff member's e-mail, or 'vitrine command'."),
    actorId: z.string().nullable(),
    action: z.string().describe("e.g. 'order.fulfilled'."),
    subject: z.object({ type: z.string(), id: z.string() }),
    summary: z.string(),
    before: z.unknown(),
    after: z.unknown(),
  }),
  'One change made in the owner’s area or by a `vitrine` command.',
);

const staffRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks the permission (src/core/staffAccess.ts).'),
};

export const adminHomePage = pageRoute('adminHome', 'The owner’s area: its home', {
  tags: ['admin'],
  response: {
    200: htmlAnswer('The page (a staff member).'),
    303: redirectAnswer('Nobody signed in: to /account/sign-in?next=/admin.'),
    403: htmlAnswer('A role that does not enter /admin.'),
  },
});

export const adminAuditPage = pageRoute('adminAuditLog', 'The audit log, newest first (admins)', {
  tags: ['admin'],
  querystring: auditQuery,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without audit.read.'),
  },
});

export const adminAuditRoute = describeRoute({
  operationId: 'listAuditLog',
  summary: 'The audit log, newest first, 50 a page (admins)',
  tags: ['admin'],
  querystring: auditQuery,
  response: {
    200: jsonAnswer(
      'A page of the log and the cursor of the next (older) one.',
      z.object({ records: z.array(auditRecord), next: z.string().nullable() }),
    ),
    ...staffRefusals,
  },
});

const salesPeriod = z.object({
  from: z.string().describe('First day, YYYY-MM-DD (UTC).'),
  to: z.string().describe('Last day, YYYY-MM-DD (UTC), included.'),
  orders: z.number().int().describe('Paid orders placed (refunded ones included).'),
  grossSales: z.number().int(),
  refunds: z.number().int().describe('Orders refunded in the period, for their totals.'),
  netSales: z.number().int().describe('Gross sales less refunds (minor units).'),
});

const homeOrder = z.object({
  number: z.number().int(),
  placedAt: z.string(),
  customer: z.string().describe("The shipping name, or '' when nothing was shipped."),
  email: z.string(),
  currency: z.string(),
  totalCents: z.number().int(),
  payment: z.enum(PAYMENT_STATES as [string, ...string[]]),
  paymentLabel: z.string(),
  fulfilment: z.enum(FULFILMENTS as [string, ...string[]]),
  fulfilmentLabel: z.string(),
});

export const adminHomeRoute = describeRoute({
  operationId: 'getAdminHome',
  summary: "The owner's home: the shop's day, for what the staff member may see",
  description:
    'Each figure the role may not see is null: the orders to fulfil and the latest orders need orders.read, the ' +
    'sales report.read, the stock inventory.read, the restock sign-ups gatherings.read (src/core/staffAccess.ts).',
  tags: ['admin'],
  response: {
    200: jsonAnswer(
      'The figures (amounts in minor units of `currency`).',
      z.object({
        today: z.string().describe('YYYY-MM-DD (UTC).'),
        currency: z.string(),
        ordersToFulfil: z.number().int().nullable().describe('Paid orders pending fulfilment.'),
        sales: z.object({ today: salesPeriod, last7Days: salesPeriod }).nullable(),
        stock: z
          .object({
            lowStockThreshold: z.number().int(),
            low: z.number().int().describe('Variants with 1 to lowStockThreshold in stock.'),
            soldOut: z.number().int().describe('Variants with none in stock (unlimited ones never).'),
          })
          .nullable(),
        restockWaiting: z.number().int().nullable().describe('Restock sign-ups not yet e-mailed.'),
        latestOrders: z.array(homeOrder).max(5).nullable().describe('The 5 latest orders, newest first.'),
        sections: z.array(z.object({ path: z.string(), label: z.string() })).describe('The sections it may open.'),
      }),
    ),
    ...staffRefusals,
  },
});
