/**
 * The one interface behind which every payment service sits (test, manual, Stripe). "Money moves once": the checkout
 * calls a provider outside any database transaction, with an idempotency key, and records the outcome in the next
 * transaction (see ../../../docs/architecture.md, "Payments"). Every method is idempotent for its key: a retried
 * call never charges, captures, releases or refunds twice.
 */
import { createHash } from 'node:crypto';
import type { CurrencyCode } from '../../core/currency';
import { err, ok, type Result } from '../../core/result';
import type { Site } from '../site';

/** What the checkout form sent under `payment` (card fields for `test`, `paymentMethodId` for `stripe`). */
export type PaymentMethodInput = Record<string, string>;

export interface AuthorizeRequest {
  /** Minor units of `currency` (whole yen for JPY); 0 for a fully discounted order. */
  amount: number;
  currency: CurrencyCode;
  /** One per payment attempt: the same key always gets the same outcome and never a second charge. */
  idempotencyKey: string;
  method: PaymentMethodInput;
  email: string;
  description: string;
  now: Date;
}

export type AuthorizeOutcome =
  /** Money reserved; capture later. */
  | { status: 'authorized'; reference: string }
  /** Manual payment: nothing charged, the order awaits payment. */
  | { status: 'awaiting-payment'; reference: string }
  | { status: 'declined'; message: string; field?: 'cardNumber' | 'cardExpiry' | 'cardCvc' | 'payment' }
  /** The provider was unreachable or failed: nothing is known to be charged. */
  | { status: 'failed'; message: string };

export type PaymentProviderName = 'test' | 'manual' | 'stripe';

/** Keeping a payment method for charges made without the shopper (subscription renewals). */
export interface SavePaymentMethodRequest {
  method: PaymentMethodInput;
  email: string;
  /** One per checkout attempt: a retry saves (and, at Stripe, creates the customer) once. */
  idempotencyKey: string;
  now: Date;
}

export type SavePaymentMethodOutcome =
  /** `token` names the kept method (never card data); `firstPayment` is what to authorize the first period with. */
  | { status: 'saved'; token: string; firstPayment: PaymentMethodInput }
  | { status: 'declined'; message: string; field?: 'cardNumber' | 'cardExpiry' | 'cardCvc' | 'payment' }
  | { status: 'failed'; message: string };

/** An off-session charge of a saved method: authorized like a checkout's, captured once its order is written. */
export interface ChargeSavedMethodRequest {
  amount: number;
  currency: CurrencyCode;
  idempotencyKey: string;
  /** SavePaymentMethodOutcome's token. */
  token: string;
  email: string;
  description: string;
  now: Date;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Shown on the checkout page (e.g. the test store's notice); null when none. */
  readonly notice: string | null;
  authorize(req: AuthorizeRequest): Promise<AuthorizeOutcome>;
  capture(reference: string, amount: number, idempotencyKey: string): Promise<Result<void, string>>;
  void(reference: string, idempotencyKey: string): Promise<Result<void, string>>;
  refund(reference: string, amount: number, idempotencyKey: string): Promise<Result<void, string>>;
  /** Keeps the method for later charges (subscriptions); a provider without it cannot sell subscriptions. */
  savePaymentMethod?(req: SavePaymentMethodRequest): Promise<SavePaymentMethodOutcome>;
  /** Charges a kept method without the shopper: 'declined' when it no longer pays (a renewal then is past due). */
  chargeSavedMethod?(req: ChargeSavedMethodRequest): Promise<AuthorizeOutcome>;
}

/** References of zero-amount authorizations: nothing was asked of any payment service, so there is nothing to move. */
export const FREE_REFERENCE_PREFIX = 'free_';

/**
 * A reference derived from the idempotency key alone, so the same key always names the same payment without the
 * provider keeping any state (our payments table is the ledger). 96 bits of sha256: unique per key in practice.
 */
export const keyedReference = (prefix: string, idempotencyKey: string): string =>
  prefix + createHash('sha256').update(idempotencyKey, 'utf8').digest('hex').slice(0, 24);

/** A fully discounted order: authorized without asking anyone for money. */
export const freeAuthorization = (idempotencyKey: string): AuthorizeOutcome => ({
  status: 'authorized',
  reference: keyedReference(FREE_REFERENCE_PREFIX, idempotencyKey),
});

export const isFreeReference = (reference: string): boolean => reference.startsWith(FREE_REFERENCE_PREFIX);

/** Amounts come from the core's totals: a negative or fractional one is a caller's bug, never a shopper's input. */
export function assertAmount(amount: number, what = 'amount'): void {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`payment ${what} must be a whole number of minor units >= 0, not ${amount}`);
}

/** An idempotency key is the caller's; an empty one would make every call "the same". */
export function assertKey(idempotencyKey: string): void {
  if (typeof idempotencyKey !== 'string' || idempotencyKey.trim() === '')
    throw new TypeError('a payment call needs a non-empty idempotency key');
}

/**
 * capture, void and refund of a provider that moves no real money (test, manual): each succeeds for a reference the
 * provider gave out (or a free order's) and refuses any other.
 */
export function bookkeepingOnly(
  prefix: string,
  providerName: string,
): Pick<PaymentProvider, 'capture' | 'void' | 'refund'> {
  const known = (reference: string): Result<void, string> =>
    reference.startsWith(prefix) || isFreeReference(reference)
      ? ok(undefined)
      : err(`'${reference}' is not a payment of the ${providerName} provider`);
  return {
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

declare module '../../platform/http/appContext' {
  interface AppContext {
    /** The payment provider a site's checkout uses (its `store.checkout.payments` settings, keys from the environment). */
    paymentsFor: (site: Site) => PaymentProvider;
  }
}
