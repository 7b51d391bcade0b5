/**
 * What the owner's area says of an order's state (issue 25): its payment (from its status and what was refunded) and
 * its fulfilment, the carriers a shipment may name and their tracking links, and which products fulfil themselves.
 * Pure: the orders module (src/modules/orders) and the admin pages read these.
 */
import { ProductType } from './enums';

export type PaymentState = 'paid' | 'partially-refunded' | 'refunded' | 'awaiting-payment';

export const PAYMENT_STATES: readonly PaymentState[] = ['paid', 'partially-refunded', 'refunded', 'awaiting-payment'];

export const PAYMENT_LABELS: Readonly<Record<PaymentState, string>> = {
  paid: 'Paid',
  'partially-refunded': 'Partially refunded',
  refunded: 'Refunded',
  'awaiting-payment': 'Awaiting payment',
};

/**
 * An order's payment state from its stored status ('paid' | 'awaiting-payment' | 'refunded'), the amount refunded so
 * far and its total (minor units). The one place that decides it: partial refunds extend it here.
 */
export function paymentState(status: string, refundedAmount: number, total: number): PaymentState {
  if (status === 'refunded' || (total > 0 && refundedAmount >= total)) return 'refunded';
  if (refundedAmount > 0) return 'partially-refunded';
  return status === 'awaiting-payment' ? 'awaiting-payment' : 'paid';
}

/** 'Paid', 'Partially refunded', 'Refunded', 'Awaiting payment'. */
export const paymentLabel = (status: string, refundedAmount: number, total: number): string =>
  PAYMENT_LABELS[paymentState(status, refundedAmount, total)];

export type Fulfilment = 'pending' | 'fulfilled' | 'canceled';

export const FULFILMENTS: readonly Fulfilment[] = ['pending', 'fulfilled', 'canceled'];

export const FULFILMENT_LABELS: Readonly<Record<Fulfilment, string>> = {
  pending: 'Pending',
  fulfilled: 'Fulfilled',
  canceled: 'Canceled',
};

export const isFulfilment = (value: unknown): value is Fulfilment => FULFILMENTS.includes(value as Fulfilment);

/** Products nobody ships: an order of only these is fulfilled when it is placed. */
const SELF_FULFILLING: readonly number[] = [ProductType.DIGITAL, ProductType.GIFT_CARD, ProductType.PAYWALL];

/** Whether an order of lines of these product types fulfils itself (it has lines, and none to ship or serve). */
export const fulfilsItself = (productTypes: readonly number[]): boolean =>
  productTypes.length > 0 && productTypes.every((type) => SELF_FULFILLING.includes(type));

/** The carriers a shipment may name, in the form's order. */
export const CARRIERS = ['UPS', 'USPS', 'FedEx', 'DHL', 'Royal Mail', 'Canada Post', 'Other'] as const;
export type Carrier = (typeof CARRIERS)[number];

export const isCarrier = (value: unknown): value is Carrier => CARRIERS.includes(value as Carrier);

const TRACKING_PAGES: Readonly<Partial<Record<Carrier, (number: string) => string>>> = {
  UPS: (n) => `https://www.ups.com/track?tracknum=${n}`,
  USPS: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  FedEx: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  DHL: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=${n}`,
  'Royal Mail': (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}`,
  'Canada Post': (n) => `https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=${n}`,
};

/** At most this long, letters, digits, spaces and dashes: what carriers print. */
export const MAX_TRACKING_LENGTH = 64;

/** The tracking number as stored: trimmed, inner spaces kept; null when empty. */
export function normalTrackingNumber(text: string | null | undefined): string | null {
  const trimmed = (text ?? '').trim().replace(/\s+/g, ' ');
  return trimmed === '' ? null : trimmed;
}

/** Why a tracking number is refused, or null when it is fine (empty is fine: the number is optional). */
export function trackingNumberProblem(text: string | null): string | null {
  if (text === null) return null;
  if (text.length > MAX_TRACKING_LENGTH)
    return `The tracking number is too long (at most ${MAX_TRACKING_LENGTH} characters).`;
  if (!/^[A-Za-z0-9][A-Za-z0-9 -]*$/.test(text))
    return 'The tracking number may have only letters, digits, spaces and dashes.';
  return null;
}

/** The carrier's tracking page of a shipment, for the known carriers and a number; else null. */
export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber || !isCarrier(carrier)) return null;
  const page = TRACKING_PAGES[carrier];
  return page ? page(encodeURIComponent(trackingNumber.replace(/\s+/g, ''))) : null;
}
