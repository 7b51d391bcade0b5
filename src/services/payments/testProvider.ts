/**
 * The demo's provider: a card form that takes no real money. 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is
 * declined, any other number is refused with the hint. It keeps no state: the payments table is the ledger, and the
 * reference is derived from the idempotency key, so the same key always gives the same answer.
 */
import { createHash } from 'node:crypto';
import { checkCardInput, TEST_CARDS } from '../../core/checkout/card';
import { ok } from '../../core/result';
import type { PaymentProvider } from './provider';

export const TEST_STORE_NOTICE =
  'This is a test store. No real payment is taken: pay with the test card 4242 4242 4242 4242, any future expiry date and any CVC.';
export const TEST_MESSAGES = {
  declined: 'Your card was declined.',
  useTestCard: 'This is a test store: use the test card 4242 4242 4242 4242.',
} as const;

const digits = (card: string) => card.replace(/\D/g, '');
const referenceOf = (prefix: string, key: string) => `${prefix}_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;

export function testProvider(): PaymentProvider {
  return {
    name: 'test',
    notice: TEST_STORE_NOTICE,
    async authorize(req) {
      if (req.amount === 0) return { status: 'authorized', reference: referenceOf('free', req.idempotencyKey) };
      const card = checkCardInput(req.method, req.now);
      if (!card.ok) {
        const [field, message] = Object.entries(card.error)[0] ?? ['cardNumber', TEST_MESSAGES.useTestCard];
        return { status: 'declined', message, field: field as 'cardNumber' | 'cardExpiry' | 'cardCvc' };
      }
      if (card.value.number === digits(TEST_CARDS.approved)) return { status: 'authorized', reference: referenceOf('test', req.idempotencyKey) };
      if (card.value.number === digits(TEST_CARDS.declined)) return { status: 'declined', message: TEST_MESSAGES.declined, field: 'cardNumber' };
      return { status: 'declined', message: TEST_MESSAGES.useTestCard, field: 'cardNumber' };
    },
    capture: async () => ok(undefined),
    void: async () => ok(undefined),
    refund: async () => ok(undefined),
  };
}
