/**
 * Integer arithmetic for percentages of money (coupons and tax). Rates are held as whole thousandths of a percent
 * (8.875 % → 8875) and products are taken in BigInt: 15 digits of minor units times 100 000 is beyond 2^53, and a
 * float product such as 1000 × 0.08875 drifts below 88.75 and would round the wrong way.
 */

const SCALE = 100_000n; // 100 % in thousandths of a percent

/** A non-negative safe integer amount of minor units; anything else (NaN, fractions, negatives, non-numbers) is 0. */
export const wholeCents = (value: unknown): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;

/**
 * A rate in percent (0–100, at most 3 decimals in the site file) as whole thousandths of a percent,
 * or null when it is not a usable rate (not a number, negative, above 100).
 */
export const thousandthsOfPercent = (ratePercent: unknown): number | null => {
  if (typeof ratePercent !== 'number' || !Number.isFinite(ratePercent) || ratePercent < 0 || ratePercent > 100)
    return null;
  // Math.round absorbs the float error of the decimal itself (8.875 * 1000 may be 8874.999…).
  return Math.round(ratePercent * 1000);
};

/** n / d rounded half up, for n ≥ 0 and d > 0. */
const divideHalfUp = (n: bigint, d: bigint): number => Number((2n * n + d) / (2n * d));

/** round-half-up(amount × rate): the share of an amount at a rate in thousandths of a percent. */
export const percentOf = (amountCents: number, thousandths: number): number =>
  divideHalfUp(BigInt(wholeCents(amountCents)) * BigInt(Math.max(0, Math.trunc(thousandths))), SCALE);

/** round-half-up(amount × r / (100 + r)): the part of an amount that already includes r percent (tax-inclusive prices). */
export const includedPartOf = (amountCents: number, thousandths: number): number => {
  const rate = BigInt(Math.max(0, Math.trunc(thousandths)));
  return divideHalfUp(BigInt(wholeCents(amountCents)) * rate, SCALE + rate);
};
