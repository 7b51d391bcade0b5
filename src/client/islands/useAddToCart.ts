import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { checkAddToCart, type VariantSelection } from '../../core/addToCart';
import {
  alertTitle,
  FALLBACK_FAILURE_MESSAGES,
  failureMessage,
  requestFailureError,
  type AddToCartError,
} from '../../core/addToCartErrors';
import { ProductType } from '../../core/enums';
import { buttonStateLabel, type AddToCartButtonState } from '../../core/labels';
import type { CoreProduct } from '../../core/product';
import {
  ADDED_LABEL_DELAY_MS,
  ADDED_LABEL_DURATION_MS,
  FAILED_RESET_DELAY_MS,
  SELECT_OPTION_LABEL_MS,
} from '../../core/timing';
import { findVariantByAttributes, findVariantBySku } from '../../core/variant';
import type { ProductForm } from '../../modules/cart/coreForm';
import { purchaseRoute } from '../../core/purchaseRoute';
import { cartStore, type AddEntryResult } from '../cartStore';
import type { FormSaveOutcome, ProductFormDialog } from './ProductFormDialog';
import type { SubscriptionCartResult } from '../subscriptionApi';

export interface AddAttempt {
  selection: VariantSelection;
  quantityInput?: unknown;
  /** The express-checkout button (§2/§4): after the add, the top window goes to the checkout. */
  expressCheckout?: boolean;
  /** A subscription's chosen option (§7 subscriptionOptionId). */
  subscriptionOptionId?: string;
}

export interface AlertState {
  title: string;
  message: string;
}

export interface UseAddToCart {
  state: AddToCartButtonState;
  label: string;
  alert: AlertState | null;
  closeAlert: () => void;
  /** Options still to choose after the last attempt (to highlight the selectors). */
  unselected: readonly string[];
  add: (attempt: AddAttempt) => void;
  /**
   * The product form (§4 "Items with a custom form"): open once the checks and the stock call passed, until saved or
   * closed. `Dialog` is the form's dialog, loaded with the stock check (./productFormOpening.ts); null until then.
   */
  productForm: {
    open: boolean;
    save: (additionalFields: string) => Promise<FormSaveOutcome>;
    close: () => void;
    Dialog: ComponentType<Parameters<typeof ProductFormDialog>[0]> | null;
  };
}

/**
 * The add-to-cart button's state machine of §4: idle → adding → (1 s) added → (2 s) idle; failure → alert and idle
 * after 1 s; unselected options → 'Select Option' for 2 s (grid buttons, no alert) or the §5 message (detail page).
 * A product with a form: the checks run first, and only when they pass the form opens (§4); its saved answers go
 * with the add as additionalFields, and a refusal shows in the form rather than in the alert.
 * Every check and text comes from the core; this hook only sequences them in time.
 */
