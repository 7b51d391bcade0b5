/**
 * Commerce events of §7, to the same-site events endpoint (form-encoded event, crumb, JSON data). Prices are in cents
 * and divided by 100 (JPY: whole units, src/core/money.ts); a refusal logs §8's 'Error tracking event: HTTP Status
 * {code}' as a warning. VisitPDP and VisitPLP come from the page, AddToCart and RemoveFromCart from the cart store's
 * changes, ViewCart from the cart page, the purchase from the order page's stored order; other events (custom
 * product form, related products, reviews tab) arrive as `vitrine:analytics` DOM events from the islands.
 */
import { ANALYTICS_PATHS, trackingErrorWarning } from '../../core/analytics';
import { CRUMB_COOKIE, CRUMB_FIELD, readCookie } from '../../core/crumb';
import { parseCurrencyCode, DEFAULT_CURRENCY } from '../../core/currency';
import { toTrackingValue } from '../../core/money';
import type { CartSnapshot, CartStore } from '../cartStore';
import type { PageInfo } from './page';
import { postForm } from './send';

export async function sendCommerceEvent(event: string, data: Record<string, unknown>, page: PageInfo): Promise<void> {
  const crumb = readCookie(document.cookie, CRUMB_COOKIE) ?? '';
  const status = await postForm(ANALYTICS_PATHS.events, {
    event,
    [CRUMB_FIELD]: crumb,
    data: JSON.stringify({ websiteId: page.census?.websiteId, pagePath: page.path, pageType: page.pageType, ...data }),
  });
  if (status !== 200 && status !== 202) console.warn(trackingErrorWarning(status));
}

const price = (cents: number, currency: string): number =>
  toTrackingValue({ minorUnits: cents, currency: parseCurrencyCode(currency) ?? DEFAULT_CURRENCY });

export function startCommerce(page: PageInfo, cart?: CartStore, inSiteEditor = false): void {
  const send = (event: string, data: Record<string, unknown>) => void sendCommerceEvent(event, data, page);
  const census = page.census;
  const currency = census?.currency ?? DEFAULT_CURRENCY;

  if (census?.product) {
    const p = census.product;
    send('CommerceShopping_VisitPDP', {
      itemId: p.id,
      name: p.name,
      sku: p.sku,
      productType: p.productType,
      currency: p.currency,
      value: price(p.priceCents, p.currency),
    });
  }
  // §2: a collection of products is a product list page, except inside the site editor (its preview frames).
  // (A census names its collection on a collection page only, never on a product's page.)
  if (census?.collection && !inSiteEditor)
    send('CommerceShopping_VisitPLP', { collectionId: census.collection.id, title: census.collection.title });

  const purchase = document.querySelector<HTMLElement>('[data-purchase-event]')?.dataset.purchaseEvent;
  if (purchase && census?.shopPage === 'order-confirmed') {
    try {
      const event = JSON.parse(purchase) as { event: string } & Record<string, unknown>;
      send(event.event, event);
    } catch {
      // not readable: nothing to send
    }
  }

  document.addEventListener('vitrine:analytics', (event) => {
    // The server refuses names that are not §7's.
    const detail = (event as CustomEvent<{ event?: string; data?: Record<string, unknown> }>).detail;
    if (detail?.event) send(detail.event, detail.data ?? {});
  });
  // The islands' events reported before this module loaded are told now (src/client/track.ts, by name: no import).
  document.dispatchEvent(new Event('vitrine:measurement-ready'));

  if (!cart) return;
  let previous: CartSnapshot = cart.getSnapshot();
  let viewed = false;
  // A visitor without a cart has none loaded (§4): their first add starts from an empty cart.
  let adding = false;
  // Adds made in the quick view carry isQuickView (§3) when the cart shows them.
  const fromQuickView = new Set<string>();
  document.addEventListener('vitrine:adding-to-cart', (event) => {
    adding = true;
    const detail = (event as CustomEvent<{ itemId?: string; sku?: string; isQuickView?: boolean }>).detail;
    if (detail?.isQuickView) fromQuickView.add(`${detail.itemId}\u0000${detail.sku}`);
  });
  cart.subscribe(() => {
    const next = cart.getSnapshot();
    if (!previous.loaded && adding) previous = { loaded: true, totalQuantity: 0, subtotalCents: 0, entries: [] };
    adding = false;
    if (next.loaded && !viewed && census?.shopPage === 'cart') {
      viewed = true;
      send('CommerceShopping_ViewCart', {
        totalQuantity: next.totalQuantity,
        currency,
        value: price(next.subtotalCents, currency),
      });
    }
    if (previous.loaded && next.loaded) {
      const before = new Map(previous.entries.map((e) => [`${e.itemId}\u0000${e.sku}`, e]));
      const after = new Map(next.entries.map((e) => [`${e.itemId}\u0000${e.sku}`, e]));
      for (const key of new Set([...before.keys(), ...after.keys()])) {
        const line = after.get(key) ?? before.get(key)!;
        const delta = (after.get(key)?.quantity ?? 0) - (before.get(key)?.quantity ?? 0);
        if (delta === 0) continue;
        send(delta > 0 ? 'CommerceShopping_AddToCart' : 'CommerceShopping_RemoveFromCart', {
          itemId: line.itemId,
          sku: line.sku,
          name: line.title,
          quantity: Math.abs(delta),
          currency,
          price: price(line.unitPriceCents, currency),
          value: price(line.unitPriceCents * Math.abs(delta), currency),
          ...(delta > 0 && fromQuickView.delete(key) ? { isQuickView: true } : {}),
        });
      }
    }
    previous = next;
  });
}
