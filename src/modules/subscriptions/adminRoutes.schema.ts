/** The subscriptions at /admin/gathered/subscriptions and /api/admin/gathered/subscriptions, described (docs/openapi.json). */
import { z } from 'zod';
import { SUBSCRIPTION_STATUSES } from '../../core/subscriptionSchedule';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const subscriptionsQuery = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  done: z.string().max(300).optional(),
});
export const subscriptionParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a subscription id'),
});
export const subscriptionActionParams = subscriptionParams.extend({
  action: z.enum(['pause', 'resume', 'skip', 'cancel'], { message: "must be 'pause', 'resume', 'skip' or 'cancel'" }),
});
/** skip: the period seen as the next one, so that two presses skip one billing (optional in the API). */
const periodField = z.coerce
  .number({ message: 'must be a period number' })
  .int('must be a period number')
  .min(2, 'must be a period number of 2 or more')
  .max(100_000)
  .optional();
export const subscriptionActionForm = z.object({ back: z.string().max(600).optional(), period: periodField });
export const subscriptionActionBody = z.object({ period: periodField });

const readRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks gatherings.read.'),
};
const pageAnswers = {
  303: redirectAnswer('Nobody signed in: to the sign-in.'),
  403: htmlAnswer('A role without gatherings.read.'),
};

const subscription = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  email: z.string().describe('The customer.'),
  product: z.string(),
  sku: z.string(),
  quantity: z.number().int(),
  planText: z.string().describe("'$13.00 every 2 weeks'."),
  currency: z.string(),
  periodsBilled: z.number().int().describe('The last period billed or skipped (1 = the purchase).'),
  startedAt: z.string(),
  nextBillingAt: z.string().nullable().describe('ISO-8601 UTC; null once cancelled or completed.'),
  cancelledAt: z.string().nullable(),
});
const bill = z.object({
  periodNumber: z.number().int(),
  status: z.enum(['pending', 'paid', 'awaiting-payment', 'declined', 'sold-out', 'skipped']),
  amount: z.number().int().describe('Minor units.'),
  orderNumber: z.number().int().nullable(),
  createdAt: z.string(),
});

export const subscriptionsPage = pageRoute('adminSubscriptionsPage', 'Subscriptions (gatherings.read)', {
  tags: ['admin'],
  querystring: subscriptionsQuery,
  response: { ...pageAnswers },
});
export const subscriptionPage = pageRoute('adminSubscriptionPage', 'One subscription and its bills (gatherings.read)', {
  tags: ['admin'],
  params: subscriptionParams,
  response: { ...pageAnswers, 404: htmlAnswer('No such subscription.') },
});
export const subscriptionActionFormRoute = pageRoute(
  'adminSubscriptionActionForm',
  'Pause, resume, skip the next billing of, or cancel a subscription (the form; gatherings.edit)',
  {
    tags: ['admin'],
    params: subscriptionActionParams,
    body: formBody(subscriptionActionForm),
    response: {
      303: redirectAnswer('Done: back to the page, with a notice (or nobody signed in: to the sign-in).'),
      403: htmlAnswer('A role without gatherings.edit.'),
      404: htmlAnswer('No such subscription.'),
      409: htmlAnswer('Not in a state for it (another change got there first): the page again with the message.'),
    },
  },
);

export const listSubscriptionsRoute = describeRoute({
  operationId: 'adminListSubscriptions',
  summary: 'Subscriptions, newest first, 50 a page (gatherings.read)',
  tags: ['admin'],
  querystring: subscriptionsQuery,
  response: {
    200: jsonAnswer(
      'A page.',
      z.object({ subscriptions: z.array(subscription), offset: z.number().int(), hasNextPage: z.boolean() }),
    ),
    ...readRefusals,
  },
});
export const getSubscriptionRoute = describeRoute({
  operationId: 'adminGetSubscription',
  summary: 'One subscription and its bills (gatherings.read)',
  tags: ['admin'],
  params: subscriptionParams,
  response: {
    200: jsonAnswer('The subscription.', z.object({ subscription, bills: z.array(bill) })),
    ...readRefusals,
    404: errorAnswer('subscription-not-found.'),
  },
});
export const subscriptionActionRoute = describeRoute({
  operationId: 'adminChangeSubscription',
  summary:
    'pause (not billed until resumed), resume (next billing on its schedule), skip (the next billing moves one interval on, once), cancel (gatherings.edit)',
  tags: ['admin'],
  params: subscriptionActionParams,
  body: subscriptionActionBody,
  response: {
    200: jsonAnswer('The subscription after the change.', z.object({ subscription })),
    ...readRefusals,
    403: errorAnswer('role-not-allowed: the role lacks gatherings.edit.'),
    404: errorAnswer('subscription-not-found.'),
    400: errorAnswer('invalid-input: a wrong period.'),
    409: errorAnswer(
      'subscription-conflict: not in a state for it (paused already, ended, being billed), or skip: `period` is no longer the next one.',
    ),
  },
});
