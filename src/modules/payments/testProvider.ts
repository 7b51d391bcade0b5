/**
 * The demo's provider (the default): a card form that takes no real money. 4242 4242 4242 4242 pays,
 * 4000 0000 0000 0002 is declined, any other valid number is refused with the hint. It keeps no state: the payments
 * table is the ledger, and the reference is derived from the idempotency key, so the same key always gives the same
 * answer. For subscriptions it keeps a card as a token (`testpm_` + its last four digits + a key-derived part) and
 * charges it later; 4000 0000 0000 0341 pays at checkout and is kept, but declines every later charge.
 */
import { checkCardInput, TEST_CARDS, type CardField } from '../../core/checkout/card';
import {
  assertAmount,
  assertKey,
  bookkeepingOnly,
  freeAuthorization,
  keyedReference,
  type AuthorizeOutcome,
  type PaymentProvider,
  type SavePaymentMethodOutcome,
} from './provider';

/** Pays at checkout, is kept for a subscription, and declines every later (off-session) charge. */
export const TEST_CARD_DECLINES_LATER = '4000 0000 0000 0341';

export const TEST_STORE_NOTICE =
  'This is a test store. No real payment is taken: pay with the test card 4242 4242 4242 4242, any future expiry date and any CVC.';

export const TEST_MESSAGES = {
  declined: 'Your card was declined.',
  useTestCard: 'This is a test store: use the test card 4242 4242 4242 4242.',
} as const;

const TEST_REFERENCE_PREFIX = 'test_';
const SAVED_PREFIX = 'testpm_';
/** The order the card form shows its fields in: the first wrong one is the one the outcome points at. */
const CARD_FIELDS: readonly CardField[] = ['cardNumber', 'cardExpiry', 'cardCvc'];
const digitsOf = (card: string) => card.replace(/\D/g, '');

export function testProvider(): PaymentProvider {
  return {
    name: 'test',
    notice: TEST_STORE_NOTICE,

    async authorize(req): Promise<AuthorizeOutcome> {
      assertAmount(req.amount);
      assertKey(req.idempotencyKey);
      // Nothing to pay: no card is asked for, so none is checked.
      if (req.amount === 0) return freeAuthorization(req.idempotencyKey);
      const card = checkCardInput(req.method, req.now);
      if (!card.ok) {
        const field = CARD_FIELDS.find((f) => card.error[f] !== undefined) ?? 'cardNumber';
        return { status: 'declined', message: card.error[field] ?? TEST_MESSAGES.useTestCard, field };
      }
      if (
        card.value.number === digitsOf(TEST_CARDS.approved) ||
        card.value.number === digitsOf(TEST_CARD_DECLINES_LATER)
      ) {
        return { status: 'authorized', reference: keyedReference(TEST_REFERENCE_PREFIX, req.idempotencyKey) };
      }
      if (card.value.number === digitsOf(TEST_CARDS.declined))
        return { status: 'declined', message: TEST_MESSAGES.declined, field: 'cardNumber' };
      return { status: 'declined', message: TEST_MESSAGES.useTestCard, field: 'cardNumber' };
    },

    async savePaymentMethod(req): Promise<SavePaymentMethodOutcome> {
      assertKey(req.idempotencyKey);
      const card = checkCardInput(req.method, req.now);
      if (!card.ok) {
        const field = CARD_FIELDS.find((f) => card.error[f] !== undefined) ?? 'cardNumber';
        return { status: 'declined', message: card.error[field] ?? TEST_MESSAGES.useTestCard, field };
      }
      const number = card.value.number;
      if (number === digitsOf(TEST_CARDS.declined))
        return { status: 'declined', message: TEST_MESSAGES.declined, field: 'cardNumber' };
      if (number !== digitsOf(TEST_CARDS.approved) && number !== digitsOf(TEST_CARD_DECLINES_LATER)) {
        return { status: 'declined', message: TEST_MESSAGES.useTestCard, field: 'cardNumber' };
      }
      return {
        status: 'saved',
        token: keyedReference(`${SAVED_PREFIX}${number.slice(-4)}_`, req.idempotencyKey),
        firstPayment: req.method,
      };
    },

    async chargeSavedMethod(req): Promise<AuthorizeOutcome> {
      assertAmount(req.amount);
      assertKey(req.idempotencyKey);
      const last4 = /^testpm_(\d{4})_[0-9a-f]{24}$/.exec(req.token)?.[1];
      if (last4 === undefined) return { status: 'declined', message: TEST_MESSAGES.useTestCard, field: 'payment' };
      if (req.amount === 0) return freeAuthorization(req.idempotencyKey);
      if (last4 === digitsOf(TEST_CARD_DECLINES_LATER).slice(-4))
        return { status: 'declined', message: TEST_MESSAGES.declined, field: 'payment' };
      return { status: 'authorized', reference: keyedReference(TEST_REFERENCE_PREFIX, req.idempotencyKey) };
    },

    ...bookkeepingOnly(TEST_REFERENCE_PREFIX, 'test'),
  };
}
