/** Coupon codes at checkout: finding the coupon a shopper typed, whether it applies now, and its discount. */
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../currency';
import { formatMoney } from '../money';
import { err, ok, type Result } from '../result';
import { percentOf, thousandthsOfPercent, wholeCents } from './percent';

/** A coupon of the site's checkout settings (`website.store.checkout.coupons`). */
export interface CouponRule {
  /** What the shopper types; matched without regard to case. */
  code: string;
  type: 'percent' | 'fixed';
  /** percent: 1–100 (% of the subtotal); fixed: minor units off the subtotal. */
  amount: number;
  /** The subtotal must be at least this (minor units). */
  minimumSubtotal: number;
  /** ISO date-times; the coupon applies from startsAt (included) until endsAt (excluded). */
  startsAt?: string;
  endsAt?: string;
  /** How many orders may use it in all. */
  usageLimit?: number;
  /** Each e-mail address may use it once. */
  oncePerEmail: boolean;
}

export const COUPON_MESSAGES = {
  notFound: 'That coupon code is not valid.',
  notStarted: 'This coupon is not active yet.',
  expired: 'This coupon has expired.',
  /** {amount} is the minimum subtotal in the site's currency: use couponMinimumMessage. */
  belowMinimum: 'This coupon needs a subtotal of {amount} or more.',
  usedUp: 'This coupon has been used up.',
  alreadyUsed: 'You have already used this coupon.',
} as const;

/** 'This coupon needs a subtotal of $50.00 or more.' */
export const couponMinimumMessage = (minimumCents: number, currency: string): string =>
  COUPON_MESSAGES.belowMinimum.replace(
    '{amount}',
    // The site file only admits the 27 currencies; USD is §9's default should a stored value be unreadable.
    formatMoney({ minorUnits: wholeCents(minimumCents), currency: parseCurrencyCode(currency) ?? DEFAULT_CURRENCY }),
  );

/** The code as coupons are compared and recorded on orders: trimmed, upper case ('' for anything but text). */
export const normalizeCouponCode = (code: unknown): string =>
  typeof code === 'string' ? code.trim().toUpperCase() : '';

/** The coupon whose code is the one typed, whatever its case; undefined for none or an empty code. */
export const findCoupon = <C extends CouponRule>(coupons: readonly C[], code: unknown): C | undefined => {
  const wanted = normalizeCouponCode(code);
  return wanted === '' ? undefined : coupons.find((coupon) => normalizeCouponCode(coupon.code) === wanted);
};

export interface CouponCheckContext {
  /** The order's subtotal before discount, minor units. */
  subtotalCents: number;
  now: Date;
  /** The site's currency (for the minimum-subtotal message). */
  currency: string;
  /** Orders that used the coupon so far (for usageLimit). */
  usesSoFar?: number;
  /** Whether this shopper's e-mail address has used it before (for oncePerEmail). */
  usedByEmail?: boolean;
}

export interface AppliedCoupon {
  /** Normalised (upper case), so orders count their uses the same way whatever case was typed. */
  code: string;
  discountCents: number;
}

/** The discount of a coupon on a subtotal: a percent rounded half up to the minor unit, or a fixed amount; never above the subtotal. */
export const couponDiscount = (coupon: Pick<CouponRule, 'type' | 'amount'>, subtotalCents: number): number => {
  const subtotal = wholeCents(subtotalCents);
  if (coupon.type === 'percent') return percentOf(subtotal, thousandthsOfPercent(coupon.amount) ?? 0);
  return Math.min(wholeCents(coupon.amount), subtotal);
};

/**
 * Whether a coupon applies to this order now, and its discount. Checked in this order: it exists, it has started,
 * it has not ended, it is not used up, this e-mail has not used it, the subtotal reaches its minimum — the one the
 * shopper can still change comes last.
 */
export const checkCoupon = (
  coupon: CouponRule | undefined,
  context: CouponCheckContext,
): Result<AppliedCoupon, { message: string }> => {
  const refuse = (message: string) => err({ message });
  if (coupon === undefined) return refuse(COUPON_MESSAGES.notFound);
  // Written as "not inside the bound" so that an unreadable date or clock (NaN) refuses the coupon rather than grants it.
  const now = context.now instanceof Date ? context.now.getTime() : Number.NaN;
  if (coupon.startsAt !== undefined && !(now >= Date.parse(coupon.startsAt))) return refuse(COUPON_MESSAGES.notStarted);
  if (coupon.endsAt !== undefined && !(now < Date.parse(coupon.endsAt))) return refuse(COUPON_MESSAGES.expired);
  if (coupon.usageLimit !== undefined && !((context.usesSoFar ?? 0) < coupon.usageLimit))
    return refuse(COUPON_MESSAGES.usedUp);
  if (coupon.oncePerEmail && context.usedByEmail === true) return refuse(COUPON_MESSAGES.alreadyUsed);
  const subtotal = wholeCents(context.subtotalCents);
  if (subtotal < wholeCents(coupon.minimumSubtotal))
    return refuse(couponMinimumMessage(coupon.minimumSubtotal, context.currency));
  return ok({ code: normalizeCouponCode(coupon.code), discountCents: couponDiscount(coupon, subtotal) });
};
