/** A products collection at /{collection} (the shop), and its further pages at /{collection}/page/N: a grid each. */
import { PageType } from '../../core/enums';
import { pageSlice, parsePageNumber } from '../../core/paging';
import * as catalog from '../../modules/catalog';
import { ProductListPage } from '../../ui/Pages';
import { productListCensus } from '../pageCensus';
import { collectionPath, pageKind } from '../pageKind';

export const productList = pageKind({
  name: 'productList',
  match: (path, data) => {
    const at = collectionPath(path, data);
    if (!at || at.collection.type !== 'products') return undefined;
    if (at.second === undefined) return { collection: at.collection, page: 1 };
    // Page 1 is the collection's own address: /shop/page/1 is not another one.
    const page = at.second === 'page' && at.extra.length === 0 ? parsePageNumber(at.third) : undefined;
    return page === undefined ? undefined : { collection: at.collection, page };
  },
  load: async ({ db, site, shows, liveAt }, { collection, page }) => {
    const slice = pageSlice(
      await catalog.countProducts(db, site.id, collection.id, liveAt),
      catalog.PRODUCT_LIST_PAGE_SIZE,
      page,
    );
    if (!slice) return undefined;
    const products = await catalog.listProducts(db, site.id, collection.id, slice, liveAt);
    shows(products);
    return { collection, slice, products };
  },
  view: ({ site, currency, data }, { collection, slice, products }) => ({
    pageType: PageType.MAIN_CONTENT,
    census: productListCensus(collection),
    title: slice.page === 1 ? collection.title : `${collection.title} — page ${slice.page} of ${slice.pageCount}`,
    description: `${collection.title} — ${products.map((p) => p.name).join(', ')}`,
    body: (
      <ProductListPage
        collection={collection}
        products={products}
        siteId={site.id}
        currency={currency}
        labels={data.labels}
        productForms={data.productForms}
        paging={slice}
      />
    ),
  }),
});
