import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { escapeHtml } from '../core/html';
import type { ClientAssets } from './manifest';

export interface DocumentMeta {
  /** Full document title, e.g. 'Linen Shirt — Vitrine Demo'. */
  title: string;
  description: string;
  /** Absolute URL, or a site path when the site has no domain configured. */
  canonical?: string | null;
  /** BCP 47 language of the site, e.g. 'en-US'. */
  lang: string;
  /** Social preview image URL, if the page has one. */
  image?: string | null;
  /** True for error pages that search engines should not index (404), and for pages made for one visitor. */
  noindex?: boolean;
  /**
   * True when the page's address is a secret (an order page): links from it send no Referer. 'same-origin' (the
   * owner's area): no Referer to other sites, while its own forms keep their Origin — under 'no-referrer' a browser
   * sends `Origin: null` with a form's POST, which the crumb check refuses as another website's.
   */
  noReferrer?: boolean | 'same-origin';
  /** The numeric page type of spec §2 (checkout 201, order confirmed 202 …), on `<body data-page-type>` for scripts. */
  pageType?: number;
  /** What the measurement module needs of the page (./pageCensus.ts), on `<body data-census>` as JSON. */
  census?: object;
  /**
   * The site's design as CSS custom properties (src/core/design.ts `designCss`: hex colours and fixed values only, no
   * '<'), one `<style>` element after the stylesheets; the page's Content-Security-Policy allows it by its hash.
   */
  designCss?: string;
  /** Font files of the design worth fetching before the stylesheet asks for them (same origin, so no third party). */
  fontPreloads?: readonly string[];
  /** The site's favicon URL (its design); without one, no favicon request at all. */
  favicon?: string | null;
}

/** Renders the page body with React and wraps it in a full HTML document. */
export function renderDocument(body: ReactNode, meta: DocumentMeta, assets: ClientAssets): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    // No favicon request (and no 404 for it) until a site configures one.
    `<link rel="icon" href="${meta.favicon ? escapeHtml(meta.favicon) : 'data:,'}">`,
    meta.canonical ? `<link rel="canonical" href="${escapeHtml(meta.canonical)}">` : '',
    meta.noindex ? '<meta name="robots" content="noindex">' : '',
    meta.noReferrer
      ? `<meta name="referrer" content="${meta.noReferrer === 'same-origin' ? 'same-origin' : 'no-referrer'}">`
      : '',
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    meta.image ? `<meta property="og:image" content="${escapeHtml(meta.image)}">` : '',
    // Fonts are fetched in CORS mode, so their preload says `crossorigin` or the browser fetches them twice.
    ...(meta.fontPreloads ?? []).map(
      (href) => `<link rel="preload" href="${escapeHtml(href)}" as="font" type="font/woff2" crossorigin>`,
    ),
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    meta.designCss && !meta.designCss.includes('<') ? `<style>${meta.designCss}</style>` : '',
    ...assets.preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}" fetchpriority="low">`),
    ...assets.scripts.map((src) => `<script type="module" src="${escapeHtml(src)}" fetchpriority="low"></script>`),
  ]
    .filter(Boolean)
    .join('');
  return `<!doctype html><html lang="${escapeHtml(meta.lang)}"><head>${head}</head><body${meta.pageType !== undefined ? ` data-page-type="${meta.pageType}"` : ''}${meta.census ? ` data-census="${escapeHtml(JSON.stringify(meta.census))}"` : ''}>${renderToString(body)}</body></html>`;
}
