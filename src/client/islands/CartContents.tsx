import { useSyncExternalStore } from 'react';
import { CART_MESSAGES, isBelowMinimumSubtotal, minimumSubtotalMessage } from '../../core/cartPill';
import type { CurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { cartStore } from '../cartStore';

export interface CartContentsProps {
  currency: CurrencyCode;
  /** Store setting: checkout needs at least this subtotal (minor units); 0 = none. */
  minimumSubtotal: number;
  quantityLabel: string;
}

/** The cart page's list: the page itself is a cacheable shell, the visitor's lines are fetched by the store. */
export function CartContents({ currency, minimumSubtotal, quantityLabel }: CartContentsProps) {
  const store = cartStore();
  const cart = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
  const money = (minorUnits: number) => formatMoney({ minorUnits, currency });

  if (!cart.loaded) return <div className="cart-contents" aria-busy="true" />;
  if (cart.entries.length === 0) {
    return (
      <div className="cart-contents">
        <p className="cart-empty">{CART_MESSAGES.emptyCart}</p>
      </div>
    );
  }
  const belowMinimum = isBelowMinimumSubtotal(cart.subtotalCents, minimumSubtotal);
  return (
    <div className="cart-contents">
      <ul className="cart-lines">
        {cart.entries.map((line) => (
          <li className="cart-line" key={line.id}>
            <div className="cart-line__main">
              <p className="cart-line__title">{line.title}</p>
              {Object.entries(line.attributes).map(([name, value]) => (
                <p className="cart-line__attribute" key={name}>
                  {name}: {value}
                </p>
              ))}
            </div>
            <p className="cart-line__quantity">
              {quantityLabel}: {line.quantity}
            </p>
            <p className="cart-line__total">{money(line.subtotalCents)}</p>
          </li>
        ))}
      </ul>
      <dl className="cart-summary">
        <dt>Subtotal</dt>
        <dd className="cart-summary__subtotal">{money(cart.subtotalCents)}</dd>
      </dl>
      {belowMinimum ? <p className="cart-minimum">{minimumSubtotalMessage({ minorUnits: minimumSubtotal, currency })}</p> : null}
    </div>
  );
}
