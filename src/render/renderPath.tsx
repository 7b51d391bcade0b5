/**
 * Turns a site path into a rendered page: the first page kind of ./pageKinds.ts that takes the path loads exactly
 * the data the page needs (catalog reads) and gives its view, which is put in the site's frame (./document.ts).
 * Nothing here depends on the visitor, so the result is cached per (site, version, path) by the caller — unless the
 * page says it depends on the query (`cacheable: false`, the search).
 */
import { siteOrigin } from './pages/blogContext';
import type { Kysely } from 'kysely';
import type { ReactNode } from 'react';
import { parseCurrencyCode, DEFAULT_CURRENCY, type CurrencyCode } from '../core/currency';
import { truncate } from '../core/text';
import type { Database } from '../platform/db/tables';
import type { Site } from '../modules/site';
import { Layout } from '../ui/Layout';
import { FormPostContext, type FormPostState } from '../ui/formPost';
import { CaptchaContext } from '../ui/captchaContext';
import { captchaPolicySources, type CaptchaScriptUrls, type PolicySources } from '../core/forms/captcha';
import { SiteImagesContext, type SiteImages } from '../ui/ResponsiveImage';
import { renderDocument, type DocumentMeta } from './document';
import type { ClientAssets } from './manifest';
import { pageCensus } from './pageCensus';
import type { PageContent, PageRequest } from './pageKind';
import { PAGE_KINDS } from './pageKinds';
import { notFound } from './pages/notFound';
import { errorPage } from './pages/error';
import { FIRST_LOCK_SCREEN, lockScreen, type LockScreenState } from './pages/lockScreen';
import { PageType } from '../core/enums';
import { isLocked, type LockedPage } from '../modules/pageLocks';
import { loadSiteData, withDraftDesign, withDraftPage, type SiteData } from './siteData';
import type { Page } from '../modules/site';
import { loadBlockData } from './blockData';
import { EVERYTHING, liveEdition, utcTime } from '../core/publishing';
import { contentPageView } from './pages/content';

type Db = Kysely<Database>;

/** Meta descriptions longer than this are cut (search engines show about this much). */
const DESCRIPTION_MAX = 160;

const NO_QUERY: URLSearchParams = new URLSearchParams();

export interface RenderedHtml {
  status: number;
  html: string;
  /** False: the page depends on the address's query (the search): not to be cached per path. */
  cacheable?: boolean;
  /** Hosts its Content-Security-Policy must allow besides 'self': the site's third-party CAPTCHA (src/core/forms/captcha.ts). */
  policySources?: PolicySources;
  /** The products whose stock the page shows (PageRequest.shows): a change to one's stock drops the cached page. */
  productIds?: readonly string[];
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

/**
 * How a password-protected page is shown to this request (src/modules/pageLocks/pages/index.ts): `unlocked` when the
 * visitor's cookie opens it (protected content 105), else its lock screen (103) in this state. Every other page
 * ignores it.
 */
export type PageLockAccess = { unlocked: true } | ({ unlocked: false } & LockScreenState);

const LOCKED: PageLockAccess = { unlocked: false, ...FIRST_LOCK_SCREEN };

/** How a content page is made for this request rather than as it is for everyone (`PageRenderer.render`). */
export interface ContentPageMade {
  /**
   * The instant (ms) the page is made for: what is live then (issue 26). The page route gives the one its cache key
   * was made with (`storefrontEdition`), so a page kept under an edition shows exactly that edition. Default: now.
   */
  at?: number;
  query?: URLSearchParams;
  formPost?: FormPostState | null;
  lock?: PageLockAccess;
}

/** The site file's page at `path` when it asks for a password. */
const lockedPageAt = (data: SiteData, path: string): LockedPage | undefined => {
  const page = data.pages.find((p) => p.path === path);
  return page && isLocked(page) ? page : undefined;
};

/** The path a site's pages are known by: no trailing slash (except '/'), no query. */
export function canonicalPath(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/';
}

/**
 * The storefront's edition of `site` at `at` (ms): what its cached pages and shared data are kept under — its version,
 * and how many of its scheduled things have gone live since it was saved (src/core/publishing.ts `liveEdition`).
 */
export const storefrontEdition = (site: Pick<Site, 'version' | 'publishTimes'>, at: number): string =>
  liveEdition(site.version, site.publishTimes ?? [], at);

export class PageRenderer {
  /** Per site id, the data of the edition last rendered (loaded once per edition, shared by concurrent renders). */
  readonly #siteData = new Map<string, { edition: string; data: Promise<SiteData> }>();

  constructor(
    private readonly db: Db,
    private readonly assets: ClientAssets,
    /** Tests only: the third-party CAPTCHA scripts served by a local stand-in (src/core/forms/captcha.ts). */
    private readonly captchaScripts: CaptchaScriptUrls = {},
  ) {}

