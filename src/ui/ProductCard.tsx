import type { CurrencyCode } from '../core/currency';
import { productMark, productMarkKind, type CoreProduct } from '../core/product';
import { productFormOf, type ProductForms } from '../modules/cart/coreForm';
import { merchandisingContext, toCoreProduct } from '../modules/catalog/coreProduct';
import type { Product } from '../modules/site/schema';
import { Island } from './Island';
import type { UiLabels } from './labels';
import { ListPrice } from './ListPrice';
import { ResponsiveImage } from './ResponsiveImage';

export const productPath = (collectionSlug: string, productSlug: string): string =>
  `/${collectionSlug}/p/${productSlug}`;

/** The one mark a product shows, with the site's own labels (the core decides which mark and its text). */
export function ProductMark({
  product,
  core,
  labels,
}: {
  product: Product;
  core: CoreProduct;
  labels: Pick<UiLabels, 'soldOut' | 'sale'>;
}) {
  const kind = productMarkKind(core);
  const text = productMark(core, merchandisingContext(product), labels);
  return kind && text ? (
    <span className={`product-mark product-mark--${kind === 'sale' ? 'sale' : 'status'}`}>{text}</span>
  ) : null;
}

export interface CardContext {
  siteId: string;
  currency: CurrencyCode;
  labels: UiLabels;
  collectionSlug: string;
  /** The site's product forms: a product with additionalFieldsFormId gets its form in the add button's props. */
  productForms: ProductForms;
  /** Cards of a product page's related products (./RelatedProducts.tsx): that page's product id (§7 RelatedProductAdd). */
  relatedTo?: string;
}

/** The grid add button's island props: only a product with a form carries it (props stay small). */
export function gridAddToCartProps(product: Product, core: CoreProduct, ctx: CardContext) {
  const form = productFormOf(product, ctx.productForms);
  return {
    product: core,
    labels: { addToCart: ctx.labels.addToCart, subscribe: ctx.labels.subscribe, selectValue: ctx.labels.selectValue },
    ...(form ? { form } : {}),
    ...(ctx.relatedTo !== undefined ? { relatedTo: ctx.relatedTo } : {}),
  };
}

/** A product list card: image, mark, name (the link to the detail page), price and the grid add button. */
export function ProductCard({
  product,
  ctx,
  headingLevel = 2,
  priority,
}: {
  product: Product;
  ctx: CardContext;
  headingLevel?: 2 | 3;
  priority?: 'high';
}) {
  const core = toCoreProduct(product, ctx.currency);
  const href = productPath(ctx.collectionSlug, product.slug);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const image = product.images[0];
  return (
    <li className="product-card">
      <div className="product-card__media">
        {image ? (
          <ResponsiveImage
            siteId={ctx.siteId}
            image={image}
            sizes="(min-width: 1100px) 260px, (min-width: 700px) 30vw, 50vw"
            displayWidth={300}
            priority={priority}
          />
        ) : null}
        <ProductMark product={product} core={core} labels={ctx.labels} />
        {/* The product page without JavaScript; the quick view dialog with it (src/client/quickView). */}
        <a
          className="quick-view-link"
          href={href}
          aria-label={`${ctx.labels.quickView}: ${product.name}`}
          data-quick-view={product.id}
          data-quick-view-label={product.name}
        >
          {ctx.labels.quickView}
        </a>
      </div>
      <Heading className="product-card__name">
        <a href={href} className="product-card__link">
          {product.name}
        </a>
      </Heading>
      <ListPrice product={product} core={core} currency={ctx.currency} labels={ctx.labels} />
      <Island name="GridAddToCart" id={`grid-${product.id}`} props={gridAddToCartProps(product, core, ctx)} />
    </li>
  );
}

export function ProductGrid({
  products,
  ctx,
  headingLevel = 2,
  priorityCount = 0,
}: {
  products: Product[];
  ctx: CardContext;
  headingLevel?: 2 | 3;
  /** The first N cards are above the fold: their images load eagerly. */
  priorityCount?: number;
}) {
  return (
    <ul className="product-grid">
      {products.map((p, i) => (
        <ProductCard
          key={p.id}
          product={p}
          ctx={ctx}
          headingLevel={headingLevel}
          priority={i < priorityCount ? 'high' : undefined}
        />
      ))}
    </ul>
  );
}
