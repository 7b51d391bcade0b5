/**
 * An add-to-cart form posted without JavaScript (src/ui/addToCartForm.ts): the same purchase routes (§4) and the same
 * checks (§5) as the islands and the JSON cart API, through the same services — the cart's `addEntry` (cart cookie,
 * quantity, variant, stock, all checked again inside its transaction), the subscription cart, the gift-card checkout.
 * What only a script can do otherwise is done with pages: a product with a custom form gets its form as a page (the
 * stock and the other checks first, as §4 asks) and is added only with valid answers, never without them.
 */
import type { Kysely } from 'kysely';
import { checkAddToCart, type VariantSelection } from '../../core/addToCart';
import type { AddToCartError } from '../../core/addToCartErrors';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { ProductType } from '../../core/enums';
import { checkProductFormAnswers } from '../../core/forms/productForm';
import { giftCardCheckoutUrl, purchaseFlow, subscriptionCheckoutUrl } from '../../core/purchaseRoute';
import { findVariantByAttributes, findVariantBySku } from '../../core/variant';
import type { Database } from '../../platform/db/tables';
import type { Product } from '../site';
import { addEntry, getCart, type CartSite } from './cart';
import { getForm, getProduct } from '../catalog';
import { toProductForm, type ProductForm } from './coreForm';
import { toCoreProduct } from '../catalog';
import { productSubscription, subscriptionFormId } from '../subscriptions';
import { createSubscriptionCart } from '../subscriptions';

export interface AddFromFormInput {
  itemId: string;
  /** The variant's SKU (a product without options, or the product-form page's pending add). */
  sku: string | null;
  /** The chosen option values by option name (a detail page's selects); null when the page had none (a grid card). */
  attributes: Readonly<Record<string, string>> | null;
  /** The quantity input's text; undefined when the page had none (one unit). */
  quantity: string | undefined;
  subscriptionOptionId: string | null;
  /** The express-checkout button was used. */
  express: boolean;
  /** The product form's answers (field id → raw value), when posted from the product-form page; else undefined. */
  answers?: (form: ProductForm) => Record<string, unknown>;
}

/** The add waiting for a product form's answers: what the product-form page carries back. */
export interface PendingAdd {
  itemId: string;
  sku: string;
  quantity: string | undefined;
  subscriptionOptionId: string | null;
  express: boolean;
}

export type AddFromFormOutcome =
  | { kind: 'not-found' }
  /** Added to the visitor's cart (`token`: the cart's, new when the add made it); express: go to checkout. */
  | { kind: 'added'; product: Product; token: string; express: boolean }
  /**
   * A §5 refusal (or the subscription call's). `choose`: options are still to choose and the page had no selectors
   * (a grid card), so the shopper is sent to the product page to choose them.
   */
  | { kind: 'refused'; product: Product; error: Pick<AddToCartError, 'message' | 'unselectedOptions'>; choose: boolean }
  /** The product's form is needed (first time, or answers refused: per-field messages and one line). */
  | {
      kind: 'form';
      product: Product;
      form: ProductForm;
      pending: PendingAdd;
      errors: Record<string, string>;
      message: string | null;
    }
  /** Gift cards and subscriptions go to their own checkouts (§4). */
  | { kind: 'checkout'; url: string };

