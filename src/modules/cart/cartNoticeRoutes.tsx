/**
 * The §5 message of an add posted without JavaScript, carried across its 303 to the next page (src/core/cartNotice.ts:
 * a cookie of one minute that names the product and one text of the closed list below). The page route shows it once,
 * at the top of the page's main content, in a copy of the page made for this visitor (never cached), and drops the
 * cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  ADD_TO_CART_MESSAGES,
  ALERT_TITLES,
  FALLBACK_FAILURE_MESSAGES,
  selectOptionsMessage,
} from '../../core/addToCartErrors';
import { addedToCartPopoverText, CART_MESSAGES } from '../../core/cartPill';
import {
  CART_NOTICE_COOKIE,
  CART_NOTICE_MAX_AGE_S,
  decodeCartNotice,
  encodeCartNotice,
  missingOptionIndexes,
  type CartNotice as Notice,
  type LineAction,
} from '../../core/cartNotice';
import { ProductType } from '../../core/enums';
import { QUANTITY_MESSAGES } from '../../core/quantity';
import { ENTRY_NOT_FOUND_MESSAGE, GIFT_CARD_NOT_IN_CART_MESSAGE } from './cart';
import { getProduct } from '../catalog';
import { SUBSCRIPTION_CART_MESSAGES } from '../../core/subscription';
import type { Product } from '../site';
import { CartNotice, type CartNoticeView } from '../../ui/CartNotice';
import { secureCookiesFor, type AppContext } from '../../platform/http/appContext';
import type { RequestSite } from '../site';

/** The only texts a notice can show, by key (the cookie carries the key). */
export const CART_NOTICE_TEXTS: Readonly<Record<string, string>> = {
  ...ADD_TO_CART_MESSAGES,
  productGone: 'Sorry, that item is no longer available.',
  giftCardNotInCart: GIFT_CARD_NOT_IN_CART_MESSAGE,
  subscriptionNotSubscribable: SUBSCRIPTION_CART_MESSAGES.notSubscribable,
  subscriptionOptionNotFound: SUBSCRIPTION_CART_MESSAGES.optionNotFound,
  subscriptionUnavailable: SUBSCRIPTION_CART_MESSAGES.unavailable,
  quantityOutOfRange: QUANTITY_MESSAGES.outOfRange,
  entryNotFound: ENTRY_NOT_FOUND_MESSAGE,
  tryAgain: FALLBACK_FAILURE_MESSAGES.other,
};

/** The key of a text of the list above ('Please try again.' for another). */
const textKey = (message: string): string =>
  Object.keys(CART_NOTICE_TEXTS).find((k) => CART_NOTICE_TEXTS[k] === message) ?? 'tryAgain';

/** The notice of a cart line's refused change (the cart page's forms): §8's title with the refusal's text. */
export const lineNotice = (action: LineAction, message: string): Notice => ({
  kind: 'line',
  action,
  text: textKey(message),
});

/** The notice of a refusal: the options still to choose, or the key of its text ('Please try again.' for another). */
export function refusalNotice(
  product: Pick<Product, 'id' | 'productType' | 'variantOptions'>,
  error: { message: string; unselectedOptions?: readonly string[] | undefined },
): Notice {
  const names = product.variantOptions.map((o) => o.name);
  const missing = error.unselectedOptions ? missingOptionIndexes(names, error.unselectedOptions) : [];
  if (missing.length > 0 && product.productType !== ProductType.GIFT_CARD)
    return { kind: 'select', itemId: product.id, missing };
  return { kind: 'refused', itemId: product.id, text: textKey(error.message) };
}

export function setCartNotice(reply: FastifyReply, ctx: AppContext, request: FastifyRequest, notice: Notice): void {
  reply.setCookie(CART_NOTICE_COOKIE, encodeCartNotice(notice), {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: secureCookiesFor(ctx, request),
    maxAge: CART_NOTICE_MAX_AGE_S,
  });
}

/** What a cart line's notice says: §8's title and the text, or null for a key no longer known. */
function lineNoticeView(notice: Extract<Notice, { kind: 'line' }>): CartNoticeView | null {
  const text = Object.hasOwn(CART_NOTICE_TEXTS, notice.text) ? CART_NOTICE_TEXTS[notice.text] : undefined;
  const title = notice.action === 'update' ? CART_MESSAGES.unableToUpdateQuantity : CART_MESSAGES.unableToRemoveItem;
  return text === undefined ? null : { kind: 'refused', title, text };
}

/** What the notice says, or null when it names nothing shown (a product removed since, a key no longer known). */
function noticeView(notice: Exclude<Notice, { kind: 'line' }>, product: Product): CartNoticeView | null {
  switch (notice.kind) {
    case 'added':
      return { kind: 'added', text: addedToCartPopoverText(product.name) };
    case 'select': {
      const names = notice.missing
        .map((i) => product.variantOptions[i]?.name)
        .filter((n): n is string => n !== undefined);
      return names.length > 0
        ? { kind: 'refused', title: ALERT_TITLES.addItem, text: selectOptionsMessage(names) }
        : null;
    }
    case 'refused': {
      const text = Object.hasOwn(CART_NOTICE_TEXTS, notice.text) ? CART_NOTICE_TEXTS[notice.text] : undefined;
      const title =
        product.productType === ProductType.GIFT_CARD ? ALERT_TITLES.purchaseGiftCard : ALERT_TITLES.addItem;
      return text === undefined ? null : { kind: 'refused', title, text };
    }
  }
}

/**
 * The visitor's pending notice as HTML, or null when there is none. A cookie that is there is dropped in this answer
 * whatever it holds (shown once; anything unreadable is ignored).
 */
export async function takeCartNotice(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  site: RequestSite,
): Promise<string | null> {
  const raw = request.cookies[CART_NOTICE_COOKIE];
  if (raw === undefined) return null;
  reply.clearCookie(CART_NOTICE_COOKIE, {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: secureCookiesFor(ctx, request),
  });
  const notice = decodeCartNotice(raw);
  if (!notice) return null;
  if (notice.kind === 'line') {
    const view = lineNoticeView(notice);
    return view ? renderToStaticMarkup(<CartNotice notice={view} />) : null;
  }
  const product = await getProduct(ctx.db, site.id, notice.itemId);
  const view = product ? noticeView(notice, product) : null;
  return view ? renderToStaticMarkup(<CartNotice notice={view} />) : null;
}

/** The page with the notice at the top of its main content (the page is left as it is if it has no main). */
export const withCartNotice = (html: string, noticeHtml: string): string =>
  html.replace(/<main\b[^>]*>/, (main) => main + noticeHtml);
