/** Shipping options offered at checkout and what each costs for this order. */
import type { PricedShippingOption } from './types';

/** A shipping option of the site's checkout settings (`website.store.checkout.shippingOptions`). */
export interface ShippingOptionRule {
  id: string;
  name: string;
  /** Flat rate for the whole order, minor units. */
  rate: number;
  /** The option is free when the subtotal after discount is at or above this (minor units). */
  freeOver?: number;
  /** Countries it ships to; empty = every country the store ships to. */
  countries: readonly string[];
}

/**
 * The options for a country with their price for this order, in the settings' order. Before the shopper has
 * chosen a country every option is listed, so the page can show what shipping will cost.
 */
export const shippingOptionsFor = (
  options: readonly ShippingOptionRule[],
  country: string | undefined,
  discountedSubtotalCents: number,
): PricedShippingOption[] => {
  const code = typeof country === 'string' ? country.trim().toUpperCase() : '';
  return options
    .filter(
      (option) =>
        code === '' || option.countries.length === 0 || option.countries.some((c) => c.toUpperCase() === code),
    )
    .map((option) => ({
      id: option.id,
      name: option.name,
      // typeof, not !== undefined: a null freeOver from a hand-made setting must not make every order ship free.
      amount: typeof option.freeOver === 'number' && discountedSubtotalCents >= option.freeOver ? 0 : option.rate,
    }));
};

/** The option the shopper asked for when it is offered, else the first one (a default the page pre-selects), else null. */
export const chooseShippingOption = (
  priced: readonly PricedShippingOption[],
  requestedId?: string | null,
): PricedShippingOption | null => priced.find((option) => option.id === requestedId) ?? priced[0] ?? null;
