import { useEffect, useId, useState } from 'react';
import { buttonStateLabel } from '../../core/labels';
import { QUANTITY_INITIAL, isQuantityInputShown } from '../../core/quantity';
import { addToCartLabel, isSoldOut, isVariantSoldOut, type CoreProduct } from '../../core/product';
import { purchaseFlow } from '../../core/purchaseRoute';
import { purchaseFormTarget } from '../../core/siteEditor';
import { findVariantByAttributes, preselectedOptions } from '../../core/variant';
import type { UiLabels } from '../../ui/labels';
import { PriceBlock } from '../../ui/PriceBlock';
import { QuantityInput } from '../../ui/QuantityInput';
import { VariantSelectors, type VariantOptionView } from '../../ui/VariantSelectors';
import type { ProductForm } from '../../modules/cart';
import { LaterAlertDialog } from './LaterAlertDialog';
import { useAddToCart } from './useAddToCart';
import { publishVariantSelection } from '../variantSelection';
import { ADD_FORM_FIELDS, ADD_TO_CART_FORM_PATH } from '../../ui/addToCartForm';
import type { SubscriptionOption, SubscriptionPlan } from '../../core/subscriptionPlan';
import { purchasePriceCents } from '../../core/cartRules';
import type { CoreVariant } from '../../core/product';
import type { PayLaterContext } from '../../core/payLater';
import { DeferredPayLaterBadge, DeferredSubscriptionPrice } from './deferredParts';

export interface ProductPurchaseProps {
  product: CoreProduct;
  options: VariantOptionView[];
  labels: UiLabels;
  multipleQuantityAllowedForServices: boolean;
  /** Scarcity text decided by the server for the product as a whole (before a choice), or null. */
  scarcity: string | null;
  /** The scarcity text of each variant that has one (by sku), shown once the shopper chooses it (src/core/product.ts). */
  variantScarcity?: Record<string, string>;
  /** The product's form (additionalFieldsFormId), filled in before the item is added; absent for most products. */
  form?: ProductForm;
  /** The store offers express checkout (§2): a second button adds and goes straight to checkout. */
  expressCheckout?: boolean;
  /** The site's id, for the gift-card checkout's address (§2). */
  websiteId?: string;
  /** A subscription product's plan and options (§3), each option with its form when it has one. */
  subscription?: { plan: SubscriptionPlan; options: (SubscriptionOption & { form?: ProductForm })[] };
  /** The store's pay-later context (§3), sent only for a product that may show the badge (src/core/payLater.ts). */
  payLater?: PayLaterContext;
  /** Shown in the quick view (src/client/quickView): its adds say so (§3 isQuickView). */
  isQuickView?: boolean;
}

/** The express-checkout button's label (the spec shows none). */
export const EXPRESS_CHECKOUT_LABEL = 'Buy Now';

