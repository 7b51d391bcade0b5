/**
 * The checkout's shapes shared by the core's rules, the server and the checkout island. Money is integer minor units
 * of the site's currency throughout.
 */

/** A shipping address as the checkout form sends it (every value trimmed text; '' when not given). */
export interface ShippingAddress {
  firstName: string;
  lastName: string;
  /** Street and number. */
  address1: string;
  address2: string;
  city: string;
  /** ISO 3166-1 alpha-2, one of the core's address dictionary countries (src/core/address/countries.ts). */
  country: string;
  /** A region code of the country's list (e.g. 'NY'), '' where the country's list is empty or optional. */
  region: string;
  postalCode: string;
  phone: string;
}

export type AddressField = keyof ShippingAddress;
export const ADDRESS_FIELDS: readonly AddressField[] = [
  'firstName',
  'lastName',
  'address1',
  'address2',
  'city',
  'country',
  'region',
  'postalCode',
  'phone',
];

/** A shipping option with its price for this order (a rate, or 0 above its free-over amount). */
export interface PricedShippingOption {
  id: string;
  name: string;
  amount: number;
}

/** The totals of an order, computed by the server with the core's rules; shown as is by page, order and e-mail. */
export interface CheckoutTotals {
  subtotalCents: number;
  shippingCents: number;
  /** The tax in the order: added to it (prices without tax), or the part of it that is tax (prices with tax). */
  taxCents: number;
  discountCents: number;
  grandTotalCents: number;
  /** Name of the tax (e.g. 'VAT'), for the totals' row label. */
  taxName: string;
  pricesIncludeTax: boolean;
}

/** The card form of the `test` payment provider. */
export interface CardInput {
  cardNumber: string;
  /** 'MM / YY' or 'MM/YY'. */
  cardExpiry: string;
  cardCvc: string;
}

/** Fields a checkout failure can point at (the form shows the message next to that field). */
export type CheckoutField =
  | 'email'
  | AddressField
  | 'shippingOptionId'
  | 'couponCode'
  | 'giftCardCode'
  | 'cardNumber'
  | 'cardExpiry'
  | 'cardCvc'
  | 'payment';
