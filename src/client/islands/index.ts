import type { ComponentType } from 'react';
import { CartContents, type CartContentsProps } from './CartContents';
import { CartPill, type CartPillProps } from './CartPill';
import { FormBlockForm, type FormBlockFormProps } from './FormBlockForm';
import { GridAddToCart, type GridAddToCartProps } from './GridAddToCart';
import { ProductPurchase, type ProductPurchaseProps } from './ProductPurchase';

/** Every island by name: the server renders them inside a marked root, the browser hydrates exactly those roots. */
export const ISLANDS = {
  CartPill,
  CartContents,
  GridAddToCart,
  ProductPurchase,
  FormBlockForm,
} satisfies Record<string, ComponentType<never>>;

export interface IslandProps {
  CartPill: CartPillProps;
  CartContents: CartContentsProps;
  GridAddToCart: GridAddToCartProps;
  ProductPurchase: ProductPurchaseProps;
  FormBlockForm: FormBlockFormProps;
}

export type IslandName = keyof typeof ISLANDS;
export const ISLAND_ATTRIBUTE = 'data-island';
export const ISLAND_PROPS_ATTRIBUTE = 'data-props';
export const ISLAND_ID_ATTRIBUTE = 'data-island-id';
