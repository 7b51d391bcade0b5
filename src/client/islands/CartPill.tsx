import { useSyncExternalStore } from 'react';
import { cartPillView } from '../../core/cartPill';
import type { CurrencyCode } from '../../core/currency';
import { ROUTES } from '../../core/purchaseRoute';
import { cartStore } from '../cartStore';

export interface CartPillProps {
  currency: CurrencyCode;
}

/**
 * The floating cart pill (§2, §4): hidden while the cart is empty, else count and trimmed subtotal, linking to /cart;
 * inside the site editor's frame the editor makes it set the frame's URL (§2 routes; src/client/admin/editorFrames.ts).
 */
export function CartPill({ currency }: CartPillProps) {
  const store = cartStore();
  const cart = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
  const view = cartPillView(cart, currency);
  return (
    // The spoken label (§8) is the link's text for screen readers; the compact count is for the eye only. No
    // aria-label: an accessible name that differs from the visible text confuses voice control (WCAG 2.5.3).
    // Inside the site editor's frame the editor takes its click over (§2: src/client/admin/editorFrames.ts).
    <a href={ROUTES.cart} className={`cart-pill${view.shown ? ' cart-pill--shown' : ''}`} hidden={!view.shown}>
      <svg className="cart-pill__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M6 7h12l-1 13H7L6 7Zm3 0a3 3 0 0 1 6 0"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
      <span className="visually-hidden">{view.spokenLabel}, </span>
      <span className="cart-pill__count" aria-hidden="true">
        {view.count} {view.noun}
      </span>
      <span className="cart-pill__subtotal">{view.subtotal}</span>
    </a>
  );
}
