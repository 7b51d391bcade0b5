/**
 * Turns a site path into a rendered page: loads exactly the data the page needs (catalog reads), then renders it.
 * Nothing here depends on the visitor, so the result is cached per (site, version, path) by the caller.
 */
import type { Kysely } from 'kysely';
import type { ReactNode } from 'react';
import { parseCurrencyCode, DEFAULT_CURRENCY, type CurrencyCode } from '../core/currency';
import { PageType, RecordType } from '../core/enums';
import { truncate } from '../core/text';
import { imageUrl } from '../core/images';
import { ROUTES } from '../core/purchaseRoute';
import type { Database } from '../db/tables';
import * as catalog from '../services/catalog';
import { toProductForm, productFormOf, type ProductForms } from '../services/coreForm';
import type { Site } from '../services/sites';
import type { Collection, Page, Product } from '../site/schema';
import type { BlockData } from '../ui/Blocks';
import { uiLabels, type UiLabels } from '../ui/labels';
import { Layout, type SiteChrome } from '../ui/Layout';
import { FormPostContext, type FormPostState } from '../ui/formPost';
import { BlogListPage, CartPage, ContentPage, NotFoundPage, PostView, ProductListPage } from '../ui/Pages';
import { ProductDetail } from '../ui/ProductDetail';
import { assetUrl, SiteImagesContext, type SiteImages } from '../ui/ResponsiveImage';
import { renderDocument, type DocumentMeta } from './document';
import { pageCensus, productListCensus, productPageCensus, type PageCensusFields } from './pageCensus';
import { LruCache } from './lru';
import type { ClientAssets } from './manifest';

type Db = Kysely<Database>;

/** Meta descriptions longer than this are cut (search engines show about this much). */
const DESCRIPTION_MAX = 160;

export interface RenderedHtml {
  status: number;
  html: string;
}

/** A page made for one visitor, for `PageRenderer.renderVisitorPage`. */
export interface VisitorPage {
  /** The site path (for the navigation's current link). */
  path: string;
  title: string;
  description: string;
  body: ReactNode | ((images: SiteImages) => ReactNode);
  /** 200 unless given. */
  status?: number;
  /** The address is a secret (an order page): `<meta name="referrer" content="no-referrer">`. */
  noReferrer?: boolean;
  /** The numeric page type of spec §2. */
  pageType: number;
}

interface Content {
  body: ReactNode;
  /** The page's census fields (./pageCensus.ts). */
  census?: PageCensusFields;
  /** The numeric page type of spec §2. */
  pageType: number;
  title: string;
  description: string;
  image?: string | null;
}

const firstText = (page: Page): string => {
  const block = page.blocks.find((b) => b.type === 'text');
  return block?.type === 'text' ? block.text : '';
};

/** Product records (without variants) kept per site version; a product page costs one query (its stock) after that. */
const PRODUCT_RECORDS_PER_SITE = 500;

/**
 * What a site version's pages share and only an import changes: the pages, the collections, the chrome (navigation)
 * and labels, and the product records already looked up. Stock (variants) is never kept: it changes with every sale.
 */
interface SiteData {
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

/** The path a site's pages are known by: no trailing slash (except '/'), no query. */
export function canonicalPath(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/';
}

export class PageRenderer {
  /** Per site id, the data of the version last rendered (loaded once per version, shared by concurrent renders). */
  readonly #siteData = new Map<string, { version: number; data: Promise<SiteData> }>();

  constructor(
    private readonly db: Db,
    private readonly assets: ClientAssets,
  ) {}

