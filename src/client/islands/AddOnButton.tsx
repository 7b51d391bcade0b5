/**
 * An add-on's compact add button (spec §2 "add-on products", §4 "Add-on buttons use an adding-to-cart style and a plus
 * icon that turns into a checkmark"): a plus icon; 'Add...' (the compact adding label) in the adding style while the
 * request runs; a checkmark once added (§4's timings: 1 s later, for 2 s), then the plus again. Its name is
 * 'Add {product}'; a polite status says '{product} was added to your cart.'; a refusal shows §2's alert.
 *
 * It submits a real form (src/ui/addToCartForm.ts), so it adds without JavaScript too. Its code is not in the page's
 * main bundle: ./lazy.ts loads it when the browser is idle or the shopper reaches for it (src/ui/AddOns.tsx renders it
 * only for products with one variant and nothing to choose).
 */
import { useState } from 'react';
import { addedToCartPopoverText } from '../../core/cartPill';
import { buttonStateLabel } from '../../core/labels';
import type { CoreProduct } from '../../core/product';
import { addOnButtonName } from '../../core/relatedProducts';
import { ADD_FORM_FIELDS, ADD_TO_CART_FORM_PATH } from '../../ui/addToCartForm';
import { AlertDialog } from './AlertDialog';
import { useAddToCart } from './useAddToCart';

export interface AddOnButtonProps {
  product: CoreProduct;
}

/** The button's two icons, drawn with strokes in the text colour (no style attribute: the CSP allows none unhashed). */
function AddOnIcon({ added }: { added: boolean }) {
  return (
    <svg className="add-on__icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      {added ? <path d="M4 10.5l4 4 8-9" /> : <path d="M10 4v12M4 10h12" />}
    </svg>
  );
}

export function AddOnButton({ product }: AddOnButtonProps) {
  const [status, setStatus] = useState('');
  const name = addOnButtonName(product.name);
  const cart = useAddToCart({
    product,
    idleLabel: name,
    onAdded: () => setStatus(addedToCartPopoverText(product.name)),
  });
  const variant = product.variants[0];
  if (!variant) return null;
  return (
    <>
      <form
        className="add-to-cart-form"
        method="post"
        action={ADD_TO_CART_FORM_PATH}
        onSubmit={(e) => {
          e.preventDefault();
          setStatus('');
          cart.add({ selection: { sku: variant.sku } });
        }}
      >
        <input type="hidden" name={ADD_FORM_FIELDS.itemId} value={product.id} />
        <input type="hidden" name={ADD_FORM_FIELDS.sku} value={variant.sku} />
        <button
          type="submit"
          className={`add-on__button add-on__button--${cart.state}`}
          aria-label={name}
          aria-disabled={cart.state === 'adding' ? 'true' : undefined}
        >
          {cart.state === 'adding' ? (
            <span className="add-on__adding" aria-hidden="true">
              {buttonStateLabel('adding', name, true)}
            </span>
          ) : (
            <AddOnIcon added={cart.state === 'added'} />
          )}
        </button>
      </form>
      <span className="visually-hidden" role="status">
        {status}
      </span>
      {cart.alert ? (
        <AlertDialog title={cart.alert.title} message={cart.alert.message} onClose={cart.closeAlert} />
      ) : null}
    </>
  );
}
