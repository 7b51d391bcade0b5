/**
 * The "You may also like" section's §7 events (src/ui/RelatedProducts.tsx): CommerceShopping_RelatedProductDisplay
 * once per page view, and CommerceShopping_RelatedProductClick when a related product's link is followed. (Its add
 * buttons report CommerceShopping_RelatedProductAdd themselves: GridAddToCart's `relatedTo`.)
 *
 * It shows nothing. Its code is not in the page's main bundle: ./lazy.ts loads it when the section scrolls into view
 * (or takes focus), which is when it is displayed.
 */
import { useEffect } from 'react';
import { trackEvent } from '../track';

/** Marks the section (the tracker finds its cards and links there). */
export const RELATED_PRODUCTS_ATTRIBUTE = 'data-related-products';

export interface RelatedProductsTrackingProps {
  /** The page's product. */
  productId: string;
  /** The related products, in the order of their cards. */
  itemIds: string[];
}

export function RelatedProductsTracking({ productId, itemIds }: RelatedProductsTrackingProps) {
  useEffect(() => {
    trackEvent('CommerceShopping_RelatedProductDisplay', {
      itemId: productId,
      relatedItemIds: itemIds,
      count: itemIds.length,
    });
    const section = document.querySelector<HTMLElement>(`[${RELATED_PRODUCTS_ATTRIBUTE}]`);
    if (!section) return;
    const onClick = (event: MouseEvent) => {
      const card = (event.target as Element | null)?.closest?.('.product-card');
      if (!card || !(event.target as Element).closest('a.product-card__link')) return;
      const position = [...section.querySelectorAll('.product-card')].indexOf(card);
      const itemId = itemIds[position];
      if (itemId !== undefined)
        trackEvent('CommerceShopping_RelatedProductClick', { itemId, sourceItemId: productId, position: position + 1 });
    };
    section.addEventListener('click', onClick);
    return () => section.removeEventListener('click', onClick);
  }, [productId, itemIds]);
  return null;
}
