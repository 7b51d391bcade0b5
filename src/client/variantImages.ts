/**
 * The product page's main image follows the shopper's choice (site file `images[].attributes`): the server draws the
 * picture of the first choice and the pictures of other option values hidden beside it (src/ui/ProductDetail.tsx),
 * each with the values it pictures in a data attribute; this shows the one for the chosen values (the first image
 * when none pictures them: src/core/variant.ts `variantImageIndex`). Its code is a chunk of its own, loaded when the
 * buying island tells the first choice (./main.tsx), as the product page's first script is kept small.
 */
import { variantImageIndex } from '../core/variant';
import type { VariantSelection } from './variantSelection';

/** On the box of a product page's main images: the product's id. */
export const VARIANT_IMAGES_ATTRIBUTE = 'data-variant-images';
/** On each of its images: the option values it pictures, as JSON (none on the product's first image without any). */
export const IMAGE_VALUES_ATTRIBUTE = 'data-values';

export function showVariantImage(box: Element, selection: VariantSelection): void {
  const images = [...box.querySelectorAll<HTMLImageElement>('img')];
  const values = images.map((img) => ({
    attributes: JSON.parse(img.getAttribute(IMAGE_VALUES_ATTRIBUTE) ?? '{}') as Record<string, string>,
  }));
  const shown = Math.max(0, variantImageIndex(values, selection));
  images.forEach((img, i) => (img.hidden = i !== shown));
}
