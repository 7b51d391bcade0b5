import { ProductType } from './enums';

/** The storefront routes of spec §2. */
export const ROUTES = {
  cart: '/cart',
  gotoCheckout: '/commerce/goto-checkout',
  subscriptionCheckout: '/checkout/subscribe',
  giftCardCheckout: '/checkout/giftcard',
  search: '/search',
} as const;

export type PurchaseFlow = 'gift-card-checkout' | 'subscription-checkout' | 'express-checkout' | 'cart';

/**
 * §4: which way a successful add continues. Gift cards and subscriptions never enter the cart, so their own
 * checkouts win over the express-checkout button; everything else updates the cart and stays on the page.
 */
export function purchaseFlow(input: {
  productType: number;
  isSubscribable: boolean;
  expressCheckout?: boolean;
}): PurchaseFlow {
  if (input.productType === ProductType.GIFT_CARD) return 'gift-card-checkout';
  if (input.isSubscribable) return 'subscription-checkout';
  if (input.expressCheckout) return 'express-checkout';
  return 'cart';
}

export const subscriptionCheckoutUrl = (cartToken: string): string =>
  `${ROUTES.subscriptionCheckout}?cartToken=${encodeURIComponent(cartToken)}`;

export function giftCardCheckoutUrl(input: {
  websiteId: string;
  giftCardProductId: string;
  sku?: string | null;
}): string {
  const query = `websiteId=${encodeURIComponent(input.websiteId)}&giftCardProductId=${encodeURIComponent(input.giftCardProductId)}`;
  return `${ROUTES.giftCardCheckout}?${query}${input.sku ? `&sku=${encodeURIComponent(input.sku)}` : ''}`;
}

export type PurchaseRoute =
  | { flow: 'gift-card-checkout'; url: string }
  | { flow: 'subscription-checkout'; url: string }
  | { flow: 'express-checkout'; url: typeof ROUTES.gotoCheckout }
  /** Stay on the page and update the cart indicators; the URL is where the cart pill links. */
  | { flow: 'cart'; url: typeof ROUTES.cart };

export interface PurchaseRouteInput {
  productType: number;
  isSubscribable: boolean;
  expressCheckout?: boolean;
  websiteId: string;
  productId: string;
  sku?: string | null;
  /** From the subscription call's answer (§7). */
  cartToken?: string | null;
}

/**
 * Where the shopper goes after a successful add. A subscription answer without a cart token cannot reach its
 * checkout, so it yields null and the caller reports the subscription call as failed.
 */
export function purchaseRoute(input: PurchaseRouteInput): PurchaseRoute | null {
  const flow = purchaseFlow(input);
  switch (flow) {
    case 'gift-card-checkout':
      return {
        flow,
        url: giftCardCheckoutUrl({ websiteId: input.websiteId, giftCardProductId: input.productId, sku: input.sku }),
      };
    case 'subscription-checkout':
      return input.cartToken ? { flow, url: subscriptionCheckoutUrl(input.cartToken) } : null;
    case 'express-checkout':
      return { flow, url: ROUTES.gotoCheckout };
    default:
      return { flow: 'cart', url: ROUTES.cart };
  }
}
