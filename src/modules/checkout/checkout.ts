/**
 * Checkout: the quote (the cart's totals for the shopper's choices; read-only) and placing the order.
 *
 * Placing an order moves money once (../shared/DESIGN.md):
 *   1. the choices are checked and priced with the core's rules against the cart as it is (nothing written);
 *   2. a payment attempt row is written under the page's idempotency key — a second request with the same key
 *      finds it and waits for (or returns) the first one's outcome, so a double click makes one order, one charge
 *      (the key is looked up only when step 1 refuses — a retry of a placed order finds its cart bought — or when the
 *      write finds the key taken: a new key costs no look-up);
 *   3. the provider authorizes the amount, outside any database transaction;
 *   4. one transaction locks the cart and marks it purchased (the cart module's takeCheckoutCart), prices it again
 *      (it must still cost what was authorized), takes the stock with conditional decrements, counts the coupon use,
 *      writes the order, its lines and its e-mails (outbox) — or rolls back whole, and the authorization is voided (a
 *      payment that succeeded after the stock went is never kept);
 *   5. the authorization is captured.
 */
import * as catalog from '../catalog';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ADD_TO_CART_MESSAGES } from '../../core/addToCartErrors';
import { CART_MESSAGES, isBelowMinimumSubtotal, minimumSubtotalMessage } from '../../core/cartPill';
import { checkShippingAddress } from '../../core/checkout/address';
import {
  checkCoupon,
  COUPON_MESSAGES,
  findCoupon,
  normalizeCouponCode,
  type CouponRule,
} from '../../core/checkout/coupon';
import { chooseShippingOption, shippingOptionsFor } from '../../core/checkout/shipping';
import { taxRateFor } from '../../core/checkout/tax';
import { checkoutTotals } from '../../core/checkout/totals';
import type { CheckoutField, PricedShippingOption, ShippingAddress } from '../../core/checkout/types';
import { DEFAULT_CURRENCY, parseCurrencyCode, type CurrencyCode } from '../../core/currency';
import { validateEmail } from '../../core/email';
import { ProductType } from '../../core/enums';
import { FIELD_MESSAGES } from '../../core/forms/validation';
import { GIFT_CARD_MESSAGES, normalizeGiftCardCode } from '../../core/giftCard';
import { err, ok, type Result } from '../../core/result';
import { engineOf } from '../../platform/db/connect';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';
import { inTransaction } from '../../platform/db/transaction';
import type { Database } from '../../platform/db/tables';
import { emptyCart, readCheckoutCart, takeCheckoutCart, type CheckoutCart } from '../cart';
import { enqueueOrderEmails } from '../orders';
import { giftCardsForOrder, spendGiftCards, type GiftCardsForOrder } from '../giftCards';
import { createOrder, getOrder, newOrderId, takeOrderNumber } from '../orders';
import type { CheckoutChoices, CheckoutFailure, CheckoutQuote, Order, PlacedOrder, PlaceOrderInput } from '../orders';
import {
  beginAttempt,
  finishAttempt,
  recordAttemptFailure,
  rememberReference,
  waitForAttempt,
  type PaymentAttempt,
} from '../payments';
import { freeAuthorization, type PaymentProvider } from '../payments';
import type { Site } from '../site';

type Db = Kysely<Database>;

export interface CheckoutContext {
  /** The site's payment provider. */
  payments: PaymentProvider;
  /** The absolute URL of the order-confirmed page of an order id (for e-mails). */
  orderUrl: (orderId: string) => string;
  /** The origin of the staff's links in their new-order e-mails (ownerLinkOrigin); default: the orderUrl's. */
  adminOrigin?: string;
  now?: Date;
  /**
   * Runs inside the order's transaction, after the order and its lines are written and before its e-mails: what a
   * kind of purchase adds to the order (a subscription's plan, a gift card's code). A refusal rolls the whole order
   * back, and the payment is voided like any other refusal.
   */
  withinOrder?: (trx: Db, order: Order, cart: CheckoutCart) => Promise<Result<void, CheckoutFailure>>;
  /** Set only by the gift-card checkout (./giftCardPurchase.ts), which issues the cards: any other checkout refuses them. */
  issuesGiftCards?: boolean;
}

