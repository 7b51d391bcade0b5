/**
 * Bank transfer or pay on pickup: nothing is charged at checkout; the order is placed as awaiting payment and the
 * shopper is shown the site's `manualInstructions`. Capture, void and refund move no money (none was taken here), so
 * they succeed for this provider's references; the merchant settles the money outside Vitrine.
 */
import { err, ok, type Result } from '../../core/result';
import { assertAmount, assertKey, freeAuthorization, isFreeReference, keyedReference, type AuthorizeOutcome, type PaymentProvider } from './provider';

const MANUAL_REFERENCE_PREFIX = 'manual_';

export function manualProvider(instructions: string): PaymentProvider {
  const known = (reference: string): Result<void, string> =>
    reference.startsWith(MANUAL_REFERENCE_PREFIX) || isFreeReference(reference) ? ok(undefined) : err(`'${reference}' is not a payment of the manual provider`);
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

    async capture(reference, amount, idempotencyKey) {
      assertAmount(amount);
      assertKey(idempotencyKey);
      return known(reference);
    },

    async void(reference, idempotencyKey) {
      assertKey(idempotencyKey);
      return known(reference);
    },

    async refund(reference, amount, idempotencyKey) {
      assertAmount(amount);
      assertKey(idempotencyKey);
      return known(reference);
    },
  };
}
