/**
 * The islands whose browser code loads on its own (src/client/islands/lazy.ts), for the server, which renders them
 * like every other island (./Island.tsx). Only the server imports this module: the browser's main bundle never
 * holds their code.
 */
import { AddOnButton, type AddOnButtonProps } from '../client/islands/AddOnButton';
import { CartContents, type CartContentsProps } from '../client/islands/CartContents';
import { FormBlockForm, type FormBlockFormProps } from '../client/islands/FormBlockForm';
import { Gallery, type GalleryProps } from '../client/islands/Gallery';
import { LikeButton, type LikeButtonProps } from '../client/islands/LikeButton';
import { PromoPopup, type PromoPopupProps } from '../client/islands/PromoPopup';
import { RelatedProductsTracking, type RelatedProductsTrackingProps } from '../client/islands/RelatedProductsTracking';
import { RestockSignUp, type RestockSignUpProps } from '../client/islands/RestockSignUp';
import { VideoPlayer, type VideoPlayerProps } from '../client/islands/VideoPlayer';

export const LAZY_ISLAND_COMPONENTS = {
  CartContents,
  FormBlockForm,
  RestockSignUp,
  AddOnButton,
  RelatedProductsTracking,
  Gallery,
  VideoPlayer,
  LikeButton,
  PromoPopup,
};

export interface LazyIslandProps {
  CartContents: CartContentsProps;
  FormBlockForm: FormBlockFormProps;
  RestockSignUp: RestockSignUpProps;
  AddOnButton: AddOnButtonProps;
  RelatedProductsTracking: RelatedProductsTrackingProps;
  Gallery: GalleryProps;
  VideoPlayer: VideoPlayerProps;
  LikeButton: LikeButtonProps;
  PromoPopup: PromoPopupProps;
}
