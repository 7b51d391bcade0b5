import { useEffect, useRef, useState } from 'react';
import { addToCartLabel, isSoldOut, type CoreProduct } from '../../core/product';
import { ADDED_POPOVER_CLOSE_LABEL, addedToCartPopoverText } from '../../core/cartPill';
import { buttonStateLabel } from '../../core/labels';
import { POPOVER_AUTO_DISMISS_MS, POPOVER_SHOW_DELAY_MS } from '../../core/timing';
import type { ProductForm } from '../../services/coreForm';
import type { UiLabels } from '../../ui/labels';
import { AlertDialog } from './AlertDialog';
import { ProductFormDialog } from './ProductFormDialog';
import { useAddToCart } from './useAddToCart';

export interface GridAddToCartProps {
  product: CoreProduct;
  labels: Pick<UiLabels, 'addToCart' | 'subscribe' | 'selectValue'>;
  /** The product's form (additionalFieldsFormId), filled in before the item is added; absent for most products. */
  form?: ProductForm;
}

/**
 * A product-list add button. Products without options add their one variant; with options, the button says
 * 'Select Option' for 2 s, highlighted and without an alert (§4, §5 rule 1); the card links to the product page.
 * On success the §2 popover appears 1 s later and leaves after 3 s or on Close.
 */
export function GridAddToCart({ product, labels, form }: GridAddToCartProps) {
  const [popover, setPopover] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const idleLabel = addToCartLabel(product, labels);
  const cart = useAddToCart({
    product,
    idleLabel,
    grid: true,
    form,
    onAdded: () => {
      timers.current.push(
        setTimeout(() => {
          setPopover(true);
          timers.current.push(setTimeout(() => setPopover(false), POPOVER_AUTO_DISMISS_MS));
        }, POPOVER_SHOW_DELAY_MS),
      );
    },
  });
  const soldOut = isSoldOut(product);
  const onlyVariant = product.variantOptions.length === 0 ? product.variants[0] : undefined;

  return (
    <>
      <button
        type="button"
        className={`button add-to-cart add-to-cart--${cart.state}`}
        disabled={soldOut}
        onClick={() => cart.add({ selection: onlyVariant ? { sku: onlyVariant.sku } : { attributes: {} } })}
      >
        {soldOut ? buttonStateLabel('sold-out', idleLabel) : cart.label}
        <span className="visually-hidden">: {product.name}</span>
      </button>
      <div className="added-popover-region" role="status" aria-live="polite">
        {popover ? (
          <div className="added-popover">
            <p>{addedToCartPopoverText(product.name)}</p>
            <button type="button" className="button button--small" onClick={() => setPopover(false)}>
              {ADDED_POPOVER_CLOSE_LABEL}
            </button>
          </div>
        ) : null}
      </div>
      {cart.alert ? <AlertDialog title={cart.alert.title} message={cart.alert.message} onClose={cart.closeAlert} /> : null}
      {form && cart.productForm.open ? (
        <ProductFormDialog form={form} selectValueLabel={labels.selectValue} onSave={cart.productForm.save} onClose={cart.productForm.close} />
      ) : null}
    </>
  );
}
