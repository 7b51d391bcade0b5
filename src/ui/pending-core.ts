/**
 * TEMPORARY: rules the UI needs that src/core/ does not offer yet. Each belongs in the core (pure, unit-tested);
 * the lead swaps these imports for the core's once it has them. Nothing here should outlive that swap.
 */

/** §2: the 'Added to cart' popover text on product list pages. (core: cartPill.ts or a popover module) */
export const addedToCartPopoverText = (productName: string): string => `${productName} was added to your cart.`;

/** Cookie values the §4 start-up rule reads. */
export interface CartLoadCookies {
  /** Raw SiteUserInfo cookie value (URL-encoded JSON with `authenticated`). */
  siteUserInfo?: string | null;
  hasCart?: string | null;
  /** Whether a cart cookie is visible (it is HttpOnly, so in a browser this is usually unknown: false). */
  cartCookie?: boolean;
}

/** §4: fetch the cart at page start only when signed in, hasCart is 'true', or a cart cookie exists. (core) */
export function shouldLoadCartAtStart(cookies: CartLoadCookies): boolean {
  if (cookies.hasCart === 'true' || cookies.cartCookie === true) return true;
  if (!cookies.siteUserInfo) return false;
  try {
    const info = JSON.parse(decodeURIComponent(cookies.siteUserInfo)) as { authenticated?: unknown };
    return info.authenticated === true || info.authenticated === 'true';
  } catch {
    return false;
  }
}

/**
 * §4 scarcity text: the product's template with {qty} filled in, shown only when stock is at or below the
 * threshold (the spec says a threshold exists without its value; the site file carries it). (core: product.ts)
 */
export function scarcityText(template: string, totalStock: number, threshold: number): string | null {
  if (!Number.isFinite(totalStock) || totalStock < 1 || totalStock > threshold) return null;
  return template.split('{qty}').join(String(totalStock));
}
