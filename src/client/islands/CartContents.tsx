import { useRef, useState, useSyncExternalStore } from 'react';
import { failureMessage } from '../../core/addToCartErrors';
import { CART_MESSAGES, isBelowMinimumSubtotal, minimumSubtotalMessage } from '../../core/cartPill';
import type { CurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { QUANTITY_MAX, QUANTITY_MIN, QUANTITY_STEP } from '../../core/quantity';
import { CHECKOUT_PATH } from '../../ui/checkout/paths';
import { QUANTITY_INPUT_ATTRIBUTES } from '../../ui/QuantityInput';
import { cartStore, type AddEntryResult, type CartLine, type CartSnapshot } from '../cartStore';
import { AlertDialog } from './AlertDialog';
import { ProductType } from '../../core/enums';
import { isCartPayLaterEligible, type PayLaterContext } from '../../core/payLater';
import { PayLaterBadge } from '../payLater/PayLaterBadge';
import { CART_FORM_FIELDS, CART_REMOVE_PATH, CART_UPDATE_PATH, CONTINUE_SHOPPING_LABEL } from '../../ui/cartForms';
import { CRUMB_FIELD } from '../../core/crumb';

/** A line's product as the cart page shows it: its page and its first image as a thumbnail (none when it has none). */
export interface CartProductView {
  href: string;
  thumbnail?: { src: string; srcSet: string; width?: number; height?: number; position: string };
}

export interface CartContentsProps {
  currency: CurrencyCode;
  /** Store setting: checkout needs at least this subtotal (minor units); 0 = none. */
  minimumSubtotal: number;
  quantityLabel: string;
  /** The store's pay-later context (§3), when its badge may show: the cart's when every item is physical (§5). */
  payLater?: PayLaterContext;
  /** 'Continue shopping' and the empty cart lead here (the shop). */
  shopHref?: string;
  /**
   * The cart as the server read it for this page: the visitor's own lines (a page made for a visitor with a cart
   * cookie), or the empty cart (the cached page, sent only to visitors without one). Drawn until the store has the
   * cart, so there is no empty flash; until hydration with plain forms that work without JavaScript.
   */
  initialCart?: CartSnapshot;
  /** The visitor's crumb for those forms' hidden field (a placeholder the page route fills in). */
  crumb?: string;
  /** The lines' products (page and thumbnail) by item id. */
  products?: Readonly<Record<string, CartProductView>>;
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
export function CartContents({
  currency,
  minimumSubtotal,
  quantityLabel,
  payLater,
  shopHref = '/',
  initialCart,
  crumb,
  products = {},
}: CartContentsProps) {
  const store = cartStore();
  const known = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
  const cart = known.loaded || initialCart === undefined ? known : initialCart;
  // On the server and while hydrating: false, so the first drawing is the same on both sides (the plain forms).
  const hydrated = useSyncExternalStore(noSubscription, isBrowser, isServer);
  const plainForms = !hydrated && initialCart !== undefined && crumb !== undefined;
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

  const dialog = alert ? (
    <AlertDialog title={alert.title} message={alert.message} onClose={() => setAlert(null)} />
  ) : null;
  const announcer = (
    <p className="visually-hidden" role="status">
      {status}
    </p>
  );

  // Before the cart is known (a page drawn without the server's cart) the way on is a plain link: the checkout page
  // itself says when the cart is empty or below the minimum.
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
        <p className="cart-continue">
          <a className="button" href={shopHref}>
            {CONTINUE_SHOPPING_LABEL}
          </a>
        </p>
        {announcer}
        {dialog}
      </div>
    );
  }
  const belowMinimum = isBelowMinimumSubtotal(cart.subtotalCents, minimumSubtotal);
  return (
    <div className="cart-contents" ref={container} tabIndex={-1}>
      <ul className="cart-lines">
        {cart.entries.map((line) =>
          plainForms ? (
            <CartLineForms
              key={line.id}
              line={line}
              product={products[line.itemId]}
              quantityLabel={quantityLabel}
              total={money(line.subtotalCents)}
              crumb={crumb}
            />
          ) : (
            // Keyed by line only: a line made anew after each change would drop the keyboard's focus to the page.
            <CartLineItem
              key={line.id}
              line={line}
              product={products[line.itemId]}
              quantityLabel={quantityLabel}
              total={money(line.subtotalCents)}
              onQuantity={changeQuantity}
              onRemove={remove}
            />
          ),
        )}
      </ul>
      <dl className="cart-summary">
        <dt>Subtotal</dt>
        <dd className="cart-summary__subtotal">{money(cart.subtotalCents)}</dd>
      </dl>
      {payLater !== undefined &&
      isCartPayLaterEligible(cart.entries.map((line) => ({ productType: line.productType ?? -1 }))) ? (
        <PayLaterBadge
          product={PHYSICAL_CART}
          price={{ minorUnits: cart.subtotalCents, currency }}
          context={payLater}
        />
      ) : null}
      {belowMinimum ? (
        <>
          <p className="cart-minimum" id={MINIMUM_MESSAGE_ID}>
            {minimumSubtotalMessage({ minorUnits: minimumSubtotal, currency })}
          </p>
          {/* Not a link while the minimum is not reached; still focusable, so the reason is heard with it. */}
          <button
            type="button"
            className="button button--primary cart-checkout"
            aria-disabled="true"
            aria-describedby={MINIMUM_MESSAGE_ID}
          >
            {CHECK_OUT_LABEL}
          </button>
        </>
      ) : (
        <CheckoutLink />
      )}
      <p className="cart-continue">
        <a href={shopHref}>{CONTINUE_SHOPPING_LABEL}</a>
      </p>
      {announcer}
      {dialog}
    </div>
  );
}