export async function addFromForm(
  db: Kysely<Database>,
  site: CartSite,
  cartToken: string | undefined,
  input: AddFromFormInput,
): Promise<AddFromFormOutcome> {
  const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
  const product = await getProduct(db, site.id, input.itemId);
  if (!product) return { kind: 'not-found' };
  const core = toCoreProduct(product, currency);
  const subscription = productSubscription(product, currency);
  const selection: VariantSelection = input.sku !== null ? { sku: input.sku } : { attributes: input.attributes ?? {} };
  const chosen =
    'sku' in selection
      ? findVariantBySku(core, selection.sku ?? '')
      : findVariantByAttributes(core, selection.attributes);
  const refused = (
    error: Pick<AddToCartError, 'message' | 'unselectedOptions'>,
    type?: string,
  ): AddFromFormOutcome => ({
    kind: 'refused',
    product,
    error,
    choose: type === 'NO_VARIANT_SELECTED' && input.attributes === null && input.sku === null,
  });

  // §5 first, as the islands check before anything else: what the cart already holds counts (not for a subscription,
  // which has a cart of its own). The cart's add checks all of it again inside its transaction.
  const inCart =
    chosen && !core.isSubscribable && cartToken ? await quantityInCart(db, site, cartToken, chosen.sku) : 0;
  const checked = checkAddToCart({ product: core, selection, quantityInput: input.quantity, quantityInCart: inCart });
  if (!checked.ok) return refused(checked.error, checked.error.type);
  const { variant } = checked.value;

  if (core.productType === ProductType.GIFT_CARD) {
    return {
      kind: 'checkout',
      url: giftCardCheckoutUrl({ websiteId: site.id, giftCardProductId: product.id, sku: variant.sku }),
    };
  }

  const option = subscription
    ? (subscription.options.find((o) => o.id === (input.subscriptionOptionId ?? subscription.options[0]?.id)) ?? null)
    : null;
  const formId = subscription ? subscriptionFormId(product, option ?? undefined) : product.additionalFieldsFormId;
  const stored = formId === undefined ? undefined : await getForm(db, site.id, formId);
  const form = stored ? toProductForm(stored) : undefined;
  const pending: PendingAdd = {
    itemId: product.id,
    sku: variant.sku,
    quantity: input.quantity,
    subscriptionOptionId: option?.id ?? input.subscriptionOptionId,
    express: input.express,
  };
  const needsForm = (errors: Record<string, string> = {}, message: string | null = null): AddFromFormOutcome => ({
    kind: 'form',
    product,
    form: form!,
    pending,
    errors,
    message,
  });

  let additionalFields = '';
  if (form) {
    // §4: the form opens only once the checks above passed; an add is never made without its answers.
    if (!input.answers) return needsForm();
    const answers = checkProductFormAnswers(form, input.answers(form));
    if (!answers.ok) return needsForm(answers.error.fields, answers.error.message);
    additionalFields = answers.value;
  }

  if (subscription) {
    const result = await createSubscriptionCart(db, site, {
      itemId: product.id,
      sku: variant.sku,
      qty: input.quantity,
      additionalFields,
      subscriptionOptionId: pending.subscriptionOptionId ?? undefined,
    });
    if (result.ok) return { kind: 'checkout', url: subscriptionCheckoutUrl(result.value.cartToken) };
    if (result.error.type === 'INVALID_FORM_ANSWERS' && form)
      return needsForm(result.error.fields, result.error.message);
    if (result.error.type === 'PRODUCT_NOT_FOUND') return { kind: 'not-found' };
    return refused(result.error, result.error.type);
  }

  const added = await addEntry(db, site, cartToken, {
    itemId: product.id,
    sku: variant.sku,
    quantity: input.quantity,
    additionalFields,
  });
  if (!added.ok) {
    const failure = added.error;
    if (failure.type === 'PRODUCT_NOT_FOUND') return { kind: 'not-found' };
    if (failure.type === 'INVALID_FORM_ANSWERS')
      return form ? needsForm(failure.fields, failure.message) : refused({ message: failure.message });
    if (failure.type === 'ENTRY_NOT_FOUND') return { kind: 'not-found' };
    return refused(failure, failure.type);
  }
  const express =
    input.express &&
    purchaseFlow({ productType: core.productType, isSubscribable: core.isSubscribable, expressCheckout: true }) ===
      'express-checkout';
  return { kind: 'added', product, token: added.value.token, express };
}

async function quantityInCart(db: Kysely<Database>, site: CartSite, token: string, sku: string): Promise<number> {
  const cart = await getCart(db, site, token);
  return cart.entries.filter((e) => e.chosenVariant.sku === sku).reduce((sum, e) => sum + e.quantity, 0);
}
