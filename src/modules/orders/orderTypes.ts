/**
 * Orders as the rest of the code sees them (API and e-mail types; rows are in src/platform/db/tables.ts, mapped by
 * src/modules/orders/orders.ts). Money is integer minor units of `currency`.
 */
import type { CheckoutField, CheckoutTotals, PricedShippingOption, ShippingAddress } from '../../core/checkout/types';
import type { FormAnswerSummary } from '../../core/forms/summary';
import type { OrderStatus } from './tables';
import type { CartEntry, ShoppingCart } from '../cart';
import type { QuotedGiftCard } from '../giftCards';

export type { OrderStatus };

export interface OrderLine {
  position: number;
  itemId: string;
  sku: string;
  title: string;
  productType: number;
  /** Option name → value, e.g. { Color: 'Oatmeal' }. */
  attributes: Record<string, string>;
  /** JSON text of the product form's answers, '' when none. */
  additionalFields: string;
  /** The product form's answers as the cart showed them. */
  additionalFieldsSummary: FormAnswerSummary[];
  /** The product's first image then (site-file path and alt text), or null. */
  image: { file: string; altText: string } | null;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
  /** Units refunded so far. */
  refundedQuantity: number;
}

export interface Order extends CheckoutTotals {
  /** The unguessable id: the order-confirmed page is /checkout/order/{id}. */
  id: string;
  /** The order number shown to shopper and merchant (per site: 1, 2, 3 …). */
  number: number;
  websiteId: string;
  email: string;
  status: OrderStatus;
  currency: string;
  shippingAddress: ShippingAddress | null;
  shippingOption: PricedShippingOption | null;
  couponCode: string | null;
  /** 'test', 'manual' or 'stripe'. */
  paymentProvider: string;
  /** ISO-8601 UTC. */
  createdAt: string;
  /** What refunds have given back so far (minor units). */
  refundedTotalCents: number;
  lines: OrderLine[];
}

/** What the checkout page shows and the quote call answers: the cart and its totals for the choices made so far. */
export interface CheckoutQuote {
  cart: ShoppingCart;
  /** Entry id → the product's first image (site-file path and alt text), or null; for the line list. */
  lineImages: Record<string, { file: string; altText: string } | null>;
  requiresShipping: boolean;
  /** Options for the chosen country (all options when no country is chosen yet); [] when nothing needs shipping. */
  shippingOptions: PricedShippingOption[];
  /** The chosen option, or the first one when none (or an unknown one) was chosen; null without options. */
  selectedShippingOptionId: string | null;
  /** The coupon applied, or null. */
  coupon: { code: string; discountCents: number } | null;
  /** Why the coupon code given was not applied (shown next to the coupon field); absent when none was given or it applied. */
  couponError?: string;
  totals: CheckoutTotals;
  /** The gift cards applied, in the order given: each code (as typed, formatted), its last four and what it pays. */
  giftCards: QuotedGiftCard[];
  /** Why a gift-card code given was not applied (shown next to the gift-card field); absent when all applied. */
  giftCardError?: string;
  /** What is left to pay by the payment provider: the total less what the gift cards pay. */
  amountDueCents: number;
  /** §8 'To check out, your order subtotal must be {subtotal} or more.' while the minimum is not reached, else null. */
  minimumSubtotalMessage: string | null;
}

/** The choices a shopper makes on the checkout page (the quote call takes the same, every part optional). */
export interface CheckoutChoices {
  email?: string;
  shippingAddress?: Partial<ShippingAddress>;
  shippingOptionId?: string;
  couponCode?: string;
  /** Gift-card codes to pay with, in this order (each pays what is left, up to its balance). */
  giftCardCodes?: string[];
}

export interface PlaceOrderInput extends CheckoutChoices {
  /** Random per attempt, made by the page: the same key again (a double click, a retry) never makes a second order. */
  idempotencyKey: string;
  /** What the site's payment provider needs: card fields (test), nothing (manual), a payment method id (stripe). */
  payment: Record<string, string>;
}

/**
 * A refused checkout, said next to what caused it: `fields` maps form fields to their message; `lines` the cart lines
 * that cannot be bought (sold out since they were added). `message` is the one line shown above the form.
 */
export interface CheckoutFailure {
  type:
    | 'EMPTY_CART'
    | 'BELOW_MINIMUM'
    | 'INVALID_DETAILS'
    | 'OUT_OF_STOCK'
    | 'INVALID_COUPON'
    | 'INVALID_GIFT_CARD'
    | 'PAYMENT_DECLINED'
    | 'PAYMENT_FAILED'
    | 'CART_CHANGED'
    | 'IDEMPOTENCY_MISMATCH'
    | 'IN_PROGRESS';
  message: string;
  fields?: Partial<Record<CheckoutField, string>>;
  lines?: { entryId: string; sku: string; message: string }[];
}

export interface PlacedOrder {
  order: Order;
}

export type { CartEntry };
