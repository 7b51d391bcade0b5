import type { CurrencyCode } from '../../core/currency';
import type { CoreProduct, CoreVariant, MerchandisingContext } from '../../core/product';
import type { Product, Variant } from '../site';

/** Maps a site-file variant (minor units, stock object) onto the core's plain variant. */
export function toCoreVariant(variant: Variant, currency: CurrencyCode): CoreVariant {
  return {
    sku: variant.sku,
    attributes: variant.attributes,
    price: { minorUnits: variant.price, currency },
    salePrice: variant.salePrice === undefined ? null : { minorUnits: variant.salePrice, currency },
    onSale: variant.onSale,
    unlimited: 'unlimited' in variant.stock,
    qtyInStock: 'qtyInStock' in variant.stock ? variant.stock.qtyInStock : 0,
  };
}

/** Maps a site-file product onto the core's product: the one shape every display rule and the add button read. */
export function toCoreProduct(product: Product, currency: CurrencyCode): CoreProduct {
  return {
    id: product.id,
    name: product.name,
    productType: product.productType,
    isSubscribable: product.subscription !== undefined,
    variantOptions: product.variantOptions.map((o) => o.name),
    variants: product.variants.map((v) => toCoreVariant(v, currency)),
    onSale: product.onSale,
  };
}

export const merchandisingContext = (product: Product): MerchandisingContext => ({
  scarcityEnabled: product.merchandising.scarcity.enabled,
  customSoldOutText: product.merchandising.customSoldOutText ?? null,
});
