/**
 * What an order is made of, as the checkout page and the order-confirmed page show it: the lines (image, title,
 * variant, form answers, quantity, line price) and the totals. Amounts come from the server, computed with the
 * core's rules; this only formats them.
 */
import type { CheckoutTotals } from '../../core/checkout/types';
import type { CurrencyCode } from '../../core/currency';
import { maskedGiftCard } from '../../core/giftCard/code';
import { formatMoney } from '../../core/money';
import { ResponsiveImage } from '../ResponsiveImage';
import { lineErrorId } from './formValues';

export interface SummaryLine {
  /** The cart entry's id (the checkout's sold-out messages name it), or the order line's position. */
  id: string;
  title: string;
  attributes: Record<string, string>;
  answers: { title: string; lines: string[] }[];
  quantity: number;
  lineTotal: number;
  image: { file: string; altText: string } | null;
}

export const money = (minorUnits: number, currency: CurrencyCode): string => formatMoney({ minorUnits, currency });

/** The label of a shipping amount: 'Free' for nothing to pay. */
export const shippingAmountText = (amount: number, currency: CurrencyCode): string =>
  amount === 0 ? 'Free' : money(amount, currency);

export function SummaryLines({
  lines,
  siteId,
  currency,
  lineErrors = {},
}: {
  lines: readonly SummaryLine[];
  siteId: string;
  currency: CurrencyCode;
  /** Entry id → the message shown on that line (sold out since it was added). */
  lineErrors?: Readonly<Record<string, string>>;
}) {
  return (
    <ul className="summary-lines">
      {lines.map((line) => {
        const error = lineErrors[line.id];
        return (
          <li key={line.id} className={`summary-line${error ? ' summary-line--error' : ''}`}>
            <div className="summary-line__image">
              {line.image ? (
                <ResponsiveImage
                  siteId={siteId}
                  image={{ file: line.image.file, altText: line.image.altText, focalPoint: { x: 0.5, y: 0.5 } }}
                  sizes="4rem"
                  displayWidth={100}
                />
              ) : null}
            </div>
            <div className="summary-line__main">
              <p className="summary-line__title">{line.title}</p>
              {Object.entries(line.attributes).map(([name, value]) => (
                <p className="summary-line__detail" key={name}>
                  {name}: {value}
                </p>
              ))}
              {line.answers.map((answer, i) => (
                <p className="summary-line__detail" key={`answer-${i}`}>
                  {answer.title}: {answer.lines.join(', ')}
                </p>
              ))}
              <p className="summary-line__detail">Quantity: {line.quantity}</p>
              {error ? (
                <p className="field__error" id={lineErrorId(line.id)}>
                  {error}
                </p>
              ) : null}
            </div>
            <p className="summary-line__total">{money(line.lineTotal, currency)}</p>
          </li>
        );
      })}
    </ul>
  );
}

/** Subtotal, Discount, Shipping, Tax (or 'Includes {tax}'), Total. */
export function SummaryTotals({
  totals,
  currency,
  requiresShipping,
  couponCode,
  shippingPending = false,
  giftCards = [],
  amountDueCents,
  dueLabel = 'Left to pay',
}: {
  totals: CheckoutTotals;
  currency: CurrencyCode;
  requiresShipping: boolean;
  couponCode: string | null;
  /** No shipping option can be chosen yet (no options for the address): the shipping row says so. */
  shippingPending?: boolean;
  /** What each gift card pays (after the total); with them, the amount left to pay closes the list. */
  giftCards?: readonly { lastFour: string; amountCents: number }[];
  amountDueCents?: number;
  /** The last row's label: 'Left to pay' at checkout, 'Charged to card' on a paid order. */
  dueLabel?: string;
}) {
  return (
    <dl className="summary-totals">
      <div>
        <dt>Subtotal</dt>
        <dd data-total="subtotal">{money(totals.subtotalCents, currency)}</dd>
      </div>
      {totals.discountCents > 0 ? (
        <div>
          <dt>Discount{couponCode ? ` (${couponCode})` : ''}</dt>
          <dd data-total="discount">−{money(totals.discountCents, currency)}</dd>
        </div>
      ) : null}
      {requiresShipping ? (
        <div>
          <dt>Shipping</dt>
          <dd data-total="shipping">{shippingPending ? '—' : shippingAmountText(totals.shippingCents, currency)}</dd>
        </div>
      ) : null}
      <div>
        <dt>{totals.pricesIncludeTax ? `Includes ${totals.taxName}` : totals.taxName}</dt>
        <dd data-total="tax">{money(totals.taxCents, currency)}</dd>
      </div>
      <div className="summary-totals__total">
        <dt>Total</dt>
        <dd data-total="total">{money(totals.grandTotalCents, currency)}</dd>
      </div>
      {giftCards.map((card, i) => (
        <div key={`gift-card-${i}`}>
          <dt>Gift card {maskedGiftCard(card.lastFour)}</dt>
          <dd data-total="gift-card">−{money(card.amountCents, currency)}</dd>
        </div>
      ))}
      {giftCards.length > 0 && amountDueCents !== undefined ? (
        <div className="summary-totals__total">
          <dt>{dueLabel}</dt>
          <dd data-total="due">{money(amountDueCents, currency)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
