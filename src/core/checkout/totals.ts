/** The order's totals: subtotal, discount, shipping and tax, as page, order and e-mail show them. */
import { wholeCents } from './percent';
import { taxOn, type TaxRateRule } from './tax';
import type { CheckoutTotals, PricedShippingOption } from './types';

export interface CheckoutTotalsInput {
  /** The cart's subtotal, minor units. */
  subtotalCents: number;
  /** The coupon's discount (capped at the subtotal here too). */
  discountCents: number;
  shipping: PricedShippingOption | null;
  /** The rate for the shipping address (taxRateFor); undefined = no tax. */
  taxRate: TaxRateRule | undefined;
  /** Prices (and shipping rates) include tax: the tax shown is the part of the total that is tax. */
  pricesIncludeTax: boolean;
  /** Shipping is taxed at the same rate. */
  taxShipping: boolean;
}

/** Name of the tax row when no rate applies. */
export const DEFAULT_TAX_NAME = 'Tax';

/**
 * Taxable base = subtotal − discount (+ shipping when shipping is taxed). Prices without tax: grand total =
 * subtotal − discount + shipping + tax. Prices with tax: grand total = subtotal − discount + shipping, and the tax
 * is the part of the base that is tax. Bad amounts count as 0, so no total is ever negative.
 */
export const checkoutTotals = (input: CheckoutTotalsInput): CheckoutTotals => {
  const subtotalCents = wholeCents(input.subtotalCents);
  const discountCents = Math.min(wholeCents(input.discountCents), subtotalCents);
  const shippingCents = wholeCents(input.shipping?.amount);
  const pricesIncludeTax = input.pricesIncludeTax === true;
  const goods = subtotalCents - discountCents;
  const base = goods + (input.taxShipping === true ? shippingCents : 0);
  const taxCents = input.taxRate ? taxOn(base, input.taxRate.rate, pricesIncludeTax) : 0;
  return {
    subtotalCents,
    shippingCents,
    taxCents,
    discountCents,
    grandTotalCents: goods + shippingCents + (pricesIncludeTax ? 0 : taxCents),
    // || rather than ??: a rate named '' still needs a row label.
    taxName: input.taxRate?.name || DEFAULT_TAX_NAME,
    pricesIncludeTax,
  };
};