  /**
   * The site edition's shared data at `at`. The version comes from the site row read for this request, and an import
   * replaces the rows and bumps the version in one transaction, so data read now is at least that version's; within a
   * version, the edition changes when a scheduled thing goes live (then its pages are read again).
   */
  private siteData(site: Site, currency: CurrencyCode, at: number = Date.now()): Promise<SiteData> {
    const edition = storefrontEdition(site, at);
    const held = this.#siteData.get(site.id);
    if (held && held.edition === edition) return held.data;
    const data = loadSiteData(this.db, site, currency, utcTime(at), edition);
    const entry = { edition, data };
    this.#siteData.set(site.id, entry);
    data.catch(() => {
      if (this.#siteData.get(site.id) === entry) this.#siteData.delete(site.id);
    });
    return data;
  }

  /**
   * The content page at `path`, for everyone unless `made` says otherwise: `query`, the address's query, for the page
   * kinds that read one (the search); `formPost`, the outcome of a form posted without JavaScript, shown in that form,
   * and `lock`, how a password-protected page is shown (its lock screen unless the caller found the visitor's cookie
   * opens it) — a page then made for one visitor, never cached (./visitorPageKind.ts: `contentPage`).
   */
  async render(site: Site, path: string, made: ContentPageMade = {}): Promise<RenderedHtml> {
    const { formPost = null, query = NO_QUERY, lock = LOCKED, at = Date.now() } = made;
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    const data = await this.siteData(site, currency, at);
    const shown = new Set<string>();
    const shows = (products: readonly { id: string }[]) => products.forEach((p) => shown.add(p.id));
    const request: PageRequest = { db: this.db, site, currency, data, path, query, shows, liveAt: utcTime(at) };
    const locked = lockedPageAt(data, path);
    const content = locked && !lock.unlocked ? lockScreen(site, locked, lock) : await this.content(request);
    // A protected page's content is for the visitors its cookie opens it to: never cached, never indexed.
    const shownContent: PageContent =
      content === undefined
        ? notFound(site)
        : locked && lock.unlocked
          ? { ...content, pageType: PageType.PROTECTED_CONTENT, cacheable: false, noindex: true }
          : content;
    const rendered = this.frame(site, data, path, shownContent, formPost, content !== undefined && !locked);
    return shown.size === 0 ? rendered : { ...rendered, productIds: [...shown] };
  }

  /** The site file's page at `path` when it asks for a password (the page route then reads the visitor's cookie). */
  async lockedPage(site: Site, path: string, at: number = Date.now()): Promise<LockedPage | undefined> {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    return lockedPageAt(await this.siteData(site, currency, at), path);
  }

  /** The version's shared data as staff see it (drafts included): read for each preview, never kept. */
  private staffData(site: Site, currency: CurrencyCode): Promise<SiteData> {
    return loadSiteData(this.db, site, currency, EVERYTHING, 'staff');
  }

  /**
   * The storefront's page at `path` as a staff member sees it: drafts, pages, posts and products that need review and
   * scheduled ones included (issue 26: a preview link of a draft), a password-protected page shown open; never
   * cached, never indexed. The caller sends it to staff only. undefined when nothing is at `path` even so.
   */
  async renderPreview(site: Site, path: string): Promise<RenderedHtml | undefined> {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    const data = await this.staffData(site, currency);
    const request: PageRequest = {
      db: this.db,
      site,
      currency,
      data,
      path,
      query: NO_QUERY,
      shows: () => {},
      liveAt: EVERYTHING,
    };
    const content = await this.content(request);
    if (!content) return undefined;
    return this.frame(site, data, path, { ...content, cacheable: false, noindex: true }, null, false);
  }

  /**
   * `page` — a staff member's unsaved draft of a site-file page (/admin/pages' preview) — as the storefront would show
   * it at its path, in the site's frame with the draft in the navigation: open even when the page has a password (the
   * staff see what it protects), never cached, never indexed (no canonical). The caller sends it to staff only.
   */
  async renderDraft(site: Site, page: Page): Promise<RenderedHtml> {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    // As staff see the site (drafts included): a draft page's blocks may show other drafts (issue 26).
    const data = withDraftPage(await this.staffData(site, currency), site, page);
    const request: PageRequest = {
      db: this.db,
      site,
      currency,
      data,
      path: page.path,
      query: NO_QUERY,
      shows: () => {},
      liveAt: EVERYTHING,
    };
    const content = contentPageView(
      page,
      await loadBlockData(request, page),
      page.path === '/' ? site.title : page.title,
    );
    return this.frame(site, data, page.path, { ...content, cacheable: false, noindex: true }, null, false);
  }

  /**
   * The home page as the storefront would show it with `design` — a staff member's unsaved design (/admin/design's
   * preview) — in place of the stored one: its colours, fonts, buttons, logo, menu and footer. Never cached, never
   * indexed; the caller sends it to staff only.
   */
  async renderDesignDraft(site: Site, design: Site['settings']['design']): Promise<RenderedHtml> {
    const drafted: Site = { ...site, settings: { ...site.settings, design } };
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    const at = Date.now();
    const data = withDraftDesign(await this.siteData(site, currency, at), drafted);
    const request: PageRequest = {
      db: this.db,
      site: drafted,
      currency,
      data,
      path: '/',
      query: NO_QUERY,
      shows: () => {},
      // The home as visitors see it now: what is live (the design changes how it looks, not what is published).
      liveAt: utcTime(at),
    };
    const content = (await this.content(request)) ?? notFound(drafted);
    return this.frame(drafted, data, '/', { ...content, cacheable: false, noindex: true }, null, false);
  }

  /** The site's error page (page type 101, status 500) for the page at `path`, which failed to render. */
  async renderError(site: Site, path: string): Promise<RenderedHtml> {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    return this.frame(site, await this.siteData(site, currency), path, errorPage(site), null, false);
  }

  /**
   * `shown` in the site's frame: every page is put in it here, a content page (`canonical`: a page of its own address,
   * not a not-found, error or lock screen) and a page made for one visitor (`visitor`: ./visitorPageKind.ts).
   */
  private frame(
    site: Site,
    data: SiteData,
    path: string,
    shown: PageContent,
    formPost: FormPostState | null,
    canonical: boolean,
    visitor?: { noReferrer: boolean; assets: ClientAssets },
  ): RenderedHtml {
    const status = shown.status ?? 200;
    const meta: DocumentMeta = {
      // The home page is titled with the site's title alone; an error page at '/' says what it is; a page made for
      // one visitor always says what it is.
      title:
        shown.documentTitle ??
        (!visitor && ((canonical && path === '/') || shown.title === site.title)
          ? site.title
          : `${shown.title} — ${site.title}`),
      description: truncate(shown.description.replace(/\s+/g, ' ').trim() || site.title, DESCRIPTION_MAX),
      canonical: canonical ? canonicalUrl(site, path) : null,
      lang: site.settings.locale,
      ...(visitor ? {} : { image: shown.image ? siteOrigin(site) + shown.image : null }),
      noindex: !canonical || shown.noindex === true,
      ...(visitor ? { noReferrer: visitor.noReferrer } : {}),
      pageType: shown.pageType,
      census: pageCensus(site, shown.pageType, path, shown.census),
      designCss: data.design.css,
      fontPreloads: data.design.fontPreloads,
      favicon: data.design.favicon,
    };
    // A page made for one visitor (checkout, account, confirmations) is a task under way: no promo popup.
    const chrome = visitor ? { ...data.chrome, promoPopup: null } : data.chrome;
    const html = renderDocument(
      <SiteImagesContext value={data.images}>
        <CaptchaContext value={{ settings: site.settings.captcha, scriptUrls: this.captchaScripts }}>
          <FormPostContext value={formPost}>
            <Layout chrome={chrome} path={path}>
              {shown.body}
            </Layout>
          </FormPostContext>
        </CaptchaContext>
      </SiteImagesContext>,
      meta,
      visitor?.assets ?? this.assets,
    );
    // A visitor's page's Content-Security-Policy is read from its HTML alone (its forms use no third-party CAPTCHA).
    if (visitor) return { status, html };
    const policySources = captchaPolicySources(site.settings.captcha?.provider ?? 'altcha', this.captchaScripts);
    return shown.cacheable === false
      ? { status, html, cacheable: false, policySources }
      : { status, html, policySources };
  }

  /** The site's not-found page (page type 100). */
  async renderNotFound(site: Site, at?: number): Promise<RenderedHtml> {
    return this.render(site, '/\u0000not-found', at === undefined ? {} : { at });
  }

  /**
   * A page made for one visitor (./visitorPageKind.ts: checkout, order confirmed, account …) in the site's frame,
   * with `assets` (a page may load its own browser entry). Never cached by the caller; never indexed. `body` may be a
   * function of the site version's images, for islands that render image URLs in a root of their own.
   */
  async renderVisitorPage(site: Site, page: VisitorPage, assets: ClientAssets = this.assets): Promise<RenderedHtml> {
    const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
    const data = await this.siteData(site, currency);
    const shown: PageContent = {
      pageType: page.pageType,
      title: page.title,
      description: page.description,
      body: typeof page.body === 'function' ? page.body(data.images) : page.body,
      ...(page.status !== undefined ? { status: page.status } : {}),
    };
    return this.frame(site, data, page.path, shown, null, false, { noReferrer: page.noReferrer ?? false, assets });
  }

  /** The page of the first kind that takes the path; undefined: none has anything there. */
  private async content(request: PageRequest): Promise<PageContent | undefined> {
    for (const kind of PAGE_KINDS) {
      const resolved = kind.resolve(request);
      if (resolved !== null) return resolved;
    }
    return undefined;
  }
}

/** Absolute when the site has a domain; otherwise the path (a relative canonical is still valid). */
const canonicalUrl = (site: Site, path: string): string => siteOrigin(site) + path;