/** The detail page's buying area: price, variant selects, quantity, the add button and its alert. */
export function ProductPurchase({
  product,
  options,
  labels,
  multipleQuantityAllowedForServices,
  scarcity,
  variantScarcity,
  form: productForm,
  expressCheckout = false,
  websiteId,
  subscription,
  payLater,
  isQuickView = false,
}: ProductPurchaseProps) {
  const id = useId();
  // A single value leaves nothing to choose: preselect it.
  const [selected, setSelected] = useState<Record<string, string>>(() => preselectedOptions(options));
  // The restock form, another island, follows the choice (../variantSelection.ts).
  useEffect(() => publishVariantSelection(product.id, selected), [product.id, selected]);
  const [quantity, setQuantity] = useState(String(QUANTITY_INITIAL));
  // Chosen before this island hydrated: React keeps it on screen but not in its state, so it is read back once from
  // the page (the external system here), as hydrated.
  useEffect(() => {
    const value = (field: string) => (document.getElementById(`${id}-${field}`) as HTMLInputElement | null)?.value;
    const early = Object.fromEntries(
      options.map((o, i) => [o.name, value(`option-${i}`)]).filter((e) => e[1] && e[1] !== selected[e[0]!]),
    );
    /* eslint-disable react-hooks/set-state-in-effect */
    if (Object.keys(early).length) setSelected((s) => ({ ...s, ...early }));
    setQuantity((q) => value('quantity') || q);
    /* eslint-enable react-hooks/set-state-in-effect */
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // §3: a subscription's option (the first one chosen at first) brings its price, its form and its button text.
  const [optionId, setOptionId] = useState(subscription?.options[0]?.id ?? '');
  const option = subscription?.options.find((o) => o.id === optionId);
  const form = option?.form ?? productForm;
  const idleLabel = addToCartLabel(product, { addToCart: labels.addToCart, subscribe: labels.subscribe }, option);
  const cart = useAddToCart({
    product,
    idleLabel,
    form,
    isQuickView,
    ...(websiteId !== undefined ? { websiteId } : {}),
  });

  const variant = findVariantByAttributes(product, selected);
  const chosen = options.length > 0 && options.every((o) => selected[o.name]) ? variant : null;
  const soldOut = isSoldOut(product) || (chosen !== null && isVariantSoldOut(product, chosen));
  const notice = soldOut ? null : chosen ? (variantScarcity?.[chosen.sku] ?? null) : scarcity;
  const showQuantity = isQuantityInputShown(product, { multipleQuantityAllowedForServices });
  // Gift cards and subscriptions have checkouts of their own (§4): no express button for them.
  const showExpress =
    expressCheckout &&
    purchaseFlow({
      productType: product.productType,
      isSubscribable: product.isSubscribable,
      expressCheckout: true,
    }) === 'express-checkout';

  return (
    <>
      {/* A real form (src/ui/addToCartForm.ts): it adds without JavaScript too; with it, the submit is taken over here. */}
      <form
        className="purchase"
        aria-label="Purchase"
        method="post"
        action={ADD_TO_CART_FORM_PATH}
        // A gift card's checkout opens in the top window, even inside the site editor's frame (§2).
        target={purchaseFormTarget(product.productType)}
        onSubmit={(e) => {
          e.preventDefault();
          cart.add({
            selection: { attributes: selected },
            quantityInput: showQuantity ? quantity : undefined,
            ...(option ? { subscriptionOptionId: option.id } : {}),
          });
        }}
      >
        <input type="hidden" name={ADD_FORM_FIELDS.itemId} value={product.id} />
        {subscription ? (
          <DeferredSubscriptionPrice
            idPrefix={id}
            subscription={subscription}
            optionId={optionId}
            onChange={setOptionId}
            variant={chosen ?? (options.length === 0 ? variant : null) ?? product.variants[0] ?? null}
          />
        ) : (
          <PriceBlock product={product} variant={chosen ?? (options.length === 0 ? variant : null)} labels={labels} />
        )}
        {payLater !== undefined && !subscription ? (
          <DeferredPayLaterBadge
            product={product}
            price={payLaterPrice(product, chosen ?? (options.length === 0 ? variant : null))}
            context={payLater}
          />
        ) : null}
        {notice ? <p className="scarcity">{notice}</p> : null}
        <VariantSelectors
          idPrefix={id}
          options={options}
          selected={selected}
          invalid={cart.unselected}
          onChange={(name, value) => setSelected((s) => ({ ...s, [name]: value }))}
        />
        {showQuantity ? (
          <QuantityInput id={`${id}-quantity`} label={labels.quantity} value={quantity} onChange={setQuantity} />
        ) : null}
        <button
          type="submit"
          // Sold out, the add's states (an 'Added!' just before another variant was chosen) no longer apply.
          className={`button button--primary add-to-cart add-to-cart--${soldOut ? 'sold-out' : cart.state}`}
          disabled={soldOut}
          aria-disabled={cart.state === 'adding' || cart.state === 'added' || undefined}
        >
          {soldOut ? buttonStateLabel('sold-out', idleLabel) : cart.label}
        </button>
        {showExpress ? (
          // The form's second submit (without JavaScript it posts `express`); an input, so the add button stays the
          // form's one submit <button>.
          <input
            type="submit"
            name={ADD_FORM_FIELDS.express}
            value={EXPRESS_CHECKOUT_LABEL}
            className="button express-checkout"
            disabled={soldOut}
            onClick={(e) => {
              e.preventDefault();
              cart.add({
                selection: { attributes: selected },
                quantityInput: showQuantity ? quantity : undefined,
                expressCheckout: true,
              });
            }}
          />
        ) : null}
        <p className="visually-hidden" role="status" aria-live="polite">
          {cart.state === 'added' ? cart.label : ''}
        </p>
        {cart.alert ? (
          <LaterAlertDialog title={cart.alert.title} message={cart.alert.message} onClose={cart.closeAlert} />
        ) : null}
      </form>
      {/* Outside the purchase form: a form inside a form is not HTML, and its submit must not add without answers. */}
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

/** The price the pay-later badge splits: the chosen variant's, else the lowest the shopper could pay. */
function payLaterPrice(product: CoreProduct, shown: CoreVariant | null | undefined) {
  const candidates = shown ? [shown] : product.variants;
  const cents = candidates.map(purchasePriceCents);
  const first = candidates[0];
  return first ? { minorUnits: Math.min(...cents), currency: first.price.currency } : null;
}
