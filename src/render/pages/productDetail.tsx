/** The product page at /{collection}/p/{slug} (page type 50 content item): its record, its stock read now. */
import { payLaterContext } from '../../core/payLater';
import { PageType } from '../../core/enums';
import { imageUrl } from '../../core/images';
import * as catalog from '../../modules/catalog';
import { productFormOf } from '../../modules/cart';
import { toCoreProduct } from '../../modules/catalog';
import { chooseAddOns, chooseRelatedProducts, RELATED_PRODUCTS_SCAN } from '../../core/relatedProducts';
import type { Collection, Product } from '../../modules/site';
import type { ShelfProduct } from '../../ui/AddOns';
import { ProductDetail } from '../../ui/ProductDetail';
import { RelatedProducts } from '../../ui/RelatedProducts';
import { assetUrl } from '../../ui/ResponsiveImage';
import { productPageCensus } from '../pageCensus';
import { collectionPath, pageKind, type PageRequest } from '../pageKind';

/** The product with its current variants: its record from the version's data (looked up once), its stock read now. */
async function loadProduct(
  { db, site, data, shows, liveAt }: PageRequest,
  collection: Collection,
  slug: string,
): Promise<Product | undefined> {
  const key = `${collection.id}/${slug}`;
  let record = data.products.get(key);
  if (record === undefined) {
    record = (await catalog.getProductRecordBySlug(db, site.id, collection.id, slug, liveAt)) ?? null;
    data.products.set(key, record);
  }
  if (!record) return undefined;
  const variants = (await catalog.getVariants(db, site.id, [record.id])).get(record.id) ?? [];
  shows([record]);
  return { ...record, variants };
}

/**
 * The page's add-ons and related products (src/core/relatedProducts.ts chooses): the named ones in one read, else the
 * collection's products after this one and its first ones (RELATED_PRODUCTS_SCAN of each), with their stock now.
 */
async function loadShelves(
  { db, site, currency, data, shows, liveAt }: PageRequest,
  product: Product,
  collection: Collection,
) {
  const named = product.relatedProductIds;
  const [products, candidates] = await Promise.all([
    catalog.getProducts(db, site.id, [...(product.addOnProductIds ?? []), ...(named ?? [])], liveAt),
    named !== undefined
      ? []
      : Promise.all([
          catalog.listProducts(db, site.id, collection.id, { offset: 0, limit: RELATED_PRODUCTS_SCAN }, liveAt),
          catalog.listProductsFrom(db, site.id, collection.id, product.id, RELATED_PRODUCTS_SCAN, liveAt),
        ]).then(([head, from]) => [...head, ...from]),
  ]);
  // Weighed for the shelves (the related products are the ones in stock): a change to any may change them.
  shows(products);
  shows(candidates);
  const slugs = new Map(data.collections.map((c) => [c.id, c.slug]));
  const shelf = (p: Product) => ({
    ...toCoreProduct(p, currency),
    item: { product: p, collectionSlug: slugs.get(p.collectionId) ?? collection.slug },
  });
  const items = (list: { item: ShelfProduct }[]) => list.map((p) => p.item);
  return {
    addOns: items(chooseAddOns(product.id, product.addOnProductIds ?? [], products.map(shelf))),
    related: items(
      chooseRelatedProducts({
        productId: product.id,
        ...(named !== undefined ? { named } : {}),
        candidates: (named !== undefined ? products : candidates).map(shelf),
      }),
    ),
  };
}

/**
 * The `<title>` of a product page with an SEO title: the owner's words, followed by the site's title as every page's
 * is, unless they name the site already ('Mugs | Vitrine Demo').
 */
export const seoDocumentTitle = (seoTitle: string, siteTitle: string): string =>
  seoTitle.toLowerCase().includes(siteTitle.toLowerCase()) ? seoTitle : `${seoTitle} — ${siteTitle}`;

export const productDetail = pageKind({
  name: 'productDetail',
  match: (path, data) => {
    const at = collectionPath(path, data);
    if (!at || at.collection.type !== 'products' || at.second !== 'p' || !at.third || at.extra.length > 0)
      return undefined;
    return { collection: at.collection, slug: at.third };
  },
  load: async (request, { collection, slug }) => {
    const product = await loadProduct(request, collection, slug);
    return product && { collection, product, ...(await loadShelves(request, product, collection)) };
  },
  view: ({ site, currency, data }, { collection, product, addOns, related }) => {
    const image = product.images[0];
    return {
      pageType: PageType.CONTENT_ITEM,
      census: productPageCensus(product, collection, currency),
      title: product.name,
      ...(product.seo?.title ? { documentTitle: seoDocumentTitle(product.seo.title, site.title) } : {}),
      description: product.seo?.description ?? product.description,
      image: image ? imageUrl(assetUrl(site.id, image.file, site.version), 1000) : null,
      body: (
        <>
          <ProductDetail
            product={product}
            collection={collection}
            siteId={site.id}
            currency={currency}
            labels={data.labels}
            multipleQuantityAllowedForServices={site.settings.store.multipleQuantityAllowedForServices}
            expressCheckout={site.settings.store.expressCheckout.enabled}
            form={productFormOf(product, data.productForms)}
            productForms={data.productForms}
            payLater={payLaterContext(site.settings.store.payLater, currency, site.settings.locale)}
            addOns={addOns}
          />
          <RelatedProducts
            productId={product.id}
            items={related}
            ctx={{ siteId: site.id, currency, labels: data.labels, productForms: data.productForms }}
          />
        </>
      ),
    };
  },
});
