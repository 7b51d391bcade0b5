import type { ReactNode } from 'react';
import { isCartPillPlacedOn } from '../core/cartPill';
import { ROUTES } from '../core/purchaseRoute';
import type { CurrencyCode } from '../core/currency';
import { promoPopupAllowedOn } from '../core/promoPopup';
import { Island } from './Island';
import { PromoPopupMount, type PromoPopupChrome } from './PromoPopup';
import { SearchForm } from './SearchForm';
import { SocialProfiles, type SocialProfile } from './SocialProfiles';

export interface NavLink {
  href: string;
  title: string;
}

export interface SiteChrome {
  siteId: string;
  title: string;
  currency: CurrencyCode;
  nav: NavLink[];
  /** The shop's social profiles, linked in the footer (./SocialProfiles.tsx). */
  social?: readonly SocialProfile[];
  /** The site's promo popup, mounted on every page but the cart and checkout (./PromoPopup.tsx); none on visitor pages. */
  promoPopup?: PromoPopupChrome | null;
  /** The design's logo, shown instead of the title (the link to the home page says its alt text). */
  logo?: { src: string; alt: string; width?: number; height?: number };
  /** The design's footer links, in order (a site path or an https address). */
  footerLinks?: NavLink[];
}

const isCurrent = (href: string, path: string) =>
  href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`);

/** The phone header's menu button (the spec names none). */
export const MENU_LABEL = 'Menu';

/** The site's navigation: its links, then the cart. */
function SiteNav({ chrome, path, className }: { chrome: SiteChrome; path: string; className: string }) {
  return (
    <nav className={className} aria-label="Main">
      <ul>
        {chrome.nav.map((link) => (
          <li key={link.href}>
            <a href={link.href} aria-current={isCurrent(link.href, path) ? 'page' : undefined}>
              {link.title}
            </a>
          </li>
        ))}
        <li>
          <a href={ROUTES.cart} aria-current={path === ROUTES.cart ? 'page' : undefined}>
            Cart
          </a>
        </li>
      </ul>
    </nav>
  );
}

/**
 * Every page's frame: skip link, header with navigation, the search form (but on the search page, which has its own)
 * and the cart link and pill (not on the cart page and the checkout), the main landmark, footer.
 */
export function Layout({ chrome, path, children }: { chrome: SiteChrome; path: string; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="container site-header__inner">
          <a className={chrome.logo ? 'site-title site-logo' : 'site-title'} href="/">
            {chrome.logo ? (
              <img
                src={chrome.logo.src}
                alt={chrome.logo.alt}
                width={chrome.logo.width}
                height={chrome.logo.height}
                fetchPriority="high"
              />
            ) : (
              chrome.title
            )}
          </a>
          <SiteNav chrome={chrome} path={path} className="site-nav site-nav--wide" />
          {path === ROUTES.search ? null : <SearchForm id="site-search" label="Search this site" compact />}
          {/*
            Phones: the same links (and search) behind a menu button, a <details> disclosure: it opens by keyboard and
            works without JavaScript. Only one of the two navigations is displayed at a width (styles.css).
          */}
          <details className="site-menu">
            <summary className="site-menu__button">
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path
                  d="M4 7h16M4 12h16M4 17h16"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
              {MENU_LABEL}
            </summary>
            <div className="site-menu__panel">
              <SiteNav chrome={chrome} path={path} className="site-nav" />
              {path === ROUTES.search ? null : <SearchForm id="site-menu-search" label="Search this site" compact />}
            </div>
          </details>
          {isCartPillPlacedOn(path) ? (
            <Island name="CartPill" id="cart-pill" props={{ currency: chrome.currency }} />
          ) : null}
        </div>
      </header>
      <main id="main" className="container site-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="container">
          <SocialProfiles profiles={chrome.social ?? []} shopTitle={chrome.title} />
          {chrome.footerLinks?.length ? (
            <nav className="footer-links" aria-label="Footer">
              <ul>
                {chrome.footerLinks.map((link, i) => (
                  <li key={i}>
                    <a href={link.href}>{link.title}</a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <p>{chrome.title} · Powered by Vitrine</p>
        </div>
      </footer>
      {chrome.promoPopup && promoPopupAllowedOn(path) ? <PromoPopupMount chrome={chrome.promoPopup} /> : null}
    </>
  );
}

/** Plain text with blank-line paragraphs (site files carry text, not HTML). */
export function Paragraphs({ text, className }: { text: string; className?: string }) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className={className}>
      {paragraphs.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  );
}
