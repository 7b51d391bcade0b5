/**
 * The measurement module (issue 11): census, commerce events, performance records, the error reporter and the consent
 * banner. Its own small chunk, imported by src/client/main.tsx once the page has loaded and the browser is idle:
 * nothing of it is in the page's first render. Uncaught errors are caught from the page's start by ./catchErrors.ts.
 */
import type { CartStore } from '../cartStore';
import { startCensus, visitorCookie } from './census';
import { startCommerce } from './commerce';
import { CONSENT_COOKIE, getCookie } from './cookies';
import { readPage } from './page';
import { startVitals } from './vitals';

export function startMeasurement(options: {
  cart?: CartStore | undefined;
  loadedAt?: number;
  /** Inside the site editor's frame (§2): a collection page is not a product list page there. */
  inSiteEditor?: boolean;
}): void {
  const page = readPage();
  startVitals(page, options.loadedAt);
  startCensus(page);
  startCommerce(page, options.cart, options.inSiteEditor === true);
  // The banner's code loads only where the site asks for consent and the visitor has not answered.
  if (page.census?.cookieConsent === 'required' && getCookie(CONSENT_COOKIE) === null) {
    void import('./consent').then((m) => m.showConsentBanner(page, () => visitorCookie(page)));
  }
}
