import type { CurrencyCode } from '../core/currency';
import { ProductType } from '../core/enums';
import type { Collection, Product } from '../modules/site/schema';
import type { ProductForm, ProductForms } from '../modules/cart/coreForm';
import { productSubscription } from '../modules/subscriptions/plans';
import { toCoreProduct } from '../modules/catalog/coreProduct';
import { isPayLaterSupported, productPageOffersPayLater, type PayLaterContext } from '../core/payLater';
import { Island } from './Island';
import type { UiLabels } from './labels';
import { Paragraphs } from './Layout';
import { ProductAudio } from './ProductAudio';
import { ProductMark } from './ProductCard';
import { ResponsiveImage } from './ResponsiveImage';
import { RestockSignUpBlock } from './RestockSignUpBlock';
import { AddOns, type ShelfProduct } from './AddOns';
import { preselectedOptions, variantImageIndex } from '../core/variant';
import { scarcityNotice, variantScarcityNotice, type CoreProduct, type ScarcitySettings } from '../core/product';
import { IMAGE_VALUES_ATTRIBUTE, VARIANT_IMAGES_ATTRIBUTE } from '../client/variantImages';

/**
 * §4 scarcity texts: the product's as a whole (shown before a choice), and each variant's that has one (shown once the
 * shopper chooses it; src/core/product.ts decides).
 */
function scarcityTexts(
  product: Product,
  core: CoreProduct,
): { scarcity: string | null; variantScarcity?: Record<string, string> } {
  const { enabled, shownByDefault, text, threshold } = product.merchandising.scarcity;
  const settings: ScarcitySettings = { enabled, shownByDefault, template: text, threshold };
  const byVariant = core.variants.flatMap((v) => {
    const notice = variantScarcityNotice(core, v, settings);
    return notice === null ? [] : [[v.sku, notice] as const];
  });
  return {
    scarcity: scarcityNotice(core, settings),
    ...(byVariant.length > 0 ? { variantScarcity: Object.fromEntries(byVariant) } : {}),
  };
}

/** The product detail page: gallery, name, mark, the buying island, description. */
export function ProductDetail({
  product,
  collection,
  siteId,
  currency,
  labels,
  multipleQuantityAllowedForServices,
  expressCheckout = false,
  form,
  productForms,
  payLater,
  addOns = [],
}: {
  product: Product;
  collection: Collection;
  siteId: string;
  currency: CurrencyCode;
  labels: UiLabels;
  multipleQuantityAllowedForServices: boolean;
  /** The store's express-checkout setting (§3). */
  expressCheckout?: boolean;
  /** The product's form (additionalFieldsFormId), when it has one. */
  form?: ProductForm;
  /** Every form of the site: a subscription option may have its own. */
  productForms?: ProductForms;
  /** The store's pay-later context (src/core/payLater.ts `payLaterContext`); the badge shows where it applies. */
  payLater?: PayLaterContext;
  /** The add-ons to offer under the buying area (src/core/relatedProducts.ts `chooseAddOns`). */
  addOns?: readonly ShelfProduct[];
}) {
  const core = toCoreProduct(product, currency);
  const subscription = productSubscription(product, currency);
  // The main image is the first, or the picture of the values chosen at first (single-valued options). The pictures of
  // other values wait beside it, hidden and lazy (so never loaded until shown), for the buying island to show as the
  // shopper chooses (src/client/islands/ProductPurchase.tsx); every image but the first also shows under it.
  const [first, ...more] = product.images;
  const mainImages = product.images.filter(
    (image, i) => i === 0 || (image.attributes && Object.keys(image.attributes).length > 0),
  );
  const shown = Math.max(0, variantImageIndex(mainImages, preselectedOptions(product.variantOptions)));
  return (
    <article className="pdp">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            <a href={`/${collection.slug}`}>{collection.title}</a>
          </li>
          <li>
            <span aria-current="page">{product.name}</span>
          </li>
        </ol>
      </nav>
      <div className="pdp__grid">
        <div className="pdp__gallery">
          {first ? (
            <div
              className="pdp__main-image"
              {...(mainImages.length > 1 ? { [VARIANT_IMAGES_ATTRIBUTE]: product.id } : {})}
            >
              {mainImages.map((image, i) => (
                <ResponsiveImage
                  key={image.file}
                  siteId={siteId}
                  image={image}
                  sizes="(min-width: 900px) 560px, 100vw"
                  displayWidth={750}
                  priority={i === shown ? 'high' : undefined}
                  hidden={i !== shown}
                  data={image.attributes ? { [IMAGE_VALUES_ATTRIBUTE]: JSON.stringify(image.attributes) } : undefined}
                />
              ))}
            </div>
          ) : null}
          {more.length > 0 ? (
            <ul className="pdp__more-images">
              {more.map((image) => (
                <li key={image.file}>
                  <ResponsiveImage
                    siteId={siteId}
                    image={image}
                    sizes="(min-width: 900px) 270px, 50vw"
                    displayWidth={300}
                  />
                </li>
              ))}
            </ul>
          ) : null}
          <ProductAudio product={product} />
        </div>
        <div className="pdp__info">
          <h1 className="pdp__name">{product.name}</h1>
          <ProductMark product={product} core={core} labels={labels} />
          <Island
            name="ProductPurchase"
            id="pdp"
            props={{
              product: core,
              options: product.variantOptions,
              labels,
              multipleQuantityAllowedForServices,
              ...scarcityTexts(product, core),
              ...(form ? { form } : {}),
              ...(expressCheckout ? { expressCheckout } : {}),
              ...(subscription
                ? {
                    subscription: {
                      plan: subscription.plan,
                      options: subscription.options.map((o) => {
                        const optionForm =
                          o.additionalFieldsFormId === undefined
                            ? undefined
                            : productForms?.get(o.additionalFieldsFormId);
                        return { ...o, ...(optionForm ? { form: optionForm } : {}) };
                      }),
                    },
                  }
                : {}),
              ...(core.productType === ProductType.GIFT_CARD ? { websiteId: siteId } : {}),
              // Only where a badge can show: the island gets no context for products that do not qualify (or sold out).
              ...(payLater?.afterPayAvailable &&
              productPageOffersPayLater(core) &&
              isPayLaterSupported(payLater.stripeAccountCountry, payLater.shopperLanguage)
                ? { payLater }
                : {}),
            }}
          />
          <RestockSignUpBlock product={product} core={core} />
          <AddOns items={addOns} siteId={siteId} currency={currency} labels={labels} />
          <Paragraphs className="pdp__description" text={product.description} />
        </div>
      </div>
    </article>
  );
}
