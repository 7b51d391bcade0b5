import { CART_NOTICE_ID } from '../core/cartNotice';
import { ROUTES } from '../core/purchaseRoute';

export type CartNoticeView = { kind: 'added'; text: string } | { kind: 'refused'; title: string; text: string };

/** The link under an added notice (the spec shows none; the cart page's checkout link works without JavaScript). */
export const VIEW_CART_LABEL = 'View cart';

/**
 * The outcome of an add posted without JavaScript (src/modules/cart/cartNoticeRoutes.tsx), shown once at the top of the
 * page it returned to: '{productName} was added to your cart.' with the cart link, or the alert's title and the §5
 * text. The redirect's fragment (#cart-notice) scrolls to it and moves focus there (tabIndex -1).
 */
export function CartNotice({ notice }: { notice: CartNoticeView }) {
  if (notice.kind === 'added') {
    return (
      <div id={CART_NOTICE_ID} className="cart-notice cart-notice--added" role="status" tabIndex={-1}>
        <p>{notice.text}</p>
        <p>
          <a className="button button--small" href={ROUTES.cart}>
            {VIEW_CART_LABEL}
          </a>
        </p>
      </div>
    );
  }
  return (
    <div id={CART_NOTICE_ID} className="cart-notice cart-notice--refused" role="alert" tabIndex={-1}>
      <p className="cart-notice__title">{notice.title}</p>
      <p>{notice.text}</p>
    </div>
  );
}
