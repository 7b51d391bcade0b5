/**
 * What a page tells the measurement module (src/client/measure) about itself, on `<body data-census>`: the §3 census
 * fields the server knows (website, page, item, collection, record type, locale), the site's cookie-consent setting
 * and, on product and product list pages, what the §7 commerce events need. Nothing about the visitor: cached pages
 * carry it too.
 */
import { PageType, RecordType } from '../core/enums';
import type { Site } from '../modules/site';
import type { Collection, Product } from '../modules/site';

/** §2, §6: page types that send no page view (and `/search`). */
const UNTRACKED_PAGE_TYPES: ReadonlySet<number> = new Set([
  PageType.NOT_FOUND,
  PageType.LOCK_SCREEN,
  PageType.MEMBER_AREA_ACCESS_DENIED,
  PageType.SEARCH,
]);
export const SEARCH_PATH = '/search';
export const sendsPageView = (pageType: number | null, path: string): boolean =>
  !(pageType !== null && UNTRACKED_PAGE_TYPES.has(pageType)) &&
  path !== SEARCH_PATH &&
  !path.startsWith(`${SEARCH_PATH}/`);

export interface PageCensus {
  websiteId: string;
  website_locale: string;
  /** The store's currency (commerce event values). */
  currency: string;
  /** 'required': nothing is kept in cookies until the visitor accepts (the banner asks). */
  cookieConsent: 'not-required' | 'required';
  /** A cloneable (template) site: never a persisted visitor id. */
  cloneable: boolean;
  /** Whether the page sends a page view (§2: not on not-found, lock-screen, member-area-denied pages and /search). */
  pageView: boolean;
  /** The page type the commerce events care about: the cart (ViewCart) or the order confirmed (the purchase). */
  shopPage?: 'cart' | 'order-confirmed';
  templateId?: string;
  pageId?: string;
  itemId?: string;
  collectionId?: string;
  recordType?: number;
  contentSource?: 'i' | 'c';
  pagePermissionTypeValue?: number;
  /** A product detail page's product (VisitPDP): prices in minor units. */
  product?: { id: string; name: string; sku: string; priceCents: number; currency: string; productType: number };
  /** A product list page's collection (VisitPLP). */
  collection?: { id: string; title: string };
}

export type PageCensusFields = Omit<
  PageCensus,
  'websiteId' | 'website_locale' | 'currency' | 'cookieConsent' | 'cloneable' | 'pageView' | 'shopPage'
>;

export function pageCensus(site: Site, pageType: number, path: string, fields: PageCensusFields = {}): PageCensus {
  const analytics = site.settings.analytics;
  const shopPage =
    pageType === PageType.SHOW_CART ? 'cart' : pageType === PageType.ORDER_CONFIRMED ? 'order-confirmed' : undefined;
  return {
    pageView: sendsPageView(pageType, path),
    ...(shopPage ? { shopPage } : {}),
    websiteId: site.id,
    website_locale: site.settings.locale,
    currency: site.currency,
    cookieConsent: analytics?.cookieConsent ?? 'not-required',
    cloneable: analytics?.cloneable ?? false,
    ...fields,
  };
}

export const productPageCensus = (product: Product, collection: Collection, currency: string): PageCensusFields => {
  const first = product.variants[0];
  return {
    itemId: product.id,
    collectionId: collection.id,
    recordType: RecordType.STORE_ITEM,
    contentSource: 'i',
    product: {
      id: product.id,
      name: product.name,
      sku: first?.sku ?? '',
      priceCents: first ? (first.onSale && first.salePrice !== undefined ? first.salePrice : first.price) : 0,
      currency,
      productType: product.productType,
    },
  };
};

export const productListCensus = (collection: Collection): PageCensusFields => ({
  collectionId: collection.id,
  contentSource: 'c',
  collection: { id: collection.id, title: collection.title },
});