export const CHECKOUT_MESSAGES = {
  emptyCart: CART_MESSAGES.emptyCart,
  fixDetails: 'Please check the details marked below.',
  required: FIELD_MESSAGES.required,
  chooseShipping: 'Choose a shipping option.',
  outOfStock: ADD_TO_CART_MESSAGES.outOfStock,
  someLinesSoldOut: 'Some items in your cart are no longer available in the quantity you chose.',
  cartChanged: 'Your cart changed while you were checking out. Please review your order and place it again.',
  inProgress: 'Your order is still being placed. Please wait a moment and reload the page.',
  idempotencyMismatch: 'This order form was already used for other details. Please reload the page and try again.',
  paymentFailed: 'We could not reach the payment service. You have not been charged. Please try again.',
  giftCardInCart:
    'Gift cards cannot be bought through the cart. Please remove the gift card and buy it from its own page.',
} as const;

// ---------------------------------------------------------------- the quote

/** The cart of `cartToken` with its totals for these choices; never writes. An unknown token gives the empty cart. */
export async function quoteCheckout(
  db: Db,
  site: Site,
  cartToken: string | undefined,
  choices: CheckoutChoices,
): Promise<CheckoutQuote> {
  return (await checkCheckoutDetails(db, site, cartToken, choices)).quote;
}

/**
 * The quote, and what the order would be refused for in these choices (field → message; the card is not among them):
 * the checkout without JavaScript goes on to its payment step only when nothing is (../core/checkout/steps).
 */
export async function checkCheckoutDetails(
  db: Db,
  site: Site,
  cartToken: string | undefined,
  choices: CheckoutChoices,
): Promise<{ quote: CheckoutQuote; fields: Partial<Record<CheckoutField, string>> }> {
  const cart = await readCheckoutCart(db, cartSite(site), cartToken);
  const { quote, fields } = await price(db, site, cart, choices, new Date());
  return { quote, fields };
}

interface Priced {
  quote: CheckoutQuote;
  cart: CheckoutCart | undefined;
  shippingOption: PricedShippingOption | null;
  coupon: CouponRule | undefined;
  /** Field → message for the choices that cannot be used to place the order. */
  fields: Partial<Record<CheckoutField, string>>;
  email: string;
  address: ShippingAddress | null;
  /** The gift cards typed, what each pays and what is left to pay by card. */
  giftCards: GiftCardsForOrder;
}

/**
 * What price() found of the choices that do not depend on the cart (the e-mail, the address), kept for the second
 * pricing of the same choices inside the order's transaction.
 */
interface ChoiceChecks {
  email?: ReturnType<typeof validateEmail>;
  address?: ReturnType<typeof checkShippingAddress>;
}

