import { useRef, useState, useSyncExternalStore } from 'react';
import { failureMessage } from '../../core/addToCartErrors';
import { CART_MESSAGES, isBelowMinimumSubtotal, minimumSubtotalMessage } from '../../core/cartPill';
import type { CurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { QUANTITY_MAX, QUANTITY_MIN, QUANTITY_STEP } from '../../core/quantity';
import { CHECKOUT_PATH } from '../../ui/checkout/paths';
import { QUANTITY_INPUT_ATTRIBUTES } from '../../ui/QuantityInput';
import { cartStore, type AddEntryResult, type CartLine } from '../cartStore';
import { AlertDialog } from './AlertDialog';
import { ProductType } from '../../core/enums';
import { isCartPayLaterEligible, type PayLaterContext } from '../../core/payLater';
import { PayLaterBadge } from '../payLater/PayLaterBadge';

export interface CartContentsProps {
  currency: CurrencyCode;
  /** Store setting: checkout needs at least this subtotal (minor units); 0 = none. */
  minimumSubtotal: number;
  quantityLabel: string;
  /** The store's pay-later context (§3), when its badge may show: the cart's when every item is physical (§5). */
  payLater?: PayLaterContext;
}

/** The cart as one pay-later item: only carts whose items are all physical qualify (§5). */
const PHYSICAL_CART = { productType: ProductType.PHYSICAL, isSubscribable: false } as const;

interface Alert {
  title: string;
  message: string;
}

/**
 * The cart page's list: the page itself is a cacheable shell, the visitor's lines are fetched by the store.
 * Each line can change its quantity (− / + or typed, sent on Enter or when the box loses focus) and be removed;
 * a refused change opens the §8 alert ('Unable to update quantity' / 'Unable to remove item') with the server's
 * text, and the line shows the cart as the server answered it.
 */
export function CartContents({ currency, minimumSubtotal, quantityLabel, payLater }: CartContentsProps) {
  const store = cartStore();
  const cart = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
  const [alert, setAlert] = useState<Alert | null>(null);
  const [status, setStatus] = useState('');
  const container = useRef<HTMLDivElement>(null);
  const money = (minorUnits: number) => formatMoney({ minorUnits, currency });

  const report = (title: string, result: AddEntryResult): boolean => {
    if (result.ok) return true;
    setAlert({ title, message: failureMessage(result.failure) });
    return false;
  };
  const changeQuantity = async (line: CartLine, quantity: string): Promise<boolean> => {
    const changed = report(CART_MESSAGES.unableToUpdateQuantity, await store.setQuantity(line.id, quantity));
    if (changed) setStatus(`${line.title}: ${quantityLabel} ${quantity.trim()}.`);
    return changed;
  };
  const remove = async (line: CartLine): Promise<boolean> => {
    const removed = report(CART_MESSAGES.unableToRemoveItem, await store.removeEntry(line.id));
    if (removed) {
      setStatus(`${line.title} removed.`);
      // The focused button is gone with its line: keep keyboard focus in the cart.
      container.current?.focus();
    }
    return removed;
  };

  const dialog = alert ? <AlertDialog title={alert.title} message={alert.message} onClose={() => setAlert(null)} /> : null;
  const announcer = (
    <p className="visually-hidden" role="status">
      {status}
    </p>
  );

  // Before the cart is known (on the server, and for a visitor without JavaScript) the way on is a plain link: the
  // checkout page itself says when the cart is empty or below the minimum.
  if (!cart.loaded) {
    return (
      <div className="cart-contents" aria-busy="true">
        <CheckoutLink />
      </div>
    );
  }
  if (cart.entries.length === 0) {
    return (
      <div className="cart-contents" ref={container} tabIndex={-1}>
        <p className="cart-empty">{CART_MESSAGES.emptyCart}</p>
        {announcer}
        {dialog}
      </div>
    );
  }
  const belowMinimum = isBelowMinimumSubtotal(cart.subtotalCents, minimumSubtotal);
  return (
    <div className="cart-contents" ref={container} tabIndex={-1}>
      <ul className="cart-lines">
        {cart.entries.map((line) => (
          // Keyed by line only: a line made anew after each change would drop the keyboard's focus to the page.
          <CartLineItem
            key={line.id}
            line={line}
            quantityLabel={quantityLabel}
            total={money(line.subtotalCents)}
            onQuantity={changeQuantity}
            onRemove={remove}
          />
        ))}
      </ul>
      <dl className="cart-summary">
        <dt>Subtotal</dt>
        <dd className="cart-summary__subtotal">{money(cart.subtotalCents)}</dd>
      </dl>
      {payLater !== undefined && isCartPayLaterEligible(cart.entries.map((line) => ({ productType: line.productType ?? -1 }))) ? (
        <PayLaterBadge product={PHYSICAL_CART} price={{ minorUnits: cart.subtotalCents, currency }} context={payLater} />
      ) : null}
      {belowMinimum ? (
        <>
          <p className="cart-minimum" id={MINIMUM_MESSAGE_ID}>
            {minimumSubtotalMessage({ minorUnits: minimumSubtotal, currency })}
          </p>
          {/* Not a link while the minimum is not reached; still focusable, so the reason is heard with it. */}
          <button type="button" className="button button--primary cart-checkout" aria-disabled="true" aria-describedby={MINIMUM_MESSAGE_ID}>
            {CHECK_OUT_LABEL}
          </button>
        </>
      ) : (
        <CheckoutLink />
      )}
      {announcer}
      {dialog}
    </div>
  );
}

const CHECK_OUT_LABEL = 'Check out';
const MINIMUM_MESSAGE_ID = 'cart-minimum-message';

function CheckoutLink() {
  return (
    <a className="button button--primary cart-checkout" href={CHECKOUT_PATH}>
      {CHECK_OUT_LABEL}
    </a>
  );
}

function CartLineItem({
  line,
  quantityLabel,
  total,
  onQuantity,
  onRemove,
}: {
  line: CartLine;
  quantityLabel: string;
  total: string;
  onQuantity: (line: CartLine, quantity: string) => Promise<boolean>;
  onRemove: (line: CartLine) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState(String(line.quantity));
  // The typed box starts again from the server's answer after every change (set while rendering, as React advises).
  const [answered, setAnswered] = useState(line.quantity);
  if (answered !== line.quantity) {
    setAnswered(line.quantity);
    setDraft(String(line.quantity));
  }
  const [busy, setBusy] = useState(false);
  // Set synchronously: a blur that follows Enter (the alert takes focus) must not send the same change twice.
  const pending = useRef(false);
  const inputId = `cart-quantity-${line.id}`;

  const run = async (work: () => Promise<boolean>) => {
    if (pending.current) return;
    pending.current = true;
    setBusy(true);
    // A refused change puts the box back to the quantity the cart really holds.
    if (!(await work())) setDraft(String(line.quantity));
    pending.current = false;
    setBusy(false);
  };
  // The buttons are aria-disabled, never disabled, while a change runs or at a limit: a disabled button would drop the
  // keyboard's focus to the page (run() ignores a press while one runs).
  const submit = (quantity: string) => {
    if (quantity.trim() === String(line.quantity)) return;
    void run(() => onQuantity(line, quantity));
  };

  return (
    <li className="cart-line" aria-busy={busy}>
      <div className="cart-line__main">
        <p className="cart-line__title">{line.title}</p>
        {Object.entries(line.attributes).map(([name, value]) => (
          <p className="cart-line__attribute" key={name}>
            {name}: {value}
          </p>
        ))}
        {line.answers.length > 0 ? (
          <dl className="cart-line__answers" aria-label={`Your answers for ${line.title}`}>
            {line.answers.map((answer, i) => (
              <div key={i}>
                <dt>{answer.title}</dt>
                <dd>{answer.lines.join(', ')}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </div>
      <div className="cart-line__quantity">
        <label htmlFor={inputId}>
          {quantityLabel}
          <span className="visually-hidden"> ({line.title})</span>
        </label>
        <div className="stepper">
          <button
            type="button"
            className="stepper__button"
            aria-label={`Decrease ${quantityLabel.toLowerCase()} of ${line.title}`}
            aria-disabled={busy || line.quantity <= QUANTITY_MIN}
            onClick={() => line.quantity > QUANTITY_MIN && submit(String(line.quantity - QUANTITY_STEP))}
          >
            −
          </button>
          <input
            id={inputId}
            className="stepper__input"
            {...QUANTITY_INPUT_ATTRIBUTES}
            value={draft}
            readOnly={busy}
            onChange={(e) => setDraft(e.currentTarget.value)}
            onBlur={() => submit(draft)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') submit(draft);
            }}
          />
          <button
            type="button"
            className="stepper__button"
            aria-label={`Increase ${quantityLabel.toLowerCase()} of ${line.title}`}
            aria-disabled={busy || line.quantity >= QUANTITY_MAX}
            onClick={() => line.quantity < QUANTITY_MAX && submit(String(line.quantity + QUANTITY_STEP))}
          >
            +
          </button>
        </div>
      </div>
      <p className="cart-line__total">{total}</p>
      <button type="button" className="button button--small cart-line__remove" aria-disabled={busy} onClick={() => void run(() => onRemove(line))}>
        Remove<span className="visually-hidden"> {line.title}</span>
      </button>
    </li>
  );
}
