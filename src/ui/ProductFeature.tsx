import type { Product } from '../modules/site/schema';
import { toCoreProduct } from '../modules/catalog/coreProduct';
import { Island } from './Island';
import { ListPrice } from './ListPrice';
import { ProductMark, gridAddToCartProps, productPath, type CardContext } from './ProductCard';
import { ResponsiveImage } from './ResponsiveImage';

/** A product block on an ordinary page: image, name, price and its own add button (§2 product block). */
export function ProductFeature({ product, ctx }: { product: Product; ctx: CardContext }) {
  const core = toCoreProduct(product, ctx.currency);
  const image = product.images[0];
  return (
    <section className="product-feature product-card" aria-labelledby={`feature-${product.id}`}>
      <div className="product-card__media">
        {image ? (
          <ResponsiveImage
            siteId={ctx.siteId}
            image={image}
            sizes="(min-width: 700px) 50vw, 100vw"
            displayWidth={500}
          />
        ) : null}
        <ProductMark product={product} core={core} labels={ctx.labels} />
      </div>
      <div>
        <h3 id={`feature-${product.id}`}>
          <a className="product-card__link" href={productPath(ctx.collectionSlug, product.slug)}>
            {product.name}
          </a>
        </h3>
        <ListPrice product={product} core={core} currency={ctx.currency} labels={ctx.labels} />
        <p>{product.description.split(/\n\s*\n/)[0]}</p>
        <Island name="GridAddToCart" id={`feature-${product.id}`} props={gridAddToCartProps(product, core, ctx)} />
      </div>
    </section>
  );
}
