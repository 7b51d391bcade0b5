/**
 * The checkout form's fields: their names (one flat form, posted as application/x-www-form-urlencoded without
 * JavaScript, read from the same inputs by the island), the values read from a post or the page, and the calls'
 * bodies made of them. Shared by the server's form handler and the browser's island, so both send the same thing.
 */
import { ADDRESS_MAX_LENGTHS } from '../../core/checkout/address';
import type { CheckoutField } from '../../core/checkout/types';
import { EMAIL_MAX_LENGTH } from '../../core/email';
import { normalizeGiftCardCode } from '../../core/giftCard/code';
import { ADDRESS_FIELDS, type AddressField, type ShippingAddress } from '../../core/checkout/types';
import type { CheckoutChoices } from '../../modules/orders/orderTypes';

/** Every value the form carries (the hidden idempotency key and the buttons' intent aside). */
export const CHECKOUT_FIELD_NAMES = [
  'email',
  ...ADDRESS_FIELDS,
  'shippingOptionId',
  'couponCode',
  /** A gift-card code to apply (the field by 'Apply'). */
  'giftCardCode',
  /** The gift-card codes applied so far, separated by spaces (a hidden field). */
  'giftCardCodes',
  'cardNumber',
  'cardExpiry',
  'cardCvc',
  'paymentMethodId',
] as const;

export type CheckoutFieldName = (typeof CHECKOUT_FIELD_NAMES)[number];
export type CheckoutValues = Record<CheckoutFieldName, string>;
/** A message per field (the server's `fields`, or the browser's own checks), shown next to the field. */
export type CheckoutErrors = Partial<Record<CheckoutField | 'paymentMethodId' | 'giftCardCodes', string>>;

/**
 * How much each input takes (`maxLength`): the core's limits where it has them, so a shopper's typing stops where the
 * rules would refuse, and never reaches the calls' schema limits (a refused schema is a bare error page, not a message
 * by the field).
 */
export const FIELD_MAX_LENGTHS: Readonly<Record<CheckoutFieldName, number>> = {
  email: EMAIL_MAX_LENGTH,
  ...ADDRESS_MAX_LENGTHS,
  country: 10,
  region: 20,
  phone: 20,
  shippingOptionId: 64,
  couponCode: 40,
  giftCardCode: 40,
  giftCardCodes: 200,
  cardNumber: 30,
  cardExpiry: 10,
  cardCvc: 10,
  paymentMethodId: 100,
};

/** Card data is never written back into a page: a re-rendered form asks for it again. */
const SECRET_FIELDS: readonly CheckoutFieldName[] = ['cardNumber', 'cardCvc'];

export const emptyCheckoutValues = (): CheckoutValues =>
  Object.fromEntries(CHECKOUT_FIELD_NAMES.map((name) => [name, ''])) as CheckoutValues;

/**
 * The form's values from whatever was posted or typed: each field's first text value ('' when absent or not text),
 * at most `MAX_FIELD_LENGTH` characters long (the calls' schemas refuse longer ones; a forged post is cut, not 500).
 */
export function readCheckoutValues(read: (name: CheckoutFieldName) => unknown): CheckoutValues {
  const values = emptyCheckoutValues();
  for (const name of CHECKOUT_FIELD_NAMES) values[name] = firstText(read(name)).slice(0, MAX_FIELD_LENGTH);
  return values;
}

/** Longest value kept from a post (the longest the calls accept, an e-mail address, is 320). */
const MAX_FIELD_LENGTH = 320;

const firstText = (value: unknown): string => {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
};

export const withoutCardSecrets = (values: CheckoutValues): CheckoutValues => {
  const kept = { ...values };
  for (const name of SECRET_FIELDS) kept[name] = '';
  return kept;
};

/** The quote call's body (and the order's choices): empty values are left out, the server's rules decide the rest. */
export function checkoutChoices(values: CheckoutValues): CheckoutChoices {
  const address: Partial<ShippingAddress> = {};
  for (const field of ADDRESS_FIELDS) if (values[field] !== '') address[field as AddressField] = values[field];
  return {
    ...(values.email !== '' ? { email: values.email } : {}),
    ...(Object.keys(address).length > 0 ? { shippingAddress: address } : {}),
    ...(values.shippingOptionId !== '' ? { shippingOptionId: values.shippingOptionId } : {}),
    ...(values.couponCode.trim() !== '' ? { couponCode: values.couponCode } : {}),
    ...(giftCardCodesOf(values).length > 0 ? { giftCardCodes: giftCardCodesOf(values) } : {}),
  };
}

/** The gift-card codes to pay with: those applied (the hidden list), then the one just typed. */
export function giftCardCodesOf(values: CheckoutValues): string[] {
  const codes = values.giftCardCodes.split(/\s+/).filter((c) => c !== '');
  if (values.giftCardCode.trim() !== '') codes.push(values.giftCardCode.trim());
  return codes.slice(0, 10);
}

/** Without one applied gift card (its 'Remove' button). */
export function withoutGiftCard(values: CheckoutValues, code: string): CheckoutValues {
  const gone = normalizeGiftCardCode(code);
  const kept = values.giftCardCodes.split(/\s+/).filter((c) => c !== '' && normalizeGiftCardCode(c) !== gone);
  return { ...values, giftCardCodes: kept.join(' ') };
}

/**
 * The form's values once the server has quoted them: the applied list is what the server applied (a card that failed
 * drops out), and the typed code moves into it when it applied (else it stays, by its message).
 */
export function withQuotedGiftCards(values: CheckoutValues, applied: readonly { code: string }[]): CheckoutValues {
  const typed = normalizeGiftCardCode(values.giftCardCode);
  const taken = typed !== '' && applied.some((c) => normalizeGiftCardCode(c.code) === typed);
  return {
    ...values,
    giftCardCodes: applied.map((c) => c.code).join(' '),
    giftCardCode: taken ? '' : values.giftCardCode,
  };
}

/** What the site's payment provider needs from the form: the card fields (test), a payment method id (stripe). */
export function paymentInput(values: CheckoutValues, provider: string): Record<string, string> {
  if (provider === 'test')
    return { cardNumber: values.cardNumber, cardExpiry: values.cardExpiry, cardCvc: values.cardCvc };
  if (provider === 'stripe') return values.paymentMethodId !== '' ? { paymentMethodId: values.paymentMethodId } : {};
  return {};
}

/** The id of a field's input, and of its message (aria-describedby); one checkout form per page. */
export const fieldId = (name: CheckoutFieldName | 'payment'): string => `checkout-${name}`;
export const fieldErrorId = (name: CheckoutFieldName | 'payment'): string => `checkout-${name}-error`;
export const lineErrorId = (entryId: string): string => `checkout-line-${entryId}-error`;
