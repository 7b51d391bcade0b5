import { useEffect, useRef, useState } from 'react';
import { addToCartLabel, isSoldOut, type CoreProduct } from '../../core/product';
import { ADDED_POPOVER_CLOSE_LABEL, addedToCartPopoverText } from '../../core/cartPill';
import { buttonStateLabel } from '../../core/labels';
import { isInSiteEditor, purchaseFormTarget } from '../../core/siteEditor';
import { POPOVER_AUTO_DISMISS_MS, POPOVER_SHOW_DELAY_MS } from '../../core/timing';
import type { ProductForm } from '../../modules/cart';
import { ADD_FORM_FIELDS, ADD_TO_CART_FORM_PATH } from '../../ui/addToCartForm';
import type { UiLabels } from '../../ui/labels';
import { trackEvent } from '../track';
import { LaterAlertDialog } from './LaterAlertDialog';
import { useAddToCart } from './useAddToCart';

export interface GridAddToCartProps {
  product: CoreProduct;
  labels: Pick<UiLabels, 'addToCart' | 'subscribe' | 'selectValue'>;
  /** The product's form (additionalFieldsFormId), filled in before the item is added; absent for most products. */
  form?: ProductForm;
  /** A related product's card (src/ui/RelatedProducts.tsx): the page's product, named by its §7 RelatedProductAdd event. */
  relatedTo?: string;
}

/**
 * A product-list add button. Products without options add their one variant; with options, the button says
 * 'Select Option' for 2 s, highlighted and without an alert (§4, §5 rule 1); the card links to the product page.
 * On success the §2 popover appears 1 s later and leaves after 3 s or on Close (not inside the site editor's frame,
 * where a collection page is not a product list page).
 * The button submits a real form (src/ui/addToCartForm.ts), so it adds without JavaScript too (the product page
 * then asks for what a card cannot); with JavaScript the submit is taken over here, and the item is added once.
 */
export function GridAddToCart({ product, labels, form, relatedTo }: GridAddToCartProps) {
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
      if (relatedTo !== undefined)
        trackEvent('CommerceShopping_RelatedProductAdd', {
          itemId: product.id,
          name: product.name,
          sourceItemId: relatedTo,
        });
      // §2: inside the site editor a collection page is not a product list page: no 'Added to cart' popover.
      if (isInSiteEditor(window.frameElement)) return;
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
      <form
        className="add-to-cart-form"
        method="post"
        action={ADD_TO_CART_FORM_PATH}
        target={purchaseFormTarget(product.productType)}
        onSubmit={(e) => {
          e.preventDefault();
          cart.add({ selection: onlyVariant ? { sku: onlyVariant.sku } : { attributes: {} } });
        }}
      >
        <input type="hidden" name={ADD_FORM_FIELDS.itemId} value={product.id} />
        {onlyVariant ? <input type="hidden" name={ADD_FORM_FIELDS.sku} value={onlyVariant.sku} /> : null}
        <button type="submit" className={`button add-to-cart add-to-cart--${cart.state}`} disabled={soldOut}>
          {soldOut ? buttonStateLabel('sold-out', idleLabel) : cart.label}
          <span className="visually-hidden">: {product.name}</span>
        </button>
      </form>
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
      {cart.alert ? (
        <LaterAlertDialog title={cart.alert.title} message={cart.alert.message} onClose={cart.closeAlert} />
      ) : null}
      {form && cart.productForm.open && cart.productForm.Dialog ? (
        <cart.productForm.Dialog
          form={form}
          selectValueLabel={labels.selectValue}
          onSave={cart.productForm.save}
          onClose={cart.productForm.close}
        />
      ) : null}
    </>
  );
}
