/**
 * The checkout's page bodies, rendered on the server inside the site's chrome: the checkout page (201), the
 * order-confirmed page (202) and the express-checkout refusal (§2 'Unable to Purchase Item').
 */
import { purchaseEvent } from '../../core/checkout/purchaseEvent';
import { ADD_TO_CART_MESSAGES, ALERT_TITLES } from '../../core/addToCartErrors';
import { formatAddressLines } from '../../core/checkout/address';
import { parseCurrencyCode, DEFAULT_CURRENCY } from '../../core/currency';
import type { CheckoutFormProps } from '../../client/checkout/CheckoutForm';
import { EmptyCheckout } from '../../client/checkout/CheckoutForm';
import type { Order } from '../../modules/orders/orderTypes';
import { CheckoutIsland } from './CheckoutIsland';
import { SummaryLines, SummaryTotals } from './OrderSummary';

/** Checkout (page type 201): the form island, or the §8 empty-cart text. */
export function CheckoutPage({ form, shopPath }: { form: CheckoutFormProps | null; shopPath: string }) {
  return (
    <div className="checkout-page">
      <h1>Checkout</h1>
      {form ? <CheckoutIsland name="CheckoutForm" id="checkout" props={form} /> : <EmptyCheckout shopPath={shopPath} />}
    </div>
  );
}

/** Order confirmed (page type 202): what was bought, what it cost, where it goes, and how to pay if not yet paid. */
export function OrderConfirmedPage({
  order,
  siteId,
  manualInstructions,
  shopPath,
  subscription,
  giftCards = [],
  giftCardsBought = [],
}: {
  order: Order;
  /** The gift cards that paid part of the order (last four, amount). */
  giftCards?: readonly { lastFour: string; amountCents: number }[];
  /** The gift cards the order bought: for whom, the message, and what became of the e-mail (core deliveryNote). */
  giftCardsBought?: readonly { recipientName: string; message: string; note: string }[];
  siteId: string;
  /** The store's text for an order awaiting a manual payment. */
  manualInstructions: string;
  shopPath: string;
  /** The subscription the order is a period of: its plan's wording and next billing date. */
  subscription?: { planText: string; nextBilling: string | null };
}) {
  const currency = parseCurrencyCode(order.currency) ?? DEFAULT_CURRENCY;
  const lines = order.lines.map((l) => ({
    id: String(l.position),
    title: l.title,
    attributes: l.attributes,
    answers: l.additionalFieldsSummary,
    quantity: l.quantity,
    lineTotal: l.lineTotal,
    image: l.image,
  }));
  return (
    // The §7 purchase event, made from the stored order, for the analytics module to send (data, not a script).
    <div className="checkout-page order-confirmed" data-purchase-event={JSON.stringify(purchaseEvent(order))}>
      <h1>Thank you for your order</h1>
      <p className="order-confirmed__number">
        Order number <strong>{order.number}</strong>
      </p>
      <p>
        We sent a confirmation to <strong>{order.email}</strong>.
      </p>
      {subscription ? (
        <p className="order-confirmed__subscription">
          Subscription: <strong className="order-confirmed__plan">{subscription.planText}</strong>
          {subscription.nextBilling ? <> · Next billing date: {subscription.nextBilling}</> : null}
        </p>
      ) : null}
      {order.status === 'awaiting-payment' ? (
        <section className="checkout-notice" aria-labelledby="order-payment">
          <h2 id="order-payment">How to pay</h2>
          <p>{manualInstructions}</p>
        </section>
      ) : null}
      <div className="order-confirmed__grid">
        <section className="checkout__summary" aria-labelledby="order-items">
          <h2 id="order-items">Order summary</h2>
          <SummaryLines lines={lines} siteId={siteId} currency={currency} />
          <SummaryTotals
            totals={order}
            currency={currency}
            requiresShipping={order.shippingOption !== null}
            couponCode={order.couponCode}
            giftCards={giftCards}
            amountDueCents={order.grandTotalCents - giftCards.reduce((sum, card) => sum + card.amountCents, 0)}
            dueLabel={order.status === 'awaiting-payment' ? 'Left to pay' : 'Charged to card'}
          />
        </section>
        {giftCardsBought.length > 0 ? (
          <section className="order-confirmed__gift-cards" aria-labelledby="order-gift-cards">
            <h2 id="order-gift-cards">{giftCardsBought.length === 1 ? 'Gift card' : 'Gift cards'}</h2>
            {giftCardsBought.map((card, i) => (
              <div className="order-confirmed__gift-card" key={i}>
                <p>
                  <span className="order-confirmed__label">For:</span> {card.recipientName}
                </p>
                <p>{card.note}</p>
                {card.message ? (
                  <figure className="order-confirmed__gift-message">
                    <figcaption className="order-confirmed__label">Your message:</figcaption>
                    <blockquote>{card.message}</blockquote>
                  </figure>
                ) : null}
              </div>
            ))}
          </section>
        ) : null}
        {order.shippingAddress ? (
          <section className="order-confirmed__shipping" aria-labelledby="order-shipping">
            <h2 id="order-shipping">Shipping address</h2>
            <address>
              {formatAddressLines(order.shippingAddress).map((line, i) => (
                <span className="order-confirmed__address-line" key={i}>
                  {line}
                </span>
              ))}
            </address>
            {order.shippingOption ? (
              <p>
                <span className="order-confirmed__label">Shipping method:</span> {order.shippingOption.name}
              </p>
            ) : null}
          </section>
        ) : null}
      </div>
      <p>
        <a className="button" href={shopPath}>
          Continue shopping
        </a>
      </p>
    </div>
  );
}

/** §2/§5: express checkout reached without a cart (no cookie, or the session is gone). */
export function PurchaseRefusedPage({ shopPath }: { shopPath: string }) {
  return (
    <div className="checkout-page">
      <div className="checkout-alert checkout-alert--page" role="alert" aria-labelledby="purchase-refused">
        <h1 id="purchase-refused" className="checkout-alert__title">
          {ALERT_TITLES.purchaseItem}
        </h1>
        <p>{ADD_TO_CART_MESSAGES.expressCheckoutNoSession}</p>
        <p>
          <a className="button" href={shopPath}>
            Back to the shop
          </a>
        </p>
      </div>
    </div>
  );
}
