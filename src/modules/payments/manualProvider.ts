/**
 * Bank transfer or pay on pickup: nothing is charged at checkout; the order is placed as awaiting payment and the
 * shopper is shown the site's `manualInstructions`. Capture, void and refund move no money (none was taken here), so
 * they succeed for this provider's references; the merchant settles the money outside Vitrine.
 */
import {
  assertAmount,
  assertKey,
  bookkeepingOnly,
  freeAuthorization,
  keyedReference,
  type AuthorizeOutcome,
  type PaymentProvider,
} from './provider';

const MANUAL_REFERENCE_PREFIX = 'manual_';

export function manualProvider(instructions: string): PaymentProvider {
  const notice = instructions.trim();

  return {
    name: 'manual',
    notice: notice === '' ? null : notice,

    async authorize(req): Promise<AuthorizeOutcome> {
      assertAmount(req.amount);
      assertKey(req.idempotencyKey);
      // A fully discounted order has nothing to wait for: it is paid.
      if (req.amount === 0) return freeAuthorization(req.idempotencyKey);
      return { status: 'awaiting-payment', reference: keyedReference(MANUAL_REFERENCE_PREFIX, req.idempotencyKey) };
    },

    // Subscriptions: nothing to keep; each renewal is an order awaiting payment, like the first.
    async savePaymentMethod(req) {
      assertKey(req.idempotencyKey);
      return { status: 'saved', token: 'manual', firstPayment: {} };
    },

    async chargeSavedMethod(req): Promise<AuthorizeOutcome> {
      assertAmount(req.amount);
      assertKey(req.idempotencyKey);
      if (req.amount === 0) return freeAuthorization(req.idempotencyKey);
      return { status: 'awaiting-payment', reference: keyedReference(MANUAL_REFERENCE_PREFIX, req.idempotencyKey) };
    },

    ...bookkeepingOnly(MANUAL_REFERENCE_PREFIX, 'manual'),
  };
}
