/**
 * The cookie-consent banner, shown when the site requires consent (site file `website.analytics.cookieConsent`) and
 * the visitor has not answered. Fixed at the bottom (it shifts nothing), a labelled region with two buttons;
 * the answer is kept for 390 days (§9's analytics identifier cookie). Accepting starts the census cookies at once.
 */
import { ANALYTICS_ID_COOKIE_MAX_AGE_MS } from '../../core/timing';
import { CONSENT_COOKIE, getCookie, setCookie } from './cookies';
import type { PageInfo } from './page';

export const CONSENT_TEXT = 'We use cookies to count visits and improve this shop. Is that all right with you?';

export function showConsentBanner(page: PageInfo, onAccept: () => void): void {
  if (page.census?.cookieConsent !== 'required' || getCookie(CONSENT_COOKIE) !== null) return;
  const banner = document.createElement('div');
  banner.className = 'consent-banner';
  banner.setAttribute('role', 'region');
  banner.setAttribute('aria-label', 'Cookie consent');
  const text = document.createElement('p');
  text.textContent = CONSENT_TEXT;
  const answer = (value: 'yes' | 'no') => {
    setCookie(CONSENT_COOKIE, value, ANALYTICS_ID_COOKIE_MAX_AGE_MS);
    banner.remove();
    if (value === 'yes') onAccept();
  };
  const button = (label: string, value: 'yes' | 'no') => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = value === 'yes' ? 'button consent-banner__accept' : 'button consent-banner__decline';
    b.textContent = label;
    b.addEventListener('click', () => answer(value));
    return b;
  };
  banner.append(text, button('Accept', 'yes'), button('Decline', 'no'));
  document.body.append(banner);
}
