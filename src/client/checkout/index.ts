/**
 * The checkout page's islands, kept out of src/client/islands (every page's bundle): only src/client/checkout.tsx
 * imports this registry, so product pages never load checkout code.
 */
import type { ComponentType } from 'react';
import { CheckoutForm, type CheckoutFormProps } from './CheckoutForm';
import { SubscriptionCheckoutForm, type SubscriptionCheckoutFormProps } from './SubscriptionCheckoutForm';

export const CHECKOUT_ISLANDS = { CheckoutForm, SubscriptionCheckoutForm } satisfies Record<
  string,
  ComponentType<never>
>;

export interface CheckoutIslandProps {
  CheckoutForm: CheckoutFormProps;
  SubscriptionCheckoutForm: SubscriptionCheckoutFormProps;
}

export type CheckoutIslandName = keyof typeof CHECKOUT_ISLANDS;

/**
 * The checkout islands' own markers (the same roles as src/client/islands' data-island, data-island-id and
 * data-props): separate names, so neither entry imports the other's registry, and main.tsx never meets these roots.
 */
export const CHECKOUT_ISLAND_ATTRIBUTE = 'data-checkout-island';
export const CHECKOUT_ISLAND_ID_ATTRIBUTE = 'data-island-id';
export const CHECKOUT_ISLAND_PROPS_ATTRIBUTE = 'data-props';
