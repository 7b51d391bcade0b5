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
  /**
   * With one country: the postal codes it ships to, whole or their leading part as the country's regions are given
   * ('SW1A' in the UK, '100' in Sweden; src/core/address/hints.ts); absent or empty = anywhere in its countries.
   */
  postalCodes?: readonly string[] | undefined;
}

/** A postal code as codes are compared: no spaces, upper case ('sw1a 1aa' → 'SW1A1AA'). */
const comparable = (code: string): string => code.replace(/\s+/g, '').toUpperCase();

/**
 * Whether an option ships to `postalCode`: it names no postal codes, or the code starts with one of them. A code not
 * typed yet is covered (the page shows what shipping will cost before the address is whole; the order is checked with
 * the code).
 */
export const shipsToPostalCode = (option: Pick<ShippingOptionRule, 'postalCodes'>, postalCode?: string): boolean => {
  const codes = option.postalCodes ?? [];
  const typed = comparable(typeof postalCode === 'string' ? postalCode : '');
  return codes.length === 0 || typed === '' || codes.some((code) => typed.startsWith(comparable(code)));
};

/**
 * The options for a country (and postal code) with their price for this order, in the settings' order. Before the
 * shopper has chosen a country every option is listed, so the page can show what shipping will cost.
 */
export const shippingOptionsFor = (
  options: readonly ShippingOptionRule[],
  country: string | undefined,
  discountedSubtotalCents: number,
  postalCode?: string,
): PricedShippingOption[] => {
  const code = typeof country === 'string' ? country.trim().toUpperCase() : '';
  return options
    .filter(
      (option) =>
        (code === '' || option.countries.length === 0 || option.countries.some((c) => c.toUpperCase() === code)) &&
        shipsToPostalCode(option, postalCode),
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
