/**
 * The subscription checkout (/checkout/subscribe?cartToken=…): the subscription cart's quote with its plan's wording,
 * and placing it. Placing is the checkout's placeOrder (payment, stock, order, e-mails, idempotency) with the
 * subscription written inside the order's transaction (`withinOrder`): the plan, the next billing date in the site's
 * time zone, and the payment method the provider kept for the renewals. The first period is that order.
 */
import type { Kysely } from 'kysely';
import { checkShippingAddress } from '../../core/checkout/address';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { validateEmail } from '../../core/email';
import { formatMoney } from '../../core/money';
import { err, ok, type Result } from '../../core/result';
import { planPriceText } from '../../core/subscriptionPlan';
import { afterPeriod, billingDate, billingDateText } from '../../core/subscriptionSchedule';
import type { Database } from '../../platform/db/tables';
import { randomToken } from '../../platform/randomToken';
import { getProduct } from '../catalog';
import { CHECKOUT_MESSAGES, placeOrder, quoteCheckout } from '../checkout';
import { enqueueEmail } from '../../platform/mail/outbox';
import type { CheckoutChoices, CheckoutFailure, CheckoutQuote, Order, PlaceOrderInput } from '../orders';
import type { PaymentProvider } from '../payments';
import type { Site } from '../site';
import { subscriptionEmail } from './mail';
import { cancelPath, newCancelToken } from './links';
import { productSubscription } from './plans';
import { getSubscriptionByFirstOrder, subscriptionFromRow, type Subscription } from './store';

type Db = Kysely<Database>;

export const SUBSCRIPTION_CHECKOUT_MESSAGES = {
  noSubscriptions: 'This shop cannot take subscription payments at the moment. You have not been charged.',
  changed: 'This subscription changed while you were checking out. Please subscribe again from the product page.',
} as const;

export interface SubscriptionCheckout {
  quote: CheckoutQuote;
  /** The plan's wording for what one period costs before shipping and tax: '$13.00 every 2 weeks'. */
  planText: string;
  productName: string;
}

interface SubscriptionCartRow {
  cart_id: string;
  item_id: string;
  sku: string;
  subscription_option_id: string | null;
  is_purchased: number;
}

async function findSubscriptionCart(
  db: Db,
  siteId: string,
  cartToken: string | undefined,
): Promise<SubscriptionCartRow | undefined> {
  if (typeof cartToken !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(cartToken)) return undefined;
  return db
    .selectFrom('subscription_carts as s')
    .innerJoin('carts as c', 'c.id', 's.cart_id')
    .select(['s.cart_id', 's.item_id', 's.sku', 's.subscription_option_id', 'c.is_purchased'])
    .where('s.cart_id', '=', cartToken)
    .where('s.site_id', '=', siteId)
    .where('c.site_id', '=', siteId)
    .executeTakeFirst();
}

const currencyOf = (site: Site) => parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;

/** The page's data for an open subscription cart; undefined when the token names none (unknown, bought, expired). */
export async function readSubscriptionCheckout(
  db: Db,
  site: Site,
  cartToken: string | undefined,
  choices: CheckoutChoices,
): Promise<SubscriptionCheckout | undefined> {
  const cart = await findSubscriptionCart(db, site.id, cartToken);
  if (!cart || cart.is_purchased === 1) return undefined;
  const quote = await quoteCheckout(db, site, cart.cart_id, withoutCoupon(choices));
  const entry = quote.cart.entries[0];
  const product = await getProduct(db, site.id, cart.item_id);
  const subscription = product && productSubscription(product, currencyOf(site));
  if (!entry || !product || !subscription) return undefined;
  return {
    quote,
    planText: planPriceText(subscription.plan, { minorUnits: entry.subTotal, currency: currencyOf(site) }),
    productName: product.name,
  };
}

export interface PlaceSubscriptionContext {
  payments: PaymentProvider;
  /** https://host of the shop as the shopper used it: the e-mails' links. */
  baseUrl: string;
  orderPath: (orderId: string) => string;
  now?: Date;
}

/** A subscription checkout has no coupon field: a coupon would discount the first period only, which it never says. */
const withoutCoupon = <T extends CheckoutChoices>(choices: T): T => {
  const { couponCode: _ignored, ...rest } = choices;
  return rest as T;
};

