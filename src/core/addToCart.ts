import { ADD_TO_CART_MESSAGES, selectOptionsMessage, type AddToCartError } from './addToCartErrors';
import { isProductType, ProductType } from './enums';
import type { CoreProduct, CoreVariant } from './product';
import { parseQuantity, QUANTITY_INITIAL } from './quantity';
import { err, ok, type Result } from './result';
import { findVariantByAttributes, findVariantBySku, hasUnlimitedStockByType, unselectedOptions } from './variant';

/** Stock of one variant as the inventory call (or a locked database row) reports it (§3). */
export interface InventoryStock {
  unlimited: boolean;
  qtyInStock: number;
}

/** The browser sends the chosen option values; the server receives the SKU of the add-entry payload. */
export type VariantSelection =
  { attributes: Readonly<Record<string, string | undefined>> } | { sku: string | null | undefined };

export interface AddToCartInput {
  product: CoreProduct;
  selection: VariantSelection;
  /** The raw quantity field (string or number). Absent when no quantity input is shown: one unit. */
  quantityInput?: unknown;
  /** Units of the chosen variant already in the shopper's cart. */
  quantityInCart?: number;
  /** Fresher stock for the chosen variant than the product carries; the server passes its locked row. */
  stock?: InventoryStock | null;
  expressCheckout?: boolean;
  /** A cart cookie or a session exists (needed for express checkout). */
  hasCartCookieOrSession?: boolean;
}

export interface AddToCartAccepted {
  variant: CoreVariant;
  quantity: number;
}

const failure = (type: AddToCartError['type'], message: string, extra: Partial<AddToCartError> = {}) =>
  err<AddToCartError>({ type, message, ...extra });

/**
 * The ordered checks of §5, shared by the add button and the server: unselected options, unavailable variant,
 * stock, quantity, express checkout session. The first failing check is the answer.
 */
export function checkAddToCart(input: AddToCartInput): Result<AddToCartAccepted, AddToCartError> {
  const { product, selection } = input;

  const missing = missingOptions(product, selection);
  if (missing.length > 0) {
    const message =
      product.productType === ProductType.GIFT_CARD
        ? ADD_TO_CART_MESSAGES.selectGiftCardDenomination
        : selectOptionsMessage(missing);
    return failure('NO_VARIANT_SELECTED', message, { unselectedOptions: missing });
  }

  const variant =
    'sku' in selection
      ? findVariantBySku(product, selection.sku ?? '')
      : findVariantByAttributes(product, selection.attributes);
  if (!variant) return failure('VARIANT_UNAVAILABLE', ADD_TO_CART_MESSAGES.variantUnavailable);

  const quantity = parseQuantity(input.quantityInput === undefined ? QUANTITY_INITIAL : input.quantityInput);
  // Stock comes before quantity in the spec's order; a quantity that is not valid yet is counted as one unit here,
  // so the shopper first hears about stock only when not even one more unit is left.
  const requested = quantity.ok ? quantity.value : 1;
  if (!isInStock(product, input.stock ?? variant, input.quantityInCart, requested)) {
    return failure('OUT_OF_STOCK', ADD_TO_CART_MESSAGES.outOfStock);
  }

  if (!quantity.ok) {
    const { code, message } = quantity.error;
    const type =
      code === 'not-a-whole-number' && product.isSubscribable
        ? 'SUB_QUANTITY_NOT_A_WHOLE_NUMBER'
        : 'QUANTITY_NOT_A_NUMBER';
    return failure(type, message);
  }

  if (input.expressCheckout && !input.hasCartCookieOrSession) {
    return failure('EXPRESS_CHECKOUT_FAILURE', ADD_TO_CART_MESSAGES.expressCheckoutNoSession);
  }

  return ok({ variant, quantity: quantity.value });
}

function missingOptions(product: CoreProduct, selection: VariantSelection): string[] {
  if ('sku' in selection) {
    const blank = typeof selection.sku !== 'string' || selection.sku.trim() === '';
    return blank ? [...product.variantOptions] : [];
  }
  return unselectedOptions(product, selection.attributes ?? {});
}

/**
 * §5 says in stock means unlimited or qtyInStock above what is already in the cart. Read literally, a shopper with
 * nothing in the cart could add 5 when 3 are left. We apply the safe rule instead — already in the cart plus the
 * requested quantity must not exceed the stock — which is the literal rule when one unit is requested.
 * Unknown product types cannot be sold (§4 counts them as sold out).
 */
export function isInStock(
  product: Pick<CoreProduct, 'productType'>,
  stock: InventoryStock,
  quantityInCart: number | undefined,
  requested: number,
): boolean {
  if (!isProductType(product.productType)) return false;
  if (hasUnlimitedStockByType(product.productType) || stock.unlimited === true) return true;
  const available = Number.isFinite(stock.qtyInStock) ? Math.floor(stock.qtyInStock) : 0;
  const inCart =
    quantityInCart !== undefined && Number.isFinite(quantityInCart) && quantityInCart > 0 ? quantityInCart : 0;
  return inCart + requested <= available;
}
