/**
 * What opens a custom product form (spec §4 "Items with a custom form": stock is checked first; the form opens only
 * when stock is enough). The stock is asked of the inventory call (§7) at the moment of the click, not read from the
 * page, which may be older than the last sale. A chunk of its own with the dialog: loaded at the first add of a
 * product with a form, so pages whose shoppers never open one never load either.
 */
import { isInStock } from '../../core/addToCart';
import {
  ADD_TO_CART_MESSAGES,
  failureMessage,
  type AddRequestFailure,
  type AddToCartError,
} from '../../core/addToCartErrors';
import { INVENTORY_STOCK_PATH, stockOfVariant } from '../../core/inventory';
import type { CoreProduct } from '../../core/product';

export { ProductFormDialog } from './ProductFormDialog';

/** The inventory call's answer for one product, or why it failed (the §8 texts come from the core). */
export async function fetchInventoryStock(
  itemId: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ ok: true; answer: unknown } | { ok: false; failure: AddRequestFailure }> {
  let response: Response;
  try {
    response = await fetchImpl(`${INVENTORY_STOCK_PATH}?itemId=${encodeURIComponent(itemId)}`, {
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    return { ok: false, failure: { kind: 'network' } };
  }
  let answer: unknown = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (!response.ok) {
    const message =
      typeof answer === 'object' && answer !== null ? (answer as { message?: unknown }).message : undefined;
    return {
      ok: false,
      failure: { kind: 'http', status: response.status, serverMessage: typeof message === 'string' ? message : null },
    };
  }
  return { ok: true, answer };
}

/**
 * Whether the form may open for `quantity` more units of the variant `sku`, counting those already in the cart: the
 * §5 sold-out text when stock is not enough (tracked as CUSTOM_FORM_RENDER_ERROR_OUT_OF_STOCK), the §8 text of a
 * failed call otherwise (CUSTOM_FORM_RENDER_ERROR).
 */
export async function checkStockBeforeForm(
  input: { product: Pick<CoreProduct, 'id' | 'productType'>; sku: string; quantity: number; quantityInCart: number },
  fetchImpl: typeof fetch = fetch,
): Promise<{ ok: true } | { ok: false; error: AddToCartError }> {
  const stock = await fetchInventoryStock(input.product.id, fetchImpl);
  if (!stock.ok)
    return { ok: false, error: { type: 'CUSTOM_FORM_RENDER_ERROR', message: failureMessage(stock.failure) } };
  const variant = stockOfVariant(stock.answer, input.product.id, input.sku);
  // A variant the answer does not hold was removed since the page was made.
  if (!variant)
    return { ok: false, error: { type: 'CUSTOM_FORM_RENDER_ERROR', message: ADD_TO_CART_MESSAGES.variantUnavailable } };
  if (!isInStock(input.product, variant, input.quantityInCart, input.quantity)) {
    return {
      ok: false,
      error: { type: 'CUSTOM_FORM_RENDER_ERROR_OUT_OF_STOCK', message: ADD_TO_CART_MESSAGES.outOfStock },
    };
  }
  return { ok: true };
}
