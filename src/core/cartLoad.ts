/** §4: whether the storefront fetches the visitor's cart when a page starts. */

/** Cookie values the §4 start-up rule reads. */
export interface CartLoadCookies {
  /** Raw SiteUserInfo cookie value (URL-encoded JSON with `authenticated`). */
  siteUserInfo?: string | null;
  hasCart?: string | null;
  /** Whether a cart cookie is visible (it is HttpOnly, so in a browser this is usually unknown: false). */
  cartCookie?: boolean;
}

/** Reads `authenticated` from a SiteUserInfo cookie value; anything unreadable counts as signed out. */
export function isSignedIn(siteUserInfo: string | null | undefined): boolean {
  if (!siteUserInfo) return false;
  try {
    const info = JSON.parse(decodeURIComponent(siteUserInfo)) as { authenticated?: unknown } | null;
    return info?.authenticated === true || info?.authenticated === 'true';
  } catch {
    return false;
  }
}

/** §4: fetch the cart at page start only when signed in, hasCart is 'true', or a cart cookie exists. */
export const shouldLoadCartAtStart = (cookies: CartLoadCookies): boolean =>
  cookies.hasCart === 'true' || cookies.cartCookie === true || isSignedIn(cookies.siteUserInfo);
