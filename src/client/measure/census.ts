/**
 * Visitor census (spec §3, §4, §6): the visit-counter and session cookies (rules in src/core/visitorCookie.ts), the
 * page view (RecordHit with the §3 payload, skipped on not-found, lock-screen, member-area-denied pages and /search),
 * and the other census calls where their things happen. Failures are swallowed.
 */
import { ANALYTICS_PATHS, type CensusPayload } from '../../core/analytics';
import { SESSION_COOKIE_MAX_AGE_MS, VISIT_COOKIE_MAX_AGE_MS } from '../../core/timing';
import { nextVisit, serializeVisitCookie } from '../../core/visitorCookie';
import { CONSENT_COOKIE, deleteCookie, getCookie, SESSION_COOKIE, setCookie, VISIT_COOKIE } from './cookies';
import type { PageCensus } from '../../render/pageCensus';
import type { PageInfo } from './page';
import { postForm } from './send';

/** A random UUID (v4) in every context (crypto.randomUUID is missing outside secure ones: plain http on a LAN). */
const newId = (): string => {
  const url = URL.createObjectURL(new Blob());
  URL.revokeObjectURL(url);
  return url.slice(-36);
};

/** Consent to keep cookies: not asked for by the site, or given by the visitor. */
export const hasConsent = (page: PageInfo): boolean =>
  page.census?.cookieConsent !== 'required' || getCookie(CONSENT_COOKIE) === 'yes';

/** Applies §4 to this page: writes (or deletes) the cookies, returns the visit cookie value to send. */
export function visitorCookie(page: PageInfo, now = Date.now()): string {
  const decision = nextVisit({
    visitCookie: getCookie(VISIT_COOKIE),
    sessionCookie: getCookie(SESSION_COOKIE),
    now,
    newId,
    consent: hasConsent(page),
    cloneable: page.census?.cloneable === true,
  });
  if (decision.persisted) {
    setCookie(VISIT_COOKIE, decision.cookies.visit, VISIT_COOKIE_MAX_AGE_MS);
    setCookie(SESSION_COOKIE, decision.cookies.session, SESSION_COOKIE_MAX_AGE_MS);
  } else {
    deleteCookie(VISIT_COOKIE);
    deleteCookie(SESSION_COOKIE);
  }
  return serializeVisitCookie(decision.visit);
}

function localStorageSupported(): boolean {
  try {
    return typeof localStorage !== 'undefined';
  } catch {
    return false;
  }
}

/** The §3 census payload of this page: the page's own census fields, then what only the browser knows. */
export function censusPayload(page: PageInfo, visit: string): CensusPayload {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { cookieConsent, cloneable, pageView, shopPage, product, collection, currency, ...fields } =
    page.census ?? ({} as Partial<PageCensus>);
  return {
    ...fields,
    visitorCookie: visit,
    pageTitle: document.title,
    pagePath: page.path,
    userAgent: navigator.userAgent,
    clientDate: Date.now(),
    viewportWidth: innerWidth,
    viewportHeight: innerHeight,
    screenWidth: screen.width,
    screenHeight: screen.height,
    url: location.href,
    title: document.title,
    localStorageSupported: localStorageSupported(),
    queryString: location.search,
    referrer: document.referrer,
    ...(page.pageType !== null ? { pageType: page.pageType } : {}),
  };
}

export interface Census {
  /** The visit cookie value of this page (the same all page long). */
  visit: string;
  call(path: string, fields?: Record<string, string>): void;
}

/** Counts the page view (where §2 says so) and returns the census for the page's other calls. */
export function startCensus(page: PageInfo): Census {
  const visit = visitorCookie(page);
  const payload = censusPayload(page, visit);
  // The server decided it (§2's page types and /search): src/render/pageCensus.ts.
  if (page.census?.pageView) {
    void postForm(ANALYTICS_PATHS.recordHit, { event: 'RecordHit', data: JSON.stringify(payload), ss_cvr: visit });
  }
  const census: Census = {
    visit,
    call: (path, fields = {}) => void postForm(path, { data: JSON.stringify(payload), ss_cvr: visit, ...fields }),
  };
  wireCensusCalls(census);
  return census;
}

/** button-render / button-click for marked buttons, form-render for form blocks, overlay and quick view on their events. */
function wireCensusCalls(census: Census): void {
  const buttons = document.querySelectorAll<HTMLElement>('[data-census-button]');
  buttons.forEach((b) => census.call(ANALYTICS_PATHS.buttonRender, { buttonId: b.dataset.censusButton ?? '' }));
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLElement>('[data-census-button]');
    if (button) census.call(ANALYTICS_PATHS.buttonClick, { buttonId: button.dataset.censusButton ?? '' });
  });
  document
    .querySelectorAll<HTMLElement>('[data-form-id]')
    .forEach((f) =>
      census.call(ANALYTICS_PATHS.formRender, { formId: f.dataset.formId ?? '', visitorCookie: census.visit }),
    );
  document.addEventListener('vitrine:overlay', () => census.call(ANALYTICS_PATHS.overlay));
  document.addEventListener('vitrine:quick-view', (event) => {
    const id = (event as CustomEvent<{ itemId?: string }>).detail?.itemId;
    if (id) void postForm(`${ANALYTICS_PATHS.recordQuickView}/${encodeURIComponent(id)}`, {});
  });
}
