import type { CoreProduct } from '../core/product';
import type { CurrencyCode } from '../core/currency';
import { optionPrice, planPriceText } from '../core/subscriptionPlan';
import { productSubscription } from '../modules/subscriptions/plans';
import type { Product } from '../modules/site/schema';
import type { UiLabels } from './labels';
import { PriceBlock } from './PriceBlock';

/**
 * A product's price where it is listed (cards, product blocks, add-ons). A subscription with options costs its
 * option's price whatever the variant: it shows its first option's, in the plan's wording, as its page first does
 * ('$13.00 every 2 weeks'), not the range of its variants' one-time prices. Any other product: the price block.
 */
export function ListPrice({
  product,
  core,
  currency,
  labels,
}: {
  product: Pick<Product, 'subscription'>;
  core: CoreProduct;
  currency: CurrencyCode;
  labels: Pick<UiLabels, 'salePrice' | 'originalPrice'>;
}) {
  const subscription = productSubscription(product, currency);
  const first = subscription?.options[0];
  if (subscription && first) {
    return (
      <p className="price-block">
        <span className="price subscription-price">{planPriceText(subscription.plan, optionPrice(first))}</span>
      </p>
    );
  }
  return <PriceBlock product={core} labels={labels} />;
}