export function useAddToCart(options: {
  product: CoreProduct;
  idleLabel: string;
  /** Grid buttons only highlight unselected options; they never alert about them (§5 rule 1). */
  grid?: boolean;
  onAdded?: () => void;
  /** The product's form (additionalFieldsFormId), when it has one. */
  form?: ProductForm;
  /** The site's id: a gift card's button goes to /checkout/giftcard?websiteId={id}&… (§2). */
  websiteId?: string;
  /** The button is in the quick view (§3: isQuickView in the add event). */
  isQuickView?: boolean;
}): UseAddToCart {
  const { product, idleLabel, grid = false, onAdded, form, websiteId = '', isQuickView = false } = options;
  /** The checked add waiting for the form's answers (the form is open while this is set). */
  const [pending, setPending] = useState<{
    sku: string;
    quantity: number;
    express: boolean;
    subscriptionOptionId?: string;
  } | null>(null);
  const [Dialog, setDialog] = useState<UseAddToCart['productForm']['Dialog']>(null);
  const [state, setState] = useState<AddToCartButtonState>('idle');
  const [alert, setAlert] = useState<AlertState | null>(null);
  const [unselected, setUnselected] = useState<readonly string[]>([]);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const busy = useRef(false);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const later = (ms: number, fn: () => void) => {
    timers.current.push(setTimeout(fn, ms));
  };

  const fail = useCallback(
    (error: AddToCartError, expressCheckout = false) => {
      if (error.type === 'NO_VARIANT_SELECTED') {
        setUnselected(error.unselectedOptions ?? []);
        if (grid) {
          setState('select-option');
          later(SELECT_OPTION_LABEL_MS, () => setState('idle'));
          return;
        }
      }
      setAlert({
        title: alertTitle({ isGiftCard: product.productType === ProductType.GIFT_CARD, expressCheckout }),
        message: error.message,
      });
    },
    [grid, product.productType],
  );

  // A plain function: it calls send, which is new on every render anyway.
  const add = (attempt: AddAttempt) => {
    // The added state ignores clicks (§4), and so does a request in flight.
    if (busy.current) return;
    const store = cartStore();
    const chosen =
      'sku' in attempt.selection
        ? findVariantBySku(product, attempt.selection.sku ?? '')
        : findVariantByAttributes(product, attempt.selection.attributes);
    const expressCheckout = attempt.expressCheckout === true;
    const checked = checkAddToCart({
      product,
      selection: attempt.selection,
      quantityInput: attempt.quantityInput,
      // A subscription has a cart of its own (§4): nothing of the shopper's cart counts against it.
      quantityInCart: chosen && !product.isSubscribable ? store.quantityInCart(chosen.sku) : undefined,
      expressCheckout,
      hasCartCookieOrSession: expressCheckout ? cookiesWork() : undefined,
    });
    if (!checked.ok) {
      fail(checked.error, expressCheckout);
      return;
    }
    const { variant, quantity } = checked.value;
    setUnselected([]);
    if (product.productType === ProductType.GIFT_CARD) {
      // §4: a gift card never enters the cart; its button goes to the gift-card checkout, in the top window (§2).
      void giftCardCheckout(variant.sku);
      return;
    }
    if (form) {
      // §4: the form opens only now that options, variant and quantity are fine, and the inventory call says the
      // stock is enough (the page's numbers may be older than the last sale).
      busy.current = true;
      const title = alertTitle({ expressCheckout });
      const inCart = chosen && !product.isSubscribable ? store.quantityInCart(chosen.sku) : 0;
      import('./productFormOpening')
        .then(async (opening) => {
          const stock = await opening.checkStockBeforeForm({
            product,
            sku: variant.sku,
            quantity,
            quantityInCart: inCart,
          });
          busy.current = false;
          if (!stock.ok) {
            setAlert({ title, message: stock.error.message });
            document.dispatchEvent(
              new CustomEvent('vitrine:add-to-cart-failed', {
                detail: { type: stock.error.type, message: stock.error.message },
              }),
            );
            return;
          }
          setDialog(() => opening.ProductFormDialog);
          setPending({
            sku: variant.sku,
            quantity,
            express: expressCheckout,
            ...(attempt.subscriptionOptionId ? { subscriptionOptionId: attempt.subscriptionOptionId } : {}),
          });
        })
        .catch((error: unknown) => {
          // The form's code could not be loaded (offline, a new deployment): the §8 text, and the error reported.
          busy.current = false;
          setAlert({ title, message: FALLBACK_FAILURE_MESSAGES.network });
          document.dispatchEvent(
            new CustomEvent('vitrine:add-to-cart-failed', {
              detail: { type: 'CUSTOM_FORM_RENDER_ERROR', message: FALLBACK_FAILURE_MESSAGES.network },
            }),
          );
          reportError(error);
        });
      return;
    }
    void send(variant.sku, quantity, '', expressCheckout, attempt.subscriptionOptionId).then((result) => {
      if (!result.ok)
        setAlert({
          title: alertTitle({ isGiftCard: product.productType === ProductType.GIFT_CARD, expressCheckout }),
          message: failureMessage(result.failure),
        });
    });
  };

  /** The add request and the button's states around it (§4): adding → (1 s) added → (2 s) idle; failure → idle after 1 s. */
  function send(
    sku: string,
    quantity: number,
    additionalFields: string,
    expressCheckout = false,
    subscriptionOptionId?: string,
  ): Promise<AddEntryResult> {
    busy.current = true;
    setState('adding');
    document.dispatchEvent(
      new CustomEvent('vitrine:adding-to-cart', { detail: { itemId: product.id, sku, quantity, isQuickView } }),
    );
    if (product.isSubscribable) return subscribe(sku, quantity, additionalFields, subscriptionOptionId);
    return cartStore()
      .addEntry({ itemId: product.id, sku, quantity, additionalFields })
      .then((result) => {
        if (result.ok && expressCheckout) {
          // §4: express checkout goes straight to checkout, in the top window (the page may be framed by the editor).
          const route = purchaseRoute({
            productType: product.productType,
            isSubscribable: false,
            expressCheckout: true,
            websiteId: '',
            productId: product.id,
          });
          (window.top ?? window).location.assign(route?.url ?? '/commerce/goto-checkout');
          return result;
        }
        if (result.ok) {
          later(ADDED_LABEL_DELAY_MS, () => {
            setState('added');
            later(ADDED_LABEL_DURATION_MS, () => {
              setState('idle');
              busy.current = false;
            });
          });
          onAdded?.();
        } else {
          // The form stays open after a refusal: the shopper may correct it and save again at once.
          busy.current = false;
          later(FAILED_RESET_DELAY_MS, () => setState((s) => (s === 'adding' ? 'idle' : s)));
        }
        return result;
      });
  }

  /**
   * §4/§7: a subscription skips the cart — the subscription call answers a cart token, and the page goes to the
   * subscription checkout (the button stays busy while it loads). A refusal is SUB_API_FAILURE (SUB_WITH_FORM_FAILURE
   * for the form's answers), shown in the alert or the form.
   */
  async function subscribe(
    sku: string,
    qty: number,
    additionalFields: string,
    subscriptionOptionId?: string,
  ): Promise<AddEntryResult> {
    // Its code loads with the first subscription add (most pages never make one); a failed load is a network failure.
    const answer = await import('../subscriptionApi').then(
      ({ postSubscriptionCart }) =>
        postSubscriptionCart({
          itemId: product.id,
          sku,
          qty,
          additionalFields,
          ...(subscriptionOptionId ? { subscriptionOptionId } : {}),
        }),
      (): SubscriptionCartResult => ({ ok: false, failure: { kind: 'network' } }),
    );
    const route = answer.ok
      ? purchaseRoute({
          productType: product.productType,
          isSubscribable: true,
          websiteId,
          productId: product.id,
          cartToken: answer.cartToken,
        })
      : null;
    if (answer.ok && route) {
      window.location.assign(route.url);
      return { ok: true, cart: cartStore().getSnapshot() };
    }
    busy.current = false;
    later(FAILED_RESET_DELAY_MS, () => setState((s) => (s === 'adding' ? 'idle' : s)));
    const failed = answer.ok ? { ok: false as const, failure: { kind: 'http' as const, status: 502 } } : answer;
    const error = requestFailureError(failed.failure, true);
    document.dispatchEvent(
      new CustomEvent('vitrine:add-to-cart-failed', {
        detail: { type: failed.fields ? 'SUB_WITH_FORM_FAILURE' : error.type, message: error.message },
      }),
    );
    return failed;
  }

  /**
   * §2: the gift-card checkout names the website. A detail page's button has the id in its props; a card's does not
   * (props stay small on every card), so it is read from the bootstrap configuration (§7) — only at such a click.
   */
  async function giftCardCheckout(sku: string): Promise<void> {
    let id = websiteId;
    if (id === '') {
      // Without it (the call failed and was reported, or its code could not load) the checkout opens all the same.
      const config = await import('../contextConfig').then(
        (m) => m.contextConfig(),
        (error: unknown) => {
          reportError(error);
          return null;
        },
      );
      id = config?.website.id ?? '';
    }
    const route = purchaseRoute({
      productType: product.productType,
      isSubscribable: false,
      websiteId: id,
      productId: product.id,
      sku,
    });
    if (route) (window.top ?? window).location.assign(route.url);
  }

  const save = async (additionalFields: string): Promise<FormSaveOutcome> => {
    if (!pending || busy.current) return { ok: true };
    const result = await send(
      pending.sku,
      pending.quantity,
      additionalFields,
      pending.express,
      pending.subscriptionOptionId,
    );
    if (result.ok) {
      setPending(null);
      return { ok: true };
    }
    return { ok: false, message: failureMessage(result.failure), ...(result.fields ? { fields: result.fields } : {}) };
  };

  return {
    state,
    label: buttonStateLabel(state, idleLabel),
    alert,
    closeAlert: () => setAlert(null),
    unselected,
    add,
    productForm: { open: pending !== null && Dialog !== null, save, close: () => setPending(null), Dialog },
  };
}

/** §5 check 5: express checkout needs a cart cookie or session — cookies this page can set and read back. */
function cookiesWork(): boolean {
  if (!navigator.cookieEnabled) return false;
  document.cookie = 'vitrineCookieCheck=1; path=/; SameSite=Lax';
  const works = document.cookie.includes('vitrineCookieCheck=1');
  document.cookie = 'vitrineCookieCheck=; path=/; max-age=0; SameSite=Lax';
  return works;
}
