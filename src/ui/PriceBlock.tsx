import { formatMoney, type Money } from '../core/money';
import { hasSeveralPrices, type CoreProduct, type CoreVariant } from '../core/product';
import type { UiLabels } from './labels';

const effectivePrice = (v: CoreVariant): Money => (v.onSale && v.salePrice ? v.salePrice : v.price);

function VariantPrice({ variant, labels }: { variant: CoreVariant; labels: Pick<UiLabels, 'salePrice' | 'originalPrice'> }) {
  if (variant.onSale && variant.salePrice) {
    return (
      <>
        <span className="price price--sale">
          <span className="visually-hidden">{labels.salePrice} </span>
          {formatMoney(variant.salePrice)}
        </span>{' '}
        <del className="price price--original">
          <span className="visually-hidden">{labels.originalPrice} </span>
          {formatMoney(variant.price)}
        </del>
      </>
    );
  }
  return <span className="price">{formatMoney(variant.price)}</span>;
}

/**
 * The price of a product or of the chosen variant. Variants that differ (§4 'has several prices') show the range
 * lowest–highest of what the shopper would pay; the sale and original labels are read by screen readers only, as
 * the strike-through already says it visually.
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
  const prices = product.variants.map(effectivePrice).sort((a, b) => a.minorUnits - b.minorUnits);
  const low = prices[0];
  const high = prices[prices.length - 1];
  if (!low || !high) return null;
  return (
    <p className="price-block">
      <span className="price">
        {low.minorUnits === high.minorUnits ? formatMoney(low) : `${formatMoney(low)} – ${formatMoney(high)}`}
      </span>
    </p>
  );
}
