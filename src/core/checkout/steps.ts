/**
 * The checkout without JavaScript, in two steps: a page cannot show the total of an address it does not know yet, so
 * the shopper gives the e-mail, the address and the shipping method first (step 'details', with 'Continue to
 * payment'); the next page shows the totals for them, shipping and tax included, and takes the payment (step
 * 'payment'), so that one Place order charges the total on the page. With JavaScript the checkout is one page whose
 * totals follow the address as it is typed.
 */
import type { CheckoutField } from './types';

export type CheckoutStep = 'details' | 'payment';

/** The fields the payment step asks for (the rest belong to the details step, or to the summary's codes). */
const PAYMENT_FIELDS: ReadonlySet<string> = new Set([
  'cardNumber',
  'cardExpiry',
  'cardCvc',
  'payment',
  'paymentMethodId',
]);
/** The summary's codes: shown by their fields on either step. */
const CODE_FIELDS: ReadonlySet<string> = new Set(['couponCode', 'giftCardCode', 'giftCardCodes']);

/** The messages of the details step (e-mail, address, shipping method) among a refusal's or a check's. */
export const detailErrors = <T extends Partial<Record<CheckoutField | string, string>>>(fields: T): Partial<T> =>
  Object.fromEntries(
    Object.entries(fields).filter(([name, message]) => message && !PAYMENT_FIELDS.has(name) && !CODE_FIELDS.has(name)),
  ) as Partial<T>;

/**
 * The step to show for the details as the server checked them: 'payment' once nothing of the details step is wrong.
 * `leaving`: the shopper pressed 'Continue to payment', so a coupon or gift-card code that does not apply keeps them
 * on the details step too, by its message (else it would refuse the order on the next page).
 */
export function stepFor(
  fields: Partial<Record<string, string>>,
  options: { leaving?: boolean; belowMinimum?: boolean } = {},
): CheckoutStep {
  if (options.belowMinimum) return 'details';
  if (Object.keys(detailErrors(fields)).length > 0) return 'details';
  if (options.leaving && Object.entries(fields).some(([name, message]) => message && CODE_FIELDS.has(name)))
    return 'details';
  return 'payment';
}

/** A posted step value as a step ('details' for anything else). */
export const readStep = (value: unknown): CheckoutStep => (value === 'payment' ? 'payment' : 'details');
