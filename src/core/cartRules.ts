/**
 * Cart rules the spec leaves to us (owned by the cart/server engineer): the price a line is bought at, the largest
 * line, and the cart's totals and delivery flags. Pure: values in, values out; money in integer minor units.
 */
import { isInStock, type InventoryStock } from './addToCart';
import { ADD_TO_CART_MESSAGES, type AddToCartError } from './addToCartErrors';
import { ProductType } from './enums';
import { effectivePrice, type CoreVariant } from './product';
import { parseQuantity, QUANTITY_MAX, QUANTITY_MESSAGES } from './quantity';
import { err, ok, type Result } from './result';

/** The price a shopper pays for one unit: the sale price while the variant is on sale, else the price. */
export const purchasePriceCents = (variant: Pick<CoreVariant, 'price' | 'salePrice' | 'onSale'>): number =>
  effectivePrice(variant).minorUnits;

/**
 * One cart line holds at most the quantity input's maximum (§9: 1 to 9999), so merging an add into an existing
 * line cannot grow it past what the shopper could have typed.
 */
export function mergedLineQuantity(quantityInLine: number, added: number): Result<number, AddToCartError> {
  const total = quantityInLine + added;
  if (!Number.isSafeInteger(total) || total > QUANTITY_MAX) {
    return err({ type: 'QUANTITY_NOT_A_NUMBER', message: QUANTITY_MESSAGES.outOfRange });
  }
  return ok(total);
}

export interface LineQuantityChange {
  /** The line's product type as stored now; undefined when a re-import removed the product. */
  productType: number | undefined;
  /** The stock of the line's sku as stored now; undefined when a re-import removed the variant (none left). */
  stock: InventoryStock | undefined;
  /** The line's quantity before the change. */
  quantityInLine: number;
  /** Units of the same sku in the cart's other lines (the same variant with other form answers). */
  quantityInOtherLines: number;
  /** The new quantity as the cart page's input sends it (text or number). */
  quantityInput: unknown;
}

/**
 * The cart page's quantity change (the spec shows no cart page controls; decided here, as shoppers expect):
 * - the new quantity is read like the quantity input of §5/§9 (a whole number 1..9999, the same texts);
 * - raising it is an add of the difference, so the §5 stock rule counts every unit of the sku in the cart;
 * - lowering it (or keeping it) is always allowed, even when stock has since fallen below what the cart holds or
 *   the item is gone: a shopper must always be able to take things out;
 * - removing a line is a separate call, not quantity 0, so a mistyped 0 never empties a line.
 */
export function checkLineQuantityChange(change: LineQuantityChange): Result<number, AddToCartError> {
  const quantity = parseQuantity(change.quantityInput);
  if (!quantity.ok) return err({ type: 'QUANTITY_NOT_A_NUMBER', message: quantity.error.message });
  const added = quantity.value - change.quantityInLine;
  if (added <= 0) return ok(quantity.value);
  const inCart = change.quantityInOtherLines + change.quantityInLine;
  const inStock =
    change.productType !== undefined &&
    change.stock !== undefined &&
    isInStock({ productType: change.productType }, change.stock, inCart, added);
  return inStock ? ok(quantity.value) : err({ type: 'OUT_OF_STOCK', message: ADD_TO_CART_MESSAGES.outOfStock });
}

export interface CartLine {
  productType: number | null;
  quantity: number;
  /** purchasePriceCents × quantity. */
  subTotal: number;
}

export interface CartTotals {
  subtotalCents: number;
  taxCents: number;
  shippingCostCents: number;
  discountCents: number;
  grandTotalCents: number;
  totalQuantity: number;
  hasDigital: boolean;
  purelyDigital: boolean;
  requiresShipping: boolean;
}

/** Digital products and gift cards are delivered electronically; paywall products sell access, not goods. */
const DELIVERED_DIGITALLY: readonly number[] = [ProductType.DIGITAL, ProductType.GIFT_CARD, ProductType.PAYWALL];

/**
 * Totals of §3. Shipping, tax and coupons are not shown by the spec (they belong to checkout), so they are 0 here
 * and the grand total is the subtotal. Only physical goods need shipping; services are neither shipped nor digital.
 */
export function cartTotals(lines: readonly CartLine[]): CartTotals {
  let subtotalCents = 0;
  let totalQuantity = 0;
  for (const line of lines) {
    subtotalCents += line.subTotal;
    totalQuantity += line.quantity;
  }
  const isDigital = (line: CartLine) => line.productType !== null && DELIVERED_DIGITALLY.includes(line.productType);
  const hasDigital = lines.some(isDigital);
  return {
    subtotalCents,
    taxCents: 0,
    shippingCostCents: 0,
    discountCents: 0,
    grandTotalCents: subtotalCents,
    totalQuantity,
    hasDigital,
    purelyDigital: lines.length > 0 && lines.every(isDigital),
    requiresShipping: lines.some((line) => line.productType === ProductType.PHYSICAL),
  };
}