async function price(
  db: Db,
  site: Site,
  cart: CheckoutCart | undefined,
  choices: CheckoutChoices,
  now: Date,
  checks: ChoiceChecks = {},
): Promise<Priced> {
  const settings = site.settings.store.checkout;
  const currency = currencyOf(site);
  const shoppingCart = cart?.shoppingCart ?? emptyCart(site.id);
  const subtotalCents = shoppingCart.subtotalCents;
  const fields: Partial<Record<CheckoutField, string>> = {};

  // Coupon first: free-shipping thresholds apply to the subtotal after the discount.
  let couponRule: CouponRule | undefined;
  let coupon: CheckoutQuote['coupon'] = null;
  let couponError: string | undefined;
  const code = normalizeCouponCode(choices.couponCode ?? '');
  const email = (choices.email ?? '').trim();
  if (code !== '') {
    couponRule = findCoupon(settings.coupons, code);
    const usage = couponRule ? await couponUsage(db, site.id, couponRule, email) : { usesSoFar: 0, usedByEmail: false };
    const checked = checkCoupon(couponRule, { subtotalCents, now, currency, ...usage });
    if (checked.ok) coupon = checked.value;
    else {
      couponRule = undefined;
      couponError = checked.error.message;
      fields.couponCode = couponError;
    }
  }
  const discountCents = coupon?.discountCents ?? 0;

  const requiresShipping = shoppingCart.requiresShipping;
  const given = choices.shippingAddress ?? {};
  const country =
    typeof given.country === 'string' && given.country.trim() !== '' ? given.country.trim().toUpperCase() : undefined;
  const shippingOptions = requiresShipping
    ? shippingOptionsFor(
        settings.shippingOptions,
        country,
        subtotalCents - discountCents,
        typeof given.postalCode === 'string' ? given.postalCode : undefined,
      )
    : [];
  const shippingOption = requiresShipping ? chooseShippingOption(shippingOptions, choices.shippingOptionId) : null;
  if (requiresShipping && shippingOption === null) fields.shippingOptionId = CHECKOUT_MESSAGES.chooseShipping;

  const region = typeof given.region === 'string' ? given.region.trim().toUpperCase() : '';
  const taxRate = country === undefined ? undefined : taxRateFor(settings.tax.rates, country, region);
  const totals = checkoutTotals({
    subtotalCents,
    discountCents,
    shipping: shippingOption,
    taxRate,
    pricesIncludeTax: settings.tax.pricesIncludeTax,
    taxShipping: settings.tax.taxShipping,
  });

  // Gift cards pay the total (tax and shipping included), in the order typed; the payment provider the rest.
  const giftCards = await giftCardsForOrder(db, site, choices.giftCardCodes ?? [], totals.grandTotalCents);
  if (giftCards.error !== undefined) fields.giftCardCode = giftCards.error;

  const checkedEmail = (checks.email ??= validateEmail(email));
  if (email === '') fields.email = CHECKOUT_MESSAGES.required;
  else if (!checkedEmail.ok) fields.email = checkedEmail.error;

  let address: ShippingAddress | null = null;
  if (requiresShipping) {
    const checked = (checks.address ??= checkShippingAddress(given, settings.shipsTo));
    if (checked.ok) address = checked.value;
    else Object.assign(fields, checked.error);
  }

  const minimum = site.settings.store.minimumSubtotal;
  const quote: CheckoutQuote = {
    cart: shoppingCart,
    lineImages: Object.fromEntries((cart?.lines ?? []).map((l) => [l.entry.id, l.image])),
    requiresShipping,
    shippingOptions,
    selectedShippingOptionId: shippingOption?.id ?? null,
    coupon,
    ...(couponError !== undefined ? { couponError } : {}),
    totals,
    giftCards: giftCards.cards,
    ...(giftCards.error !== undefined ? { giftCardError: giftCards.error } : {}),
    amountDueCents: giftCards.remainingCents,
    minimumSubtotalMessage: isBelowMinimumSubtotal(subtotalCents, minimum)
      ? minimumSubtotalMessage({ minorUnits: minimum, currency })
      : null,
  };
  return {
    quote,
    cart,
    shippingOption,
    coupon: couponRule,
    fields,
    email: checkedEmail.ok ? checkedEmail.value : email,
    address,
    giftCards,
  };
}

async function couponUsage(
  db: Db,
  siteId: string,
  coupon: CouponRule,
  email: string,
): Promise<{ usesSoFar: number; usedByEmail: boolean }> {
  const code = normalizeCouponCode(coupon.code);
  const usage = (await selectCouponUses.execute(db, { siteId, code })).rows[0];
  let usedByEmail = false;
  if (coupon.oncePerEmail && email !== '') {
    const used = (await selectCouponEmailUse.execute(db, { siteId, code, email: email.toLowerCase() })).rows[0];
    usedByEmail = used !== undefined;
  }
  return { usesSoFar: usage?.uses ?? 0, usedByEmail };
}

