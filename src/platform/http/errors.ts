/**
 * The one error type of the HTTP layer: a closed set of codes, each with its HTTP status, mapped in one place
 * (the error handler in app.ts). Every error answer has the body `{ code, message, type }` (+ `field` for
 * validation errors, + `unselectedOptions` for NO_VARIANT_SELECTED, + `fields` for product form answers): `message` is what the shopper sees,
 * `type` the tracked error type of spec §8 the browser reports.
 */
import type { AddToCartError, TrackedErrorType } from '../../core/addToCartErrors';
import { ADD_TO_CART_MESSAGES } from '../../core/addToCartErrors';

export const ERROR_STATUS = {
  /** A body, query or parameter failed validation. */
  'invalid-input': 400,
  /** The body is not valid JSON. */
  'invalid-json': 400,
  'unsupported-media-type': 415,
  'payload-too-large': 413,
  /** The request headers (cookies included) are over Node's limit (16 KB). */
  'headers-too-large': 431,
  /** The request was not received within Node's request timeout. */
  'request-timeout': 408,
  /** An Expect header other than 100-continue. */
  'expectation-failed': 417,
  /** A method no route takes that Node hands over apart (CONNECT). */
  'method-not-allowed': 405,
  /** The Accept-Encoding header refuses every coding a page is sent in (br, gzip and identity). */
  'not-acceptable': 406,
  /** An add-to-cart check of §5 refused the add (options, variant, quantity). */
  'add-to-cart-refused': 400,
  /** §5 check 3: not enough stock, counting what the cart already holds. */
  'out-of-stock': 409,
  /** The answers to the product's form (additionalFields) failed the form rules of §5; per-field messages in `fields`. */
  'invalid-form-answers': 400,
  /** The checkout's details cannot be used (e-mail, address, shipping, coupon, an empty cart, the minimum); `fields` says where. */
  'checkout-refused': 400,
  /** The card was declined; `fields` names the card field. */
  'payment-declined': 402,
  /** The payment service could not be reached or failed; nothing was charged. */
  'payment-failed': 502,
  /** The cart changed under the checkout (it was bought, or its lines changed): review and place it again. */
  'checkout-conflict': 409,
  /** The same order request (idempotency key) is still being placed: ask again with the same key. */
  'checkout-in-progress': 409,
  /** The site's payment provider is not configured (e.g. Stripe without STRIPE_SECRET_KEY); logged for the owner. */
  'payments-unavailable': 503,
  /** Too much work queued (image resizing): answered with Retry-After; try again in a few seconds. */
  'server-busy': 503,
  /** The idempotency key was already used for another order request. */
  'idempotency-mismatch': 422,
  /** A state-changing request without the crumb of its page (§8 crumb failure; src/platform/http/crumb.ts). */
  'crumb-invalid': 403,
  /** A state-changing request another website made the browser send (its Origin or Sec-Fetch-Site says so). */
  'cross-site-refused': 403,
  /** The analytics report page without a valid token of its site (`vitrine report token`). */
  'report-token-invalid': 403,
  /** An account-area call without a signed-in site user (src/modules/siteUsers/siteUserSession.ts). */
  'sign-in-required': 401,
  /** A signed-in site user whose role may not make this call (spec §3 roles). */
  'role-not-allowed': 403,
  /** A restock sign-up for a product that offers none, or for a variant that can be bought now (src/modules/restock). */
  'restock-not-offered': 409,
  /** A form's CAPTCHA was not completed, or its answer was refused (forged, expired, already used). */
  'captcha-refused': 400,
  /** The site's CAPTCHA provider could not be asked: nothing was judged, nothing stored; try again. */
  'captcha-unavailable': 503,
  'product-not-found': 404,
  /** The subscription checkout's token names no open subscription cart (unknown, bought, expired). */
  'subscription-cart-not-found': 404,
  /** A like of a post the site does not have (src/modules/likes/routes.ts). */
  'post-not-found': 404,
  /** An /api/admin call about an order number the site does not have. */
  'order-not-found': 404,
  /** A refund that cannot be made as asked (no reason, nothing chosen, more than is left); `message` says why. */
  'refund-refused': 422,
  /** A refund that another one got to first (already refunded, more than is left now, still being made). */
  'refund-conflict': 409,
  /** A like on a site that has not turned likes on (`website.comments.simpleLikingEnabled`). */
  'likes-not-enabled': 403,
  'entry-not-found': 404,
  /** An admin call about a SKU the site has no variant with (src/modules/catalog/adminRoutes.tsx). */
  'variant-not-found': 404,
  /** An owner's stock change that would take it below 0, or adjust an unlimited variant; nothing changed. */
  'stock-change-refused': 409,
  /** A staff change refused (the site's last admin, an e-mail that already has an account); nothing changed. */
  'staff-change-refused': 409,
  /** An /api/admin/gathered call about a subscription, gift card or form the site does not have. */
  'subscription-not-found': 404,
  'gift-card-not-found': 404,
  'form-not-found': 404,
  /** The subscription or gift card is not in the state the change needs (another change got there first). */
  'subscription-conflict': 409,
  'gift-card-conflict': 409,
  'site-not-found': 404,
  /** A site version the site does not have (/api/admin/versions). */
  'version-not-found': 404,
  /** A restore that cannot be done: a domain of that version now belongs to another site. */
  'restore-refused': 409,
  /** An /admin edit made from an older version of something another save changed since; nothing was written. */
  'site-edit-stale': 409,
  /** An /admin edit refused as asked (a product that is gone, a slug taken); nothing was written. */
  'site-edit-refused': 409,
  /** A media call about an image the site does not have (/api/admin/media). */
  'image-not-found': 404,
  /** An image still shown by a product, page, post or the design cannot be deleted. */
  'image-in-use': 409,
  /** An /api/admin/pages call about a page or collection the site does not have. */
  'page-not-found': 404,
  'collection-not-found': 404,
  /** An /api/admin/posts call naming a blog the site does not have. */
  'blog-not-found': 404,
  /** A status the staff member may not set (a draft editor publishing, or changing a live post: src/core/publishing.ts). */
  'publication-refused': 403,
  'route-not-found': 404,
  'rate-limited': 429,
  /** The order is not in the state the change needs (another staff member changed it first). */
  'order-conflict': 409,
  internal: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  type: TrackedErrorType;
  field?: string;
  unselectedOptions?: readonly string[];
  /** Product form answers: field id → its §5 message, shown above each field; checkout fields → their messages. */
  fields?: Readonly<Record<string, string>>;
  /** Checkout: the cart lines that cannot be bought, each with its message. */
  lines?: readonly { entryId: string; sku: string; message: string }[];
  /** A stale /admin edit: what another save changed since (src/modules/site/edit.ts). */
  changes?: readonly string[];
}

