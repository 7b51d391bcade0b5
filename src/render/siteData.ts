/**
 * What a site version's pages share and only an import changes: the pages, the collections, the chrome (navigation)
 * and labels, and the product records already looked up. Stock (variants) is never kept: it changes with every sale.
 */
import type { Kysely } from 'kysely';
import type { CurrencyCode } from '../core/currency';
import type { Database } from '../platform/db/tables';
import * as catalog from '../modules/catalog';
import { toProductForm, type ProductForms } from '../modules/cart';
import type { Site } from '../modules/site';
import type { Collection, Form, Page, Product } from '../modules/site';
import { uiLabels, type UiLabels } from '../ui/labels';
import type { SiteChrome } from '../ui/Layout';
import type { PromoPopupChrome } from '../ui/PromoPopup';
import type { SiteImages } from '../ui/ResponsiveImage';
import { LruCache } from './lru';

/** Product records (without variants) kept per site version; a product page costs one query (its stock) after that. */
const PRODUCT_RECORDS_PER_SITE = 500;

export interface SiteData {
  version: number;
  pages: Page[];
  collections: Collection[];
  chrome: SiteChrome;
  labels: UiLabels;
  /** The version and the image sizes, for every ResponsiveImage of the version's pages. */
  images: SiteImages;
  /** Every form of the version as a product form, by id (the add buttons of products with a form carry theirs). */
  productForms: ProductForms;
  /** `${collectionId}/${productSlug}` → the product without variants; null: no such product. */
  products: LruCache<string, Omit<Product, 'variants'> | null>;
}

/** Reads a site version's shared data (four queries). */
export async function loadSiteData(db: Kysely<Database>, site: Site, currency: CurrencyCode): Promise<SiteData> {
  const [pages, collections, imageSizes, forms] = await Promise.all([
    catalog.listPages(db, site.id),
    catalog.listCollections(db, site.id),
    catalog.listImageSizes(db, site.id),
    catalog.listForms(db, site.id),
  ]);
  return {
    version: site.version,
    pages,
    collections,
    chrome: { ...siteChrome(site, currency, pages, collections), promoPopup: promoPopupChrome(site, forms) },
    labels: uiLabels(site.settings),
    images: { version: site.version, sizes: imageSizes },
    productForms: new Map(forms.map((f) => [f.id, toProductForm(f)])),
    products: new LruCache(PRODUCT_RECORDS_PER_SITE),
  };
}

/** The site's promo popup with its form (none when the setting is absent or its form is gone). */
function promoPopupChrome(site: Site, forms: Form[]): PromoPopupChrome | null {
  const popup = site.settings.promoPopup;
  const form = popup && forms.find((f) => f.id === popup.formId);
  return popup && form ? { popup, form, selectValueLabel: uiLabels(site.settings).selectValue } : null;
}

/** The header's title and navigation: the pages shown in navigation, with the collections (the shop, the blog). */
function siteChrome(site: Site, currency: CurrencyCode, pages: Page[], collections: Collection[]): SiteChrome {
  const pageLinks = pages.filter((p) => p.showInNavigation).map((p) => ({ href: p.path, title: p.title }));
  const taken = new Set(pageLinks.map((l) => l.href));
  // Collections are pages of their own (the shop, the blog): linked unless a page already sits at their path.
  const collectionLinks = collections
    .filter((c) => c.type !== 'page' && !taken.has(`/${c.slug}`))
    .map((c) => ({ href: `/${c.slug}`, title: c.title }));
  const home = pageLinks.filter((l) => l.href === '/');
  const rest = pageLinks.filter((l) => l.href !== '/');
  return {
    siteId: site.id,
    title: site.title,
    currency,
    nav: [...home, ...collectionLinks, ...rest],
    social: site.settings.social?.profiles ?? [],
  };
}