/** Places the subscription: its first period's order and the subscription, or nothing (and no money kept). */
export async function placeSubscription(
  db: Db,
  site: Site,
  cartToken: string | undefined,
  input: PlaceOrderInput,
  ctx: PlaceSubscriptionContext,
): Promise<Result<{ order: Order; subscription: Subscription }, CheckoutFailure>> {
  const now = ctx.now ?? new Date();
  const cart = await findSubscriptionCart(db, site.id, cartToken);
  if (!cart) return err({ type: 'EMPTY_CART', message: CHECKOUT_MESSAGES.emptyCart });
  const { payments } = ctx;
  if (!payments.savePaymentMethod || !payments.chargeSavedMethod) {
    return err({
      type: 'PAYMENT_FAILED',
      message: SUBSCRIPTION_CHECKOUT_MESSAGES.noSubscriptions,
      fields: { payment: SUBSCRIPTION_CHECKOUT_MESSAGES.noSubscriptions },
    });
  }
  const choices = withoutCoupon(input);

  // The payment method is kept only for details the order will take (the order's own checks come next, and refuse
  // anything else before any payment is asked for).
  let saved: { token: string; firstPayment: Record<string, string> } | undefined;
  if (cart.is_purchased === 0 && (await detailsLookUsable(db, site, cart.cart_id, choices))) {
    const outcome = await payments.savePaymentMethod({
      method: input.payment,
      email: (input.email ?? '').trim(),
      idempotencyKey: input.idempotencyKey,
      now,
    });
    if (outcome.status === 'declined')
      return err({
        type: 'PAYMENT_DECLINED',
        message: outcome.message,
        fields: { [outcome.field ?? 'payment']: outcome.message },
      });
    if (outcome.status === 'failed')
      return err({
        type: 'PAYMENT_FAILED',
        message: CHECKOUT_MESSAGES.paymentFailed,
        fields: { payment: CHECKOUT_MESSAGES.paymentFailed },
      });
    saved = outcome;
  }

  const placed = await placeOrder(
    db,
    site,
    cart.cart_id,
    { ...choices, payment: saved?.firstPayment ?? input.payment },
    {
      payments,
      orderUrl: (id) => ctx.baseUrl + ctx.orderPath(id),
      now,
      withinOrder: async (trx, order, checkoutCart) => {
        const line = order.lines[0];
        if (
          !saved ||
          !line ||
          order.lines.length !== 1 ||
          checkoutCart.lines.length !== 1 ||
          line.itemId !== cart.item_id ||
          line.sku !== cart.sku
        ) {
          return err({
            type: 'CART_CHANGED',
            message: saved ? SUBSCRIPTION_CHECKOUT_MESSAGES.changed : CHECKOUT_MESSAGES.fixDetails,
          });
        }
        const product = await getProduct(trx, site.id, cart.item_id);
        const subscription = product && productSubscription(product, currencyOf(site));
        if (!subscription) return err({ type: 'CART_CHANGED', message: SUBSCRIPTION_CHECKOUT_MESSAGES.changed });
        await writeSubscription(trx, site, {
          order,
          cart,
          plan: subscription.plan,
          paymentMethod: saved.token,
          provider: payments.name,
          baseUrl: ctx.baseUrl,
          orderPath: ctx.orderPath,
          now,
        });
        return ok(undefined);
      },
    },
  );
  if (!placed.ok) return placed;
  const subscription = await getSubscriptionByFirstOrder(db, site.id, placed.value.order.id);
  if (!subscription) throw new Error(`order ${placed.value.order.id} was placed without its subscription`);
  return ok({ order: placed.value.order, subscription });
}

/** The e-mail, address and shipping checks of the order (core rules), without writing or paying anything. */
async function detailsLookUsable(db: Db, site: Site, cartId: string, choices: CheckoutChoices): Promise<boolean> {
  if (!validateEmail((choices.email ?? '').trim()).ok) return false;
  const quote = await quoteCheckout(db, site, cartId, choices);
  if (quote.cart.entries.length !== 1 || quote.minimumSubtotalMessage) return false;
  if (!quote.requiresShipping) return true;
  return (
    quote.selectedShippingOptionId !== null &&
    checkShippingAddress(choices.shippingAddress ?? {}, site.settings.store.checkout.shipsTo).ok
  );
}

async function writeSubscription(
  trx: Db,
  site: Site,
  input: {
    order: Order;
    cart: SubscriptionCartRow;
    plan: { billingPeriod: { value: number; unit: 'WEEK' | 'MONTH' | 'YEAR' }; numBillingCycles: number };
    paymentMethod: string;
    provider: string;
    baseUrl: string;
    orderPath: (orderId: string) => string;
    now: Date;
  },
): Promise<void> {
  const { order, plan, now } = input;
  const { position: _position, ...line } = order.lines[0]!;
  const timeZone = site.settings.timeZone;
  const { completed } = afterPeriod(1, plan.numBillingCycles);
  const next = completed ? null : billingDate(now, plan.billingPeriod, 2, timeZone);
  const id = randomToken(16);
  const stamp = now.toISOString();
  const row = await trx
    .insertInto('subscriptions')
    .values({
      id,
      site_id: site.id,
      status: completed ? 'completed' : 'active',
      email: order.email,
      item_id: line.itemId,
      sku: line.sku,
      quantity: line.quantity,
      unit_price: line.unitPrice,
      currency: order.currency,
      line: JSON.stringify(line),
      subscription_option_id: input.cart.subscription_option_id,
      billing_unit: plan.billingPeriod.unit,
      billing_value: plan.billingPeriod.value,
      num_billing_cycles: plan.numBillingCycles,
      shipping_address: order.shippingAddress ? JSON.stringify(order.shippingAddress) : null,
      shipping_option_id: order.shippingOption?.id ?? null,
      payment_provider: input.provider,
      payment_method: input.paymentMethod,
      cart_id: input.cart.cart_id,
      first_order_id: order.id,
      base_url: input.baseUrl,
      periods_billed: 1,
      started_at: stamp,
      next_billing_at: next ? next.toISOString() : null,
      cancelled_at: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('subscription_bills')
    .values({
      id: randomToken(16),
      subscription_id: id,
      period_number: 1,
      status: order.status === 'awaiting-payment' ? 'awaiting-payment' : 'paid',
      amount: order.grandTotalCents,
      order_id: order.id,
      locked_until: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  const subscription = subscriptionFromRow(row);
  const token = await newCancelToken(trx, id, now);
  const email = subscriptionEmail('started', subscription, {
    siteTitle: site.title,
    cancelUrl: input.baseUrl + cancelPath(token),
    order: {
      number: order.number,
      url: input.baseUrl + input.orderPath(order.id),
      total: formatMoney({ minorUnits: order.grandTotalCents, currency: currencyOf(site) }),
      awaitingPayment: order.status === 'awaiting-payment',
    },
    nextBilling: next ? billingDateText(next, timeZone) : null,
  });
  await enqueueEmail(
    trx,
    { siteId: site.id, kind: 'subscription-started', to: order.email, ...email, orderId: order.id },
    now,
  );
}
