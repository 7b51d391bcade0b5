/**
 * The islands whose browser code loads on its own (src/client/islands/lazy.ts), for the server, which renders them
 * like every other island (./Island.tsx). Only the server imports this module: the browser's main bundle never
 * holds their code.
 */
import { AddOnButton, type AddOnButtonProps } from '../client/islands/AddOnButton';
import { RelatedProductsTracking, type RelatedProductsTrackingProps } from '../client/islands/RelatedProductsTracking';
import { RestockSignUp, type RestockSignUpProps } from '../client/islands/RestockSignUp';

export const LAZY_ISLAND_COMPONENTS = { RestockSignUp, AddOnButton, RelatedProductsTracking };

export interface LazyIslandProps {
  RestockSignUp: RestockSignUpProps;
  AddOnButton: AddOnButtonProps;
  RelatedProductsTracking: RelatedProductsTrackingProps;
}
