/** The owner's customers (/admin/customers, /api/admin/customers) described (docs/openapi.json). */
import { FULFILMENTS, PAYMENT_STATES } from '../../core/orderStates';
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const customersQuery = z.object({
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, 'must be a page number')
    .optional(),
});
export const customerParams = z.object({ email: z.string().min(1).max(320) });

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks customers.read.'),
};
const pageAnswers = {
  303: redirectAnswer('Nobody signed in: to the sign-in.'),
  403: htmlAnswer('A role without customers.read.'),
};
const customer = z.object({
  email: z.string(),
  name: z.string(),
  orders: z.number(),
  totalSpent: z.number().describe('Minor units of the site currency: paid orders in that currency.'),
  lastOrderAt: z.string(),
});

export const customersPage = pageRoute('adminCustomersPage', 'Customers, from the orders (customers.read)', {
  tags: ['admin'],
  querystring: customersQuery,
  response: { ...pageAnswers },
});
export const customersCsvRoute = describeRoute({
  operationId: 'adminCustomersCsv',
  summary: 'Customers as CSV (every one matching q)',
  tags: ['admin'],
  querystring: customersQuery,
  response: { 200: { description: 'text/csv', type: 'string' }, ...pageAnswers },
});
export const customerPage = pageRoute('adminCustomerPage', 'A customer and their orders', {
  tags: ['admin'],
  params: customerParams,
  response: { ...pageAnswers, 404: htmlAnswer('No order with that e-mail.') },
});
export const customersRoute = describeRoute({
  operationId: 'adminListCustomers',
  summary: 'Customers grouped from the orders by e-mail, newest last order first, 50 a page',
  tags: ['admin'],
  querystring: customersQuery,
  response: {
    200: jsonAnswer('A page.', z.object({ customers: z.array(customer), page: z.number(), hasNextPage: z.boolean() })),
    400: errorAnswer('invalid-input: q or page.'),
    ...refusals,
  },
});
export const customerRoute = describeRoute({
  operationId: 'adminGetCustomer',
  summary: 'A customer and their orders, newest first',
  tags: ['admin'],
  params: customerParams,
  response: {
    200: jsonAnswer(
      'The customer.',
      z.object({
        customer,
        orders: z.array(
          z.object({
            id: z.string(),
            number: z.number(),
            status: z.string(),
            payment: z.enum(PAYMENT_STATES).describe("The order's payment state, as the orders list shows it."),
            fulfilment: z.enum(FULFILMENTS),
            currency: z.string(),
            grandTotal: z.number(),
            createdAt: z.string(),
          }),
        ),
      }),
    ),
    404: errorAnswer('entry-not-found: no order with that e-mail.'),
    ...refusals,
  },
});