// The statements of an order are built once (src/platform/db/sqlite/compiledQuery.ts), not on every order.

const selectCouponUses = compiledQuery((db, v: { siteId: string; code: string }) =>
  db.selectFrom('coupon_usage').select('uses').where('site_id', '=', v.siteId).where('code', '=', v.code),
);

const selectCouponEmailUse = compiledQuery((db, v: { siteId: string; code: string; email: string }) =>
  db
    .selectFrom('coupon_email_uses')
    .select('order_id')
    .where('site_id', '=', v.siteId)
    .where('code', '=', v.code)
    .where('email', '=', v.email),
);

// ---------------------------------------------------------------- placing the order

/** Places the order (payment, stock, coupon, order rows, e-mails); the same idempotency key never makes a second order. */
export async function placeOrder(
  db: Db,
  site: Site,
  cartToken: string | undefined,
  input: PlaceOrderInput,
  ctx: CheckoutContext,
): Promise<Result<PlacedOrder, CheckoutFailure>> {
  const now = ctx.now ?? new Date();
  const site_ = cartSite(site);

  // A request we have seen answers its outcome, whatever it is (after waiting for it if it is still running). Its
  // attempt is looked for when this request would be refused before writing its own (a retry of a placed order finds
  // its cart bought), and when writing its own finds it: a new key, every order but a retry, costs no look-up.
  const refuse = async (failure: CheckoutFailure): Promise<Result<PlacedOrder, CheckoutFailure>> => {
    const seen = await waitForAttempt(db, site.id, input.idempotencyKey);
    return seen ? outcomeOf(db, site, seen, input, cartToken) : err(failure);
  };

  const cart = await readCheckoutCart(db, site_, cartToken);
  if (!cart || cart.shoppingCart.entries.length === 0)
    return refuse({ type: 'EMPTY_CART', message: CHECKOUT_MESSAGES.emptyCart });
  // A gift card is issued only by its own checkout: charging for one here would issue nothing.
  const giftCardLines = ctx.issuesGiftCards ? [] : cart.lines.filter((l) => l.productType === ProductType.GIFT_CARD);
  if (giftCardLines.length > 0) {
    return refuse({
      type: 'INVALID_DETAILS',
      message: CHECKOUT_MESSAGES.giftCardInCart,
      lines: giftCardLines.map(({ entry }) => ({
        entryId: entry.id,
        sku: entry.chosenVariant.sku,
        message: CHECKOUT_MESSAGES.giftCardInCart,
      })),
    });
  }
  const checks: ChoiceChecks = {};
  const priced = await price(db, site, cart, input, now, checks);
  const refused = refusalOf(priced);
  if (refused) return refuse(refused);
  const soldOut = soldOutLines(cart);
  if (soldOut.length > 0) return refuse(outOfStock(soldOut));

  // What the payment provider is asked for: the total less what the gift cards pay.
  const amount = priced.quote.amountDueCents;
  const attempt = await beginAttempt(db, {
    siteId: site.id,
    idempotencyKey: input.idempotencyKey,
    requestHash: requestHash(cart.cart.id, input),
    cartId: cart.cart.id,
    provider: ctx.payments.name,
    amount,
    currency: currencyOf(site),
    now,
  });
  // Another request with this key got there first: its outcome is ours.
  if (!attempt.created)
    return outcomeOf(db, site, await waitForAttempt(db, site.id, input.idempotencyKey), input, cartToken);

  // Gift cards pay it all: no payment service is asked for anything (a manual provider would await a payment).
  const paidByGiftCards = amount === 0 && priced.giftCards.applied.length > 0;
  const authorized = paidByGiftCards
    ? freeAuthorization(attempt.attempt.id)
    : await ctx.payments.authorize({
        amount,
        currency: currencyOf(site),
        idempotencyKey: attempt.attempt.id,
        method: input.payment,
        email: priced.email,
        description: `${site.title} — order`,
        now,
      });
  if (authorized.status === 'declined' || authorized.status === 'failed') {
    const failure: CheckoutFailure =
      authorized.status === 'declined'
        ? {
            type: 'PAYMENT_DECLINED',
            message: authorized.message,
            fields: { [authorized.field ?? 'payment']: authorized.message },
          }
        : {
            type: 'PAYMENT_FAILED',
            message: CHECKOUT_MESSAGES.paymentFailed,
            fields: { payment: CHECKOUT_MESSAGES.paymentFailed },
          };
    await recordAttemptFailure(db, attempt.attempt.id, authorized.status, failure, new Date());
    return err(failure);
  }
  // Remembered before the order's transaction: should this process die now, the reconcile job voids it.
  await rememberReference(db, attempt.attempt.id, authorized.reference);
  // PostgreSQL: the order's number is taken before its transaction, in a statement of its own, so the site's counter
  // row is locked for that statement only, not for the order's whole transaction (every order of the shop would wait
  // for the one before it to commit: issue 27). An order refused in its transaction leaves its number unused. SQLite
  // has one writer: the number is taken inside, as before.
  const number = engineOf(db) === 'postgres' ? await takeOrderNumber(db, site.id) : undefined;

  const placed = await inTransaction<PlacedOrder, CheckoutFailure>(db, async (trx) => {
    const orderId = newOrderId();
    // The cart locked, its lines read after the lock, and the cart marked bought by this order (undone with the rest
    // when the order is refused below): on PostgreSQL one statement unless the cart was written meanwhile.
    const locked = await takeCheckoutCart(trx, site_, cart.cart.id, orderId, now.toISOString());
    if (!locked) return err({ type: 'CART_CHANGED', message: CHECKOUT_MESSAGES.cartChanged });
    const again = await price(trx, site, locked, input, now, checks);
    const refusedNow = refusalOf(again);
    if (refusedNow) return err(refusedNow);
    if (again.quote.totals.grandTotalCents !== priced.quote.totals.grandTotalCents)
      return err({ type: 'CART_CHANGED', message: CHECKOUT_MESSAGES.cartChanged });
    if (again.quote.amountDueCents !== amount) return err(giftCardBalanceChanged());

    // The rows every order of the shop or of a product waits for (the site's order counter, a best seller's stock)
    // are written last, so that each is held for the fewest round trips before the commit (PostgreSQL's row locks:
    // an order taking a variant's last units holds it until it commits, and the next order for it waits that long).
    // What only this order writes comes first.
    const manual = authorized.status === 'awaiting-payment';
    await finishAttempt(
      trx,
      attempt.attempt.id,
      { status: manual ? 'awaiting-payment' : 'authorized', orderId, reference: authorized.reference },
      now,
    );
    if (again.coupon) {
      const used = await useCoupon(trx, site.id, again.coupon, again.email, attempt.attempt.id);
      if (!used.ok) return used;
    }

    const order = await createOrder(trx, {
      id: orderId,
      ...(number !== undefined ? { number } : {}),
      siteId: site.id,
      cartId: locked.cart.id,
      email: again.email,
      status: manual ? 'awaiting-payment' : 'paid',
      currency: currencyOf(site),
      totals: again.quote.totals,
      shippingAddress: again.address,
      shippingOption: again.shippingOption,
      couponCode: again.coupon ? normalizeCouponCode(again.coupon.code) : null,
      paymentProvider: ctx.payments.name,
      lines: locked.lines.map(({ entry, productType, image }) => ({
        itemId: entry.itemId,
        sku: entry.chosenVariant.sku,
        title: entry.title,
        productType: productType ?? ProductType.PHYSICAL,
        attributes: entry.chosenVariant.attributes,
        additionalFields: entry.additionalFields,
        additionalFieldsSummary: entry.additionalFieldsSummary,
        image,
        quantity: entry.quantity,
        unitPrice: entry.purchasePriceCents,
        lineTotal: entry.subTotal,
      })),
      now,
    });
    if (again.coupon) await linkCouponUse(trx, site.id, again.coupon, again.email, order.id);
    // Conditional decrements: of orders racing for one balance, one spends it and the others roll back whole.
    if (!(await spendGiftCards(trx, order.id, again.giftCards.applied, now))) return err(giftCardBalanceChanged());
    if (ctx.withinOrder) {
      const added = await ctx.withinOrder(trx, order, locked);
      if (!added.ok) return added;
    }
    await enqueueOrderEmails(trx, site, order, ctx.orderUrl(order.id), ctx.adminOrigin);
    const stock = await takeStock(trx, site.id, locked, orderId);
    if (!stock.ok) return stock;
    return ok({ order });
  });

  if (!placed.ok) {
    // Nothing of the order remains; the money must not either.
    const voided = await ctx.payments.void(authorized.reference, `${attempt.attempt.id}:void`);
    await recordAttemptFailure(
      db,
      attempt.attempt.id,
      voided.ok ? 'voided' : 'failed',
      placed.error,
      new Date(),
      authorized.reference,
    );
    return placed;
  }
  if (authorized.status === 'authorized') {
    const captured = await ctx.payments.capture(authorized.reference, amount, `${attempt.attempt.id}:capture`);
    if (captured.ok) await finishAttempt(db, attempt.attempt.id, { status: 'captured' }, new Date());
  }
  return placed;
}

