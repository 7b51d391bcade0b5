/**
 * A product page's add-ons (spec §2 "add-on products"; the site file's `addOnProductIds`): under the buying area, each
 * with its image, name (a link to its page), price and a compact add button (the AddOnButton island: a plus icon,
 * 'Add...', a checkmark). A product that needs a choice first (options, a product form, a subscription, a gift card)
 * gets a 'Choose' link to its page instead. Which products, in which order: src/core/relatedProducts.ts.
 */
import type { CurrencyCode } from '../core/currency';
import { ADD_ON_CHOOSE_LABEL, ADD_ONS_TITLE, addOnChooseName, isAddOnAddable } from '../core/relatedProducts';
import { toCoreProduct } from '../modules/catalog/coreProduct';
import type { Product } from '../modules/site/schema';
import { Island } from './Island';
import type { UiLabels } from './labels';
import { ListPrice } from './ListPrice';
import { productPath } from './ProductCard';
import { ResponsiveImage } from './ResponsiveImage';

/** A product shown on another's page, with the slug of its own collection (its link). */
export interface ShelfProduct {
  product: Product;
  collectionSlug: string;
}

export function AddOns({
  items,
  siteId,
  currency,
  labels,
}: {
  items: readonly ShelfProduct[];
  siteId: string;
  currency: CurrencyCode;
  labels: UiLabels;
}) {
  if (items.length === 0) return null;
  return (
    <section className="add-ons" aria-labelledby="add-ons-title">
      <h2 id="add-ons-title" className="add-ons__title">
        {ADD_ONS_TITLE}
      </h2>
      <ul className="add-ons__list">
        {items.map(({ product, collectionSlug }) => {
          const core = toCoreProduct(product, currency);
          const href = productPath(collectionSlug, product.slug);
          const image = product.images[0];
          return (
            <li key={product.id} className="add-on">
              <div className="add-on__image">
                {image ? <ResponsiveImage siteId={siteId} image={image} sizes="4rem" displayWidth={100} /> : null}
              </div>
              <div className="add-on__text">
                <a className="add-on__name" href={href}>
                  {product.name}
                </a>
                <ListPrice product={product} core={core} currency={currency} labels={labels} />
              </div>
              {isAddOnAddable(core, product.additionalFieldsFormId !== undefined) ? (
                <Island name="AddOnButton" id={`add-on-${product.id}`} props={{ product: core }} />
              ) : (
                <a
                  className="add-on__button add-on__button--choose"
                  href={href}
                  aria-label={addOnChooseName(product.name)}
                >
                  {ADD_ON_CHOOSE_LABEL}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
