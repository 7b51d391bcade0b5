/** The gift cards at /admin/gathered/gift-cards and /api/admin/gathered/gift-cards, described (docs/openapi.json). */
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

export const giftCardsQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  done: z.string().max(300).optional(),
});
export const giftCardParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a gift card id') });
export const giftCardActionForm = z.object({ back: z.string().max(600).optional() });

const readRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks gatherings.read.'),
};
const pageAnswers = {
  303: redirectAnswer('Nobody signed in: to the sign-in.'),
  403: htmlAnswer('A role without gatherings.read.'),
};

const giftCard = z.object({
  id: z.string(),
  lastFour: z.string().nullable().describe("The code's last four characters; null until its e-mail is sent."),
  currency: z.string(),
  initialBalanceCents: z.number().int(),
  balanceCents: z.number().int(),
  status: z.enum(['scheduled', 'active', 'disabled']),
  state: z.enum(['disabled', 'scheduled', 'sending', 'used up', 'active']),
  recipientName: z.string(),
  recipientEmail: z.string(),
  purchaserEmail: z.string().nullable(),
  orderId: z.string().nullable(),
  deliveryDate: z.string(),
  createdAt: z.string(),
});
const movement = z.object({
  id: z.string(),
  kind: z.enum(['issue', 'redeem', 'refund']),
  amountCents: z.number().int(),
  orderId: z.string().nullable(),
  orderNumber: z.number().int().nullable(),
  createdAt: z.string(),
});

export const giftCardsPage = pageRoute('adminGiftCardsPage', 'Gift cards (gatherings.read)', {
  tags: ['admin'],
  querystring: giftCardsQuery,
  response: { ...pageAnswers },
});
export const giftCardPage = pageRoute('adminGiftCardPage', 'One gift card and its history (gatherings.read)', {
  tags: ['admin'],
  params: giftCardParams,
  response: { ...pageAnswers, 404: htmlAnswer('No such gift card.') },
});
export const disableGiftCardForm = pageRoute(
  'adminDisableGiftCardForm',
  'Disable a gift card (the form; gatherings.edit)',
  {
    tags: ['admin'],
    params: giftCardParams,
    body: formBody(giftCardActionForm),
    response: {
      303: redirectAnswer('Done: back to the page, with a notice (or nobody signed in: to the sign-in).'),
      403: htmlAnswer('A role without gatherings.edit.'),
      404: htmlAnswer('No such gift card.'),
      409: htmlAnswer('Already disabled: the page again with the message.'),
    },
  },
);

export const listGiftCardsRoute = describeRoute({
  operationId: 'adminListGiftCards',
  summary: 'Gift cards, newest first, 50 a page (gatherings.read)',
  tags: ['admin'],
  querystring: giftCardsQuery,
  response: {
    200: jsonAnswer(
      'A page.',
      z.object({ giftCards: z.array(giftCard), offset: z.number().int(), hasNextPage: z.boolean() }),
    ),
    ...readRefusals,
  },
});
export const getGiftCardRoute = describeRoute({
  operationId: 'adminGetGiftCard',
  summary: 'One gift card and its history: issue, redemptions, refunds (gatherings.read)',
  tags: ['admin'],
  params: giftCardParams,
  response: {
    200: jsonAnswer('The card.', z.object({ giftCard, history: z.array(movement) })),
    ...readRefusals,
    404: errorAnswer('gift-card-not-found.'),
  },
});
export const disableGiftCardRoute = describeRoute({
  operationId: 'adminDisableGiftCard',
  summary:
    'Disable a gift card: it pays nothing at checkout from now on, and is never sent if not sent yet (gatherings.edit)',
  tags: ['admin'],
  params: giftCardParams,
  response: {
    200: jsonAnswer('The card after the change.', z.object({ giftCard })),
    ...readRefusals,
    403: errorAnswer('role-not-allowed: the role lacks gatherings.edit.'),
    404: errorAnswer('gift-card-not-found.'),
    409: errorAnswer('gift-card-conflict: already disabled.'),
  },
});
