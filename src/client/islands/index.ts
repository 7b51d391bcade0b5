import type { ComponentType } from 'react';
import { CartPill, type CartPillProps } from './CartPill';
import { GridAddToCart, type GridAddToCartProps } from './GridAddToCart';
import { ProductPurchase, type ProductPurchaseProps } from './ProductPurchase';

/**
 * The islands in the main bundle, by name: the server renders them inside a marked root, the browser hydrates exactly
 * those roots. Islands only some pages have (the cart's lines, form blocks, …) load on their own: ./lazy.ts.
 */
export const ISLANDS = {
  CartPill,
  GridAddToCart,
  ProductPurchase,
} satisfies Record<string, ComponentType<never>>;

export interface IslandProps {
  CartPill: CartPillProps;
  GridAddToCart: GridAddToCartProps;
  ProductPurchase: ProductPurchaseProps;
}

export type IslandName = keyof typeof ISLANDS;
export const ISLAND_ATTRIBUTE = 'data-island';
export const ISLAND_PROPS_ATTRIBUTE = 'data-props';
export const ISLAND_ID_ATTRIBUTE = 'data-island-id';