const noSubscription = () => () => {};
const isBrowser = () => true;
const isServer = () => false;

const CHECK_OUT_LABEL = 'Check out';
const MINIMUM_MESSAGE_ID = 'cart-minimum-message';

function CheckoutLink() {
  return (
    <a className="button button--primary cart-checkout" href={CHECKOUT_PATH}>
      {CHECK_OUT_LABEL}
    </a>
  );
}

/** The line's thumbnail (a link to its product, left out of the tab order: the title links there too). */
function LineThumbnail({ product }: { product: CartProductView | undefined }) {
  const image = product?.thumbnail;
  if (!product || !image) return <span className="cart-line__thumb cart-line__thumb--none" aria-hidden="true" />;
  return (
    <a className="cart-line__thumb" href={product.href} tabIndex={-1} aria-hidden="true">
      <img
        src={image.src}
        srcSet={image.srcSet}
        sizes="4.5rem"
        width={image.width}
        height={image.height}
        alt=""
        loading="lazy"
        decoding="async"
        style={{ objectPosition: image.position }}
      />
    </a>
  );
}

/** What the line is: its product (linked to its page), the chosen options, the form's answers. */
function LineDescription({ line, product }: { line: CartLine; product: CartProductView | undefined }) {
  return (
    <div className="cart-line__main">
      <p className="cart-line__title">{product ? <a href={product.href}>{line.title}</a> : line.title}</p>
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
  );
}

/**
 * A line as drawn before the page's script runs (and for good without JavaScript): the quantity and the removal are
 * real forms posted to the server, which answers with the cart page again (src/modules/cart/pages/actions.ts).
 */
function CartLineForms({
  line,
  product,
  quantityLabel,
  total,
  crumb,
}: {
  line: CartLine;
  product: CartProductView | undefined;
  quantityLabel: string;
  total: string;
  crumb: string;
}) {
  const inputId = `cart-quantity-${line.id}`;
  const hidden = (
    <>
      <input type="hidden" name={CRUMB_FIELD} value={crumb} />
      <input type="hidden" name={CART_FORM_FIELDS.entryId} value={line.id} />
    </>
  );
  return (
    <li className="cart-line">
      <LineThumbnail product={product} />
      <LineDescription line={line} product={product} />
      <form className="cart-line__quantity" method="post" action={CART_UPDATE_PATH}>
        {hidden}
        <label htmlFor={inputId}>
          {quantityLabel}
          <span className="visually-hidden"> ({line.title})</span>
        </label>
        <div className="cart-line__update">
          <input
            id={inputId}
            name={CART_FORM_FIELDS.quantity}
            className="stepper__input"
            {...QUANTITY_INPUT_ATTRIBUTES}
            defaultValue={line.quantity}
            required
          />
          <button type="submit" className="button button--small">
            Update<span className="visually-hidden"> {`${quantityLabel.toLowerCase()} of ${line.title}`}</span>
          </button>
        </div>
      </form>
      <p className="cart-line__total">{total}</p>
      <form className="cart-line__remove-form" method="post" action={CART_REMOVE_PATH}>
        {hidden}
        <button type="submit" className="button button--small cart-line__remove">
          Remove<span className="visually-hidden"> {line.title}</span>
        </button>
      </form>
    </li>
  );
}

function CartLineItem({
  line,
  product,
  quantityLabel,
  total,
  onQuantity,
  onRemove,
}: {
  line: CartLine;
  product: CartProductView | undefined;
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
      <LineThumbnail product={product} />
      <LineDescription line={line} product={product} />
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
      <button
        type="button"
        className="button button--small cart-line__remove"
        aria-disabled={busy}
        onClick={() => void run(() => onRemove(line))}
      >
        Remove<span className="visually-hidden"> {line.title}</span>
      </button>
    </li>
  );
}
