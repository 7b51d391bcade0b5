import {
  hasSeveralPrices,
  priceRangeText,
  variantPriceText,
  type CoreProduct,
  type CoreVariant,
} from '../core/product';
import type { UiLabels } from './labels';

function VariantPrice({
  variant,
  labels,
}: {
  variant: CoreVariant;
  labels: Pick<UiLabels, 'salePrice' | 'originalPrice'>;
}) {
  const { current, original } = variantPriceText(variant);
  if (original !== null) {
    return (
      <>
        <span className="price price--sale">
          <span className="visually-hidden">{labels.salePrice} </span>
          {current}
        </span>{' '}
        <del className="price price--original">
          <span className="visually-hidden">{labels.originalPrice} </span>
          {original}
        </del>
      </>
    );
  }
  return <span className="price">{current}</span>;
}

/**
 * The price of a product or of the chosen variant. Variants that differ (§4 'has several prices') show the core's
 * range of what the shopper would pay; the sale and original labels are read by screen readers only, as the
 * strike-through already says it visually.
 */
export function PriceBlock({
  product,
  variant,
  labels,
}: {
  product: CoreProduct;
  variant?: CoreVariant | null;
  labels: Pick<UiLabels, 'salePrice' | 'originalPrice'>;
}) {
  const shown = variant ?? (hasSeveralPrices(product) ? null : product.variants[0]);
  if (shown) {
    return (
      <p className="price-block">
        <VariantPrice variant={shown} labels={labels} />
      </p>
    );
  }
  const range = priceRangeText(product);
  if (range === null) return null;
  return (
    <p className="price-block">
      <span className="price">{range}</span>
    </p>
  );
}