/** The first reason the priced choices cannot be ordered, or null. */
function refusalOf(priced: Priced): CheckoutFailure | null {
  const { quote, fields } = priced;
  if (quote.cart.entries.length === 0) return { type: 'EMPTY_CART', message: CHECKOUT_MESSAGES.emptyCart };
  if (quote.minimumSubtotalMessage) return { type: 'BELOW_MINIMUM', message: quote.minimumSubtotalMessage };
  if (Object.keys(fields).length === 0) return null;
  const onlyCoupon = Object.keys(fields).length === 1 && fields.couponCode !== undefined;
  if (onlyCoupon) return { type: 'INVALID_COUPON', message: fields.couponCode!, fields };
  const onlyGiftCard = Object.keys(fields).length === 1 && fields.giftCardCode !== undefined;
  if (onlyGiftCard) return { type: 'INVALID_GIFT_CARD', message: fields.giftCardCode!, fields };
  return { type: 'INVALID_DETAILS', message: CHECKOUT_MESSAGES.fixDetails, fields };
}

const giftCardBalanceChanged = (): CheckoutFailure => ({
  type: 'INVALID_GIFT_CARD',
  message: GIFT_CARD_MESSAGES.balanceChanged,
  fields: { giftCardCode: GIFT_CARD_MESSAGES.balanceChanged },
});