export class ApiError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: {
      type?: TrackedErrorType;
      field?: string;
      unselectedOptions?: readonly string[];
      fields?: Readonly<Record<string, string>>;
      lines?: readonly { entryId: string; sku: string; message: string }[];
      changes?: readonly string[];
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      type: this.details.type ?? 'API_FAILURE',
      ...(this.details.field !== undefined ? { field: this.details.field } : {}),
      ...(this.details.unselectedOptions ? { unselectedOptions: this.details.unselectedOptions } : {}),
      ...(this.details.fields ? { fields: this.details.fields } : {}),
      ...(this.details.lines ? { lines: this.details.lines } : {}),
      ...(this.details.changes ? { changes: this.details.changes } : {}),
    };
  }

  /** A refused add (§5): the spec's text and tracked type; 409 for stock, 400 for the rest. */
  static fromAddToCart(error: AddToCartError): ApiError {
    const code: ErrorCode = error.type === 'OUT_OF_STOCK' ? 'out-of-stock' : 'add-to-cart-refused';
    return new ApiError(code, error.message, {
      type: error.type,
      ...(error.unselectedOptions ? { unselectedOptions: error.unselectedOptions } : {}),
    });
  }

  /** §8: HTTP 429 gives 'Please try again in a few seconds.' */
  static rateLimited(): ApiError {
    return new ApiError('rate-limited', ADD_TO_CART_MESSAGES.tooManyRequests);
  }
}

export const GENERIC_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';
