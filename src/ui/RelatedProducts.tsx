/**
 * "You may also like" under a product page (spec §2; the site file's `relatedProductIds`, else the next products of its
 * collection in stock: src/core/relatedProducts.ts): the usual product cards, whose add buttons work as on a product
 * list and report §7's RelatedProductAdd; the RelatedProductsTracking island reports RelatedProductDisplay when the
 * section scrolls into view and RelatedProductClick when a card's link is followed.
 */
import { RELATED_PRODUCTS_ATTRIBUTE } from '../client/islands/RelatedProductsTracking';
import { RELATED_PRODUCTS_TITLE } from '../core/relatedProducts';
import type { ShelfProduct } from './AddOns';
import { Island } from './Island';
import { ProductCard, type CardContext } from './ProductCard';

export function RelatedProducts({
  productId,
  items,
  ctx,
}: {
  productId: string;
  items: readonly ShelfProduct[];
  ctx: Omit<CardContext, 'collectionSlug' | 'relatedTo'>;
}) {
  if (items.length === 0) return null;
  return (
    <section
      className="related-products"
      aria-labelledby="related-products-title"
      {...{ [RELATED_PRODUCTS_ATTRIBUTE]: '' }}
    >
      <h2 id="related-products-title" className="related-products__title">
        {RELATED_PRODUCTS_TITLE}
      </h2>
      <ul className="product-grid">
        {items.map(({ product, collectionSlug }) => (
          <ProductCard
            key={product.id}
            product={product}
            ctx={{ ...ctx, collectionSlug, relatedTo: productId }}
            headingLevel={3}
          />
        ))}
      </ul>
      <Island
        name="RelatedProductsTracking"
        id="related"
        props={{ productId, itemIds: items.map((i) => i.product.id) }}
      />
    </section>
  );
}