  /**
   * The site version's shared data. The version comes from the site row read for this request, and an import
   * replaces the rows and bumps the version in one transaction, so data read now is at least that version's.
   */
  private siteData(site: Site, currency: CurrencyCode): Promise<SiteData> {
    const held = this.#siteData.get(site.id);
    if (held && held.version === site.version) return held.data;
    const data = (async (): Promise<SiteData> => {
      const [pages, collections, imageSizes, forms] = await Promise.all([
        catalog.listPages(this.db, site.id),
        catalog.listCollections(this.db, site.id),
        catalog.listImageSizes(this.db, site.id),
        catalog.listForms(this.db, site.id),
      ]);
      return {
        version: site.version,
        pages,
        collections,
        chrome: this.chrome(site, currency, pages, collections),
        labels: uiLabels(site.settings),
        images: { version: site.version, sizes: imageSizes },
        productForms: new Map(forms.map((f) => [f.id, toProductForm(f)])),
        products: new LruCache(PRODUCT_RECORDS_PER_SITE),
      };
    })();
    const entry = { version: site.version, data };
    this.#siteData.set(site.id, entry);
    data.catch(() => {
      if (this.#siteData.get(site.id) === entry) this.#siteData.delete(site.id);
    });
    return data;
  }

  /** `formPost`: the outcome of a form posted without JavaScript, shown in that form (a page for one visitor, never cached). */
  async render(site: Site, path: string, formPost: FormPostState | null = null): Promise<RenderedHtml> {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    const data = await this.siteData(site, currency);
    const content = (await this.content(site, currency, path, data)) ?? null;
    const chrome = data.chrome;
    const status = content ? 200 : 404;
    const shown: Content = content ?? { body: <NotFoundPage />, pageType: PageType.NOT_FOUND, title: 'Page not found', description: site.title };
    const meta: DocumentMeta = {
      title: path === '/' || shown.title === site.title ? site.title : `${shown.title} — ${site.title}`,
      description: truncate(shown.description.replace(/\s+/g, ' ').trim() || site.title, DESCRIPTION_MAX),
      canonical: content ? canonicalUrl(site, path) : null,
      lang: site.settings.locale,
      image: shown.image ? siteOrigin(site) + shown.image : null,
      noindex: !content,
      pageType: shown.pageType,
      census: pageCensus(site, shown.pageType, path, shown.census),
    };
    const html = renderDocument(
      <SiteImagesContext value={data.images}>
        <FormPostContext value={formPost}>
          <Layout chrome={chrome} path={path}>
            {shown.body}
          </Layout>
        </FormPostContext>
      </SiteImagesContext>,
      meta,
      this.assets,
    );
    return { status, html };
  }

  /** The site's not-found page (page type 100). */
  async renderNotFound(site: Site): Promise<RenderedHtml> {
    return this.render(site, '/\u0000not-found');
  }

  /**
   * A page made for one visitor (checkout, order confirmed): the site's chrome around `page.body`, with `assets` (a
   * page may load its own browser entry). Never cached by the caller; never indexed. `body` may be a function of the
   * site version's images, for islands that render image URLs in a root of their own.
   */
  async renderVisitorPage(site: Site, page: VisitorPage, assets: ClientAssets = this.assets): Promise<RenderedHtml> {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    const data = await this.siteData(site, currency);
    const meta: DocumentMeta = {
      title: `${page.title} — ${site.title}`,
      description: truncate(page.description.replace(/\s+/g, ' ').trim() || site.title, DESCRIPTION_MAX),
      canonical: null,
      lang: site.settings.locale,
      noindex: true,
      noReferrer: page.noReferrer ?? false,
      pageType: page.pageType,
      census: pageCensus(site, page.pageType, page.path),
    };
    const body = typeof page.body === 'function' ? page.body(data.images) : page.body;
    const html = renderDocument(
      <SiteImagesContext value={data.images}>
        <Layout chrome={data.chrome} path={page.path}>
          {body}
        </Layout>
      </SiteImagesContext>,
      meta,
      assets,
    );
    return { status: page.status ?? 200, html };
  }

  private chrome(site: Site, currency: CurrencyCode, pages: Page[], collections: Collection[]): SiteChrome {
    const pageLinks = pages.filter((p) => p.showInNavigation).map((p) => ({ href: p.path, title: p.title }));
    const taken = new Set(pageLinks.map((l) => l.href));
    // Collections are pages of their own (the shop, the blog): linked unless a page already sits at their path.
    const collectionLinks = collections
      .filter((c) => c.type !== 'page' && !taken.has(`/${c.slug}`))
      .map((c) => ({ href: `/${c.slug}`, title: c.title }));
    const home = pageLinks.filter((l) => l.href === '/');
    const rest = pageLinks.filter((l) => l.href !== '/');
    return { siteId: site.id, title: site.title, currency, nav: [...home, ...collectionLinks, ...rest] };
  }

  private async content(site: Site, currency: CurrencyCode, path: string, siteData: SiteData): Promise<Content | undefined> {
    const { pages, collections, labels } = siteData;
    if (path === ROUTES.cart) {
      return {
        pageType: PageType.SHOW_CART,
        title: 'Cart',
        description: `Your cart at ${site.title}.`,
        body: <CartPage currency={currency} minimumSubtotal={site.settings.store.minimumSubtotal} quantityLabel={labels.quantity} />,
      };
    }
    const page = pages.find((p) => p.path === path);
    if (page) {
      return {
        pageType: page.pageType,
        census: { pageId: page.id },
        title: page.path === '/' ? site.title : page.title,
        description: firstText(page),
        body: (
          <ContentPage
            page={page}
            isHome={page.path === '/'}
            data={await this.blockData(site, currency, page, collections, labels, siteData.productForms)}
          />
        ),
      };
    }

    const [first, second, third, ...extra] = path.slice(1).split('/');
    const collection = first ? collections.find((c) => c.slug === first) : undefined;
    if (!collection || extra.length > 0) return undefined;

    if (collection.type === 'products') {
      if (second === undefined) {
        const products = await catalog.listProducts(this.db, site.id, collection.id);
        return {
          pageType: PageType.MAIN_CONTENT,
          census: productListCensus(collection),
          title: collection.title,
          description: `${collection.title} — ${products.map((p) => p.name).join(', ')}`,
          body: (
            <ProductListPage
              collection={collection}
              products={products}
              siteId={site.id}
              currency={currency}
              labels={labels}
              productForms={siteData.productForms}
            />
          ),
        };
      }
      if (second === 'p' && third) {
        const product = await this.product(site, siteData, collection, third);
        if (!product) return undefined;
        const image = product.images[0];
        return {
          pageType: PageType.CONTENT_ITEM,
          census: productPageCensus(product, collection, currency),
          title: product.name,
          description: product.description,
          image: image ? imageUrl(assetUrl(site.id, image.file, site.version), 1000) : null,
          body: (
            <ProductDetail
              product={product}
              collection={collection}
              siteId={site.id}
              currency={currency}
              labels={labels}
              multipleQuantityAllowedForServices={site.settings.store.multipleQuantityAllowedForServices}
              expressCheckout={site.settings.store.expressCheckout.enabled}
              form={productFormOf(product, siteData.productForms)}
              productForms={siteData.productForms}
            />
          ),
        };
      }
      return undefined;
    }

    if (collection.type === 'blog') {
      if (second === undefined) {
        const posts = await catalog.listPosts(this.db, site.id, collection.id);
        return {
          pageType: PageType.MAIN_CONTENT,
          title: collection.title,
          description: posts[0]?.excerpt ?? collection.title,
          body: <BlogListPage collection={collection} posts={posts} siteId={site.id} locale={site.settings.locale} />,
        };
      }
      if (third !== undefined) return undefined;
      const post = await catalog.getPostBySlug(this.db, site.id, collection.slug, second);
      if (!post) return undefined;
      return {
        pageType: PageType.CONTENT_ITEM,
        census: { itemId: post.id, collectionId: collection.id, recordType: RecordType.TEXT, contentSource: 'i' },
        title: post.title,
        description: post.excerpt || post.body,
        image: post.image ? imageUrl(assetUrl(site.id, post.image.file, site.version), 1000) : null,
        body: <PostView post={post} siteId={site.id} locale={site.settings.locale} />,
      };
    }
    return undefined;
  }

  /** The product at /{collection}/p/{slug} with its current variants: its record from the version's data, its stock read now. */
  private async product(site: Site, siteData: SiteData, collection: Collection, slug: string): Promise<Product | undefined> {
    const key = `${collection.id}/${slug}`;
    let record = siteData.products.get(key);
    if (record === undefined) {
      record = (await catalog.getProductRecordBySlug(this.db, site.id, collection.id, slug)) ?? null;
      siteData.products.set(key, record);
    }
    if (!record) return undefined;
    const variants = (await catalog.getVariants(this.db, site.id, [record.id])).get(record.id) ?? [];
    return { ...record, variants };
  }

  /** Loads what a page's blocks show, one query per referenced collection, product or form. */
  private async blockData(
    site: Site,
    currency: CurrencyCode,
    page: Page,
    collections: Collection[],
    labels: UiLabels,
    productForms: ProductForms,
  ): Promise<BlockData> {
    const data: BlockData = {
      siteId: site.id,
      currency,
      labels,
      collections: new Map(collections.map((c) => [c.id, c])),
      productsByCollection: new Map(),
      products: new Map(),
      forms: new Map(),
      productForms,
      postsByCollection: new Map(),
      formCaptcha: (site.settings.captcha?.provider ?? 'altcha') !== 'none',
    };
    const productIds: string[] = [];
    await Promise.all(
      page.blocks.map(async (block) => {
        switch (block.type) {
          case 'productGrid':
            data.productsByCollection.set(block.collectionId, await catalog.listProducts(this.db, site.id, block.collectionId));
            break;
          case 'product':
            productIds.push(block.productId);
            break;
          case 'form': {
            const form = await catalog.getForm(this.db, site.id, block.formId);
            if (form) data.forms.set(form.id, form);
            break;
          }
          case 'posts':
            data.postsByCollection.set(block.collectionId, await catalog.listPosts(this.db, site.id, block.collectionId, block.limit));
            break;
          default:
            break;
        }
      }),
    );
    const products: Product[] = await catalog.getProducts(this.db, site.id, productIds);
    products.forEach((p) => data.products.set(p.id, p));
    return data;
  }
}

/** The site's own origin from its first domain ('http' for local names), or '' (relative URLs) without one. */
function siteOrigin(site: Site): string {
  const domain = site.domains[0];
  if (!domain) return '';
  const local = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)(:\d+)?$/.test(domain);
  return `${local ? 'http' : 'https'}://${domain}`;
}

/** Absolute when the site has a domain; otherwise the path (a relative canonical is still valid). */
const canonicalUrl = (site: Site, path: string): string => siteOrigin(site) + path;
