import type { PageSlice } from '../core/paging';
import { isPayLaterSupported, type PayLaterContext } from '../core/payLater';
import { Pager } from './Pager';
import type { Collection, Page, Product } from '../modules/site';
import type { ProductForms } from '../modules/cart';
import { PostView } from './Blog';
import { Blocks, type BlockData } from './Blocks';
import { Island } from './Island';
import type { UiLabels } from './labels';
import { ProductGrid } from './ProductCard';
import type { CurrencyCode } from '../core/currency';
import type { CartSnapshot } from '../client/cartStore';
import type { CartProductView } from '../client/islands/CartContents';

/** An ordinary page of the site file: its blocks, with an h1 from the page title unless a block gives one. */
export function ContentPage({ page, data, isHome }: { page: Page; data: BlockData; isHome: boolean }) {
  const hasH1 = page.blocks.some((b) => b.type === 'heading' && b.level === 1);
  return (
    <div className={isHome ? 'content-page hero' : 'content-page'}>
      {hasH1 ? null : <h1 className={isHome ? 'visually-hidden' : undefined}>{page.title}</h1>}
      <Blocks blocks={page.blocks} data={data} />
    </div>
  );
}

/** Product list page: the products collection as a grid. */
export function ProductListPage({
  collection,
  products,
  siteId,
  currency,
  labels,
  productForms,
  paging,
}: {
  collection: Collection;
  products: Product[];
  siteId: string;
  currency: CurrencyCode;
  labels: UiLabels;
  productForms: ProductForms;
  /** Which page of the collection this is (src/core/paging.ts); one page when absent. */
  paging?: PageSlice;
}) {
  return (
    <>
      <header className="collection-header">
        <h1>{collection.title}</h1>
        {paging && paging.pageCount > 1 ? (
          <p className="collection-header__page">{`Page ${paging.page} of ${paging.pageCount}`}</p>
        ) : null}
      </header>
      <ProductGrid
        products={products}
        priorityCount={4}
        ctx={{ siteId, currency, labels, collectionSlug: collection.slug, productForms }}
      />
      {paging ? (
        <Pager
          page={paging.page}
          pageCount={paging.pageCount}
          href={(n) => (n === 1 ? `/${collection.slug}` : `/${collection.slug}/page/${n}`)}
        />
      ) : null}
    </>
  );
}

export { PostView };

/**
 * The cart page (page type 200). Cached as it is for visitors without a cart (the empty cart); a visitor with a cart
 * cookie gets a copy made for them with their lines and the crumb of the lines' forms (src/modules/cart/pages/visitorCart.tsx).
 * The CartContents island draws the lines and keeps them up to date.
 */
export function CartPage({
  currency,
  minimumSubtotal,
  quantityLabel,
  payLater,
  shopHref,
  initialCart,
  crumb,
  products,
}: {
  currency: CurrencyCode;
  minimumSubtotal: number;
  quantityLabel: string;
  /** The store's pay-later context (src/core/payLater.ts), sent to the island only when the badge can show. */
  payLater?: PayLaterContext;
  shopHref: string;
  initialCart: CartSnapshot;
  crumb?: string;
  products?: Readonly<Record<string, CartProductView>>;
}) {
  const badge =
    payLater?.afterPayAvailable && isPayLaterSupported(payLater.stripeAccountCountry, payLater.shopperLanguage);
  const visitor = crumb === undefined ? {} : { crumb, products: products ?? {} };
  return (
    <div className="cart-page">
      <h1>Cart</h1>
      <Island
        name="CartContents"
        id="cart"
        props={{
          currency,
          minimumSubtotal,
          quantityLabel,
          shopHref,
          initialCart,
          ...visitor,
          ...(badge ? { payLater } : {}),
        }}
      />
    </div>
  );
}

/** Not found (page type 100). */
export function NotFoundPage() {
  return (
    <div className="not-found">
      <h1>Page not found</h1>
      <p>We couldn’t find the page you were looking for.</p>
      <p>
        <a className="button" href="/">
          Go to the home page
        </a>
      </p>
    </div>
  );
}