/** What a seen attempt ended with, for a retried or concurrent request with the same key. */
async function outcomeOf(
  db: Db,
  site: Site,
  attempt: PaymentAttempt | undefined,
  input: PlaceOrderInput,
  cartToken: string | undefined,
): Promise<Result<PlacedOrder, CheckoutFailure>> {
  if (!attempt || attempt.status === 'pending')
    return err({ type: 'IN_PROGRESS', message: CHECKOUT_MESSAGES.inProgress });
  if (
    attempt.requestHash !== requestHash(attempt.cartId, input) ||
    (cartToken !== undefined && cartToken !== attempt.cartId)
  ) {
    return err({ type: 'IDEMPOTENCY_MISMATCH', message: CHECKOUT_MESSAGES.idempotencyMismatch });
  }
  if (attempt.orderId) {
    const order = await getOrder(db, site.id, attempt.orderId);
    if (order) return ok({ order });
  }
  return err(attempt.failure ?? { type: 'PAYMENT_FAILED', message: CHECKOUT_MESSAGES.paymentFailed });
}

/** What makes two requests "the same order": the cart and the shopper's choices (never card data). */
function requestHash(cartId: string, input: CheckoutChoices): string {
  const address = input.shippingAddress ?? {};
  const canonical = JSON.stringify([
    cartId,
    (input.email ?? '').trim().toLowerCase(),
    Object.keys(address)
      .sort()
      .map((k) => [k, String((address as Record<string, unknown>)[k] ?? '').trim()]),
    input.shippingOptionId ?? '',
    normalizeCouponCode(input.couponCode ?? ''),
    (input.giftCardCodes ?? []).map(normalizeGiftCardCode),
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

// ---------------------------------------------------------------- stock

/** Units wanted per sku whose stock is counted (physical goods and services; digital goods and gift cards never run out). */
function unitsBySku(cart: CheckoutCart): Map<string, { quantity: number; entryIds: string[] }> {
  const wanted = new Map<string, { quantity: number; entryIds: string[] }>();
  for (const { entry, productType } of cart.lines) {
    if (productType !== ProductType.PHYSICAL && productType !== ProductType.SERVICE) continue;
    const sku = entry.chosenVariant.sku;
    const held = wanted.get(sku) ?? { quantity: 0, entryIds: [] };
    held.quantity += entry.quantity;
    held.entryIds.push(entry.id);
    wanted.set(sku, held);
  }
  return wanted;
}

/**
 * The lines whose sku has less stock than the cart holds, from the stock read with the cart (readCheckoutCart: no read
 * of its own; the transaction decides for real).
 */
function soldOutLines(cart: CheckoutCart): CheckoutFailure['lines'] & object {
  const wanted = unitsBySku(cart);
  if (wanted.size === 0) return [];
  const stock = new Map(cart.lines.map((line) => [line.entry.chosenVariant.sku, line.stock]));
  const lines: NonNullable<CheckoutFailure['lines']> = [];
  for (const [sku, { quantity, entryIds }] of wanted) {
    const row = stock.get(sku);
    if (row && (row.unlimited || row.qtyInStock >= quantity)) continue;
    for (const entryId of entryIds) lines.push({ entryId, sku, message: CHECKOUT_MESSAGES.outOfStock });
  }
  return lines;
}

const outOfStock = (lines: NonNullable<CheckoutFailure['lines']>): CheckoutFailure => ({
  type: 'OUT_OF_STOCK',
  message: lines.length === 1 ? CHECKOUT_MESSAGES.outOfStock : CHECKOUT_MESSAGES.someLinesSoldOut,
  lines,
});

/**
 * Takes the stock of every counted sku with one conditional decrement each (`qty_in_stock >= n`), inside the order's
 * transaction: of two orders racing for the last unit exactly one decrement matches; the other order rolls back.
 */
async function takeStock(
  trx: Db,
  siteId: string,
  cart: CheckoutCart,
  orderId: string,
): Promise<Result<void, CheckoutFailure>> {
  const failed: NonNullable<CheckoutFailure['lines']> = [];
  // In code-point order of the SKUs, as an import locks them (sites.ts `liveStock`) and as every other order takes
  // them: two PostgreSQL transactions never each hold a row the other waits for. Failures keep the cart's order.
  const units = [...unitsBySku(cart)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [sku, { quantity, entryIds }] of units) {
    if (await catalog.takeStock(trx, siteId, sku, quantity, { reason: 'sale', orderId })) continue;
    for (const entryId of entryIds) failed.push({ entryId, sku, message: CHECKOUT_MESSAGES.outOfStock });
  }
  const cartOrder = new Map(cart.lines.map(({ entry }, i) => [entry.id, i]));
  failed.sort((a, b) => (cartOrder.get(a.entryId) ?? 0) - (cartOrder.get(b.entryId) ?? 0));
  return failed.length === 0 ? ok(undefined) : err(outOfStock(failed));
}

// ---------------------------------------------------------------- coupons

/**
 * Counts a coupon use inside the order's transaction: a limited coupon's counter only moves while below its limit
 * (conditional update), and a once-per-e-mail coupon claims the (code, e-mail) key — so neither is ever exceeded.
 */
async function useCoupon(
  trx: Db,
  siteId: string,
  coupon: CouponRule,
  email: string,
  claim: string,
): Promise<Result<void, CheckoutFailure>> {
  const code = normalizeCouponCode(coupon.code);
  await insertCouponUsage.execute(trx, { siteId, code });
  const counted =
    coupon.usageLimit === undefined
      ? await countCouponUse.execute(trx, { siteId, code })
      : await countLimitedCouponUse.execute(trx, { siteId, code, usageLimit: coupon.usageLimit });
  const usedUp = (): Result<void, CheckoutFailure> =>
    err({ type: 'INVALID_COUPON', message: COUPON_MESSAGES.usedUp, fields: { couponCode: COUPON_MESSAGES.usedUp } });
  if (Number(counted.numAffectedRows ?? 0) === 0) return usedUp();
  if (coupon.oncePerEmail) {
    const claimed = await claimCouponEmailUse.execute(trx, {
      siteId,
      code,
      email: email.toLowerCase(),
      orderId: claim,
    });
    if (Number(claimed.numAffectedRows ?? 0) === 0) {
      return err({
        type: 'INVALID_COUPON',
        message: COUPON_MESSAGES.alreadyUsed,
        fields: { couponCode: COUPON_MESSAGES.alreadyUsed },
      });
    }
  }
  return ok(undefined);
}

/** The once-per-e-mail claim was written before the order existed: point it at the order. */
async function linkCouponUse(
  trx: Db,
  siteId: string,
  coupon: CouponRule,
  email: string,
  orderId: string,
): Promise<void> {
  if (!coupon.oncePerEmail) return;
  await linkCouponEmailUse.execute(trx, {
    siteId,
    code: normalizeCouponCode(coupon.code),
    email: email.toLowerCase(),
    orderId,
  });
}

const insertCouponUsage = compiledQuery((db, v: { siteId: string; code: string }) =>
  db
    .insertInto('coupon_usage')
    .values({ site_id: v.siteId, code: v.code, uses: 0 })
    .onConflict((oc) => oc.columns(['site_id', 'code']).doNothing()),
);

const countCouponUse = compiledQuery((db, v: { siteId: string; code: string }) =>
  db
    .updateTable('coupon_usage')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('site_id', '=', v.siteId)
    .where('code', '=', v.code),
);

/** A limited coupon's counter moves only while below its limit. */
const countLimitedCouponUse = compiledQuery((db, v: { siteId: string; code: string; usageLimit: number }) =>
  db
    .updateTable('coupon_usage')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('site_id', '=', v.siteId)
    .where('code', '=', v.code)
    .where('uses', '<', v.usageLimit),
);

const claimCouponEmailUse = compiledQuery((db, v: { siteId: string; code: string; email: string; orderId: string }) =>
  db
    .insertInto('coupon_email_uses')
    .values({ site_id: v.siteId, code: v.code, email: v.email, order_id: v.orderId })
    .onConflict((oc) => oc.columns(['site_id', 'code', 'email']).doNothing()),
);

const linkCouponEmailUse = compiledQuery((db, v: { siteId: string; code: string; email: string; orderId: string }) =>
  db
    .updateTable('coupon_email_uses')
    .set({ order_id: v.orderId })
    .where('site_id', '=', v.siteId)
    .where('code', '=', v.code)
    .where('email', '=', v.email),
);

// ---------------------------------------------------------------- helpers

const currencyOf = (site: Site): CurrencyCode => parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
const cartSite = (site: Site) => ({ id: site.id, currency: site.currency });
