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
import { designCss, designFontFiles } from '../core/design';
import { fontUrl } from './fonts';
import { imageUrl, thumbnailWidth } from '../core/images';
import { assetUrl } from '../ui/ResponsiveImage';

/** Product records (without variants) kept per site version; a product page costs one query (its stock) after that. */
const PRODUCT_RECORDS_PER_SITE = 500;

export interface SiteData {
  version: number;
  /**
   * The storefront edition these are of (src/core/publishing.ts `liveEdition`): the version, and how many of its
   * scheduled things have gone live; 'staff' for a preview's data (drafts included).
   */
  edition: string;
  pages: Page[];
  collections: Collection[];
  chrome: SiteChrome;
  labels: UiLabels;
  /** The version and the image sizes, for every ResponsiveImage of the version's pages. */
  images: SiteImages;
  /** Every form of the version as a product form, by id (the add buttons of products with a form carry theirs). */
  productForms: ProductForms;
  /**
   * The design's CSS custom properties and `@font-face` rules ('' when the site keeps today's look), the font files
   * worth preloading, and the favicon URL (src/core/design.ts).
   */
  design: { css: string; fontPreloads: string[]; favicon: string | null };
  /** `${collectionId}/${productSlug}` → the product without variants; null: no such product. */
  products: LruCache<string, Omit<Product, 'variants'> | null>;
}

/**
 * Reads a site version's shared data (four queries) as the storefront shows it at `liveAt` (its live pages), or as
 * staff see it with EVERYTHING (drafts included), for the edition `edition`.
 */
export async function loadSiteData(
  db: Kysely<Database>,
  site: Site,
  currency: CurrencyCode,
  liveAt: string,
  edition: string,
): Promise<SiteData> {
  const [pages, collections, imageSizes, forms] = await Promise.all([
    catalog.listPages(db, site.id, liveAt),
    catalog.listCollections(db, site.id),
    catalog.listImageSizes(db, site.id),
    catalog.listForms(db, site.id),
  ]);
  return {
    version: site.version,
    edition,
    pages,
    collections,
    chrome: {
      ...siteChrome(site, currency, pages, collections, imageSizes),
      promoPopup: promoPopupChrome(site, forms),
    },
    design: designData(site),
    labels: uiLabels(site.settings),
    images: { version: site.version, sizes: imageSizes },
    productForms: new Map(forms.map((f) => [f.id, toProductForm(f)])),
    products: new LruCache(PRODUCT_RECORDS_PER_SITE),
  };
}

/**
 * The version's data with `page` — a staff member's unsaved draft (/admin/pages' preview) — in place of the stored page
 * of its id: the navigation follows its title, URL and place in it. No promo popup over a preview.
 */
export function withDraftPage(data: SiteData, site: Site, page: Page): SiteData {
  const known = data.pages.some((p) => p.id === page.id);
  const pages = known ? data.pages.map((p) => (p.id === page.id ? page : p)) : [...data.pages, page];
  const chrome = siteChrome(site, data.chrome.currency, pages, data.collections, data.images.sizes ?? new Map());
  return { ...data, pages, chrome: { ...chrome, promoPopup: null } };
}

/** What a page's head says of the site's design: its CSS, the font files to preload, the favicon. */
function designData(site: Site): SiteData['design'] {
  const design = site.settings.design;
  return {
    css: designCss(design, fontUrl),
    fontPreloads: designFontFiles(design).map((f) => fontUrl(f.file)),
    favicon: design?.favicon
      ? imageUrl(assetUrl(site.id, design.favicon.file, site.version), thumbnailWidth(64))
      : null,
  };
}

/**
 * The version's data with the design of `drafted` — the site with a staff member's unsaved design (/admin/design's
 * preview) — in place of the stored one: the head's CSS and fonts, the favicon, the logo, menu and footer links. No
 * promo popup over a preview.
 */
export function withDraftDesign(data: SiteData, drafted: Site): SiteData {
  const chrome = siteChrome(
    drafted,
    data.chrome.currency,
    data.pages,
    data.collections,
    data.images.sizes ?? new Map(),
  );
  return { ...data, design: designData(drafted), chrome: { ...chrome, promoPopup: null } };
}

/** The site's promo popup with its form (none when the setting is absent or its form is gone). */
function promoPopupChrome(site: Site, forms: Form[]): PromoPopupChrome | null {
  const popup = site.settings.promoPopup;
  const form = popup && forms.find((f) => f.id === popup.formId);
  return popup && form ? { popup, form, selectValueLabel: uiLabels(site.settings).selectValue } : null;
}

/**
 * The header's title (or logo) and navigation, and the footer's links. Without a design menu the navigation is the
 * pages shown in navigation, with the collections (the shop, the blog); with one, exactly its pages and collections in
 * its order.
 */
function siteChrome(
  site: Site,
  currency: CurrencyCode,
  pages: Page[],
  collections: Collection[],
  imageSizes: ReadonlyMap<string, { width: number; height: number }>,
): SiteChrome {
  const design = site.settings.design;
  const logo = design?.logo;
  const logoSize = logo ? imageSizes.get(logo.file) : undefined;
  return {
    siteId: site.id,
    title: site.title,
    currency,
    nav: design?.menu ? designMenu(design.menu, pages, collections) : defaultNav(pages, collections),
    social: site.settings.social?.profiles ?? [],
    ...(logo
      ? {
          logo: {
            src: imageUrl(assetUrl(site.id, logo.file, site.version), thumbnailWidth(LOGO_DISPLAY_WIDTH)),
            alt: logo.altText,
            ...(logoSize ? { width: logoSize.width, height: logoSize.height } : {}),
          },
        }
      : {}),
    footerLinks: (design?.footerLinks ?? []).flatMap((link) => {
      if ('url' in link) return [{ href: link.url, title: link.label }];
      const page = pages.find((p) => p.id === link.page);
      return page ? [{ href: page.path, title: link.label }] : [];
    }),
  };
}

/** The logo is drawn at most this wide (CSS pixels, src/ui/styles.css .site-logo); its rendition covers 2x screens. */
const LOGO_DISPLAY_WIDTH = 480;

function defaultNav(pages: Page[], collections: Collection[]): SiteChrome['nav'] {
  const pageLinks = pages.filter((p) => p.showInNavigation).map((p) => ({ href: p.path, title: p.title }));
  const taken = new Set(pageLinks.map((l) => l.href));
  // Collections are pages of their own (the shop, the blog): linked unless a page already sits at their path.
  const collectionLinks = collections
    .filter((c) => c.type !== 'page' && !taken.has(`/${c.slug}`))
    .map((c) => ({ href: `/${c.slug}`, title: c.title }));
  const home = pageLinks.filter((l) => l.href === '/');
  const rest = pageLinks.filter((l) => l.href !== '/');
  return [...home, ...collectionLinks, ...rest];
}

/** The design's menu: each id a page or a product or blog collection (the import checked they exist). */
function designMenu(menu: readonly string[], pages: Page[], collections: Collection[]): SiteChrome['nav'] {
  return menu.flatMap((id) => {
    const page = pages.find((p) => p.id === id);
    if (page) return [{ href: page.path, title: page.title }];
    const collection = collections.find((c) => c.id === id && c.type !== 'page');
    return collection ? [{ href: `/${collection.slug}`, title: collection.title }] : [];
  });
}
