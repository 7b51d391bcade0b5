import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FocusEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { FALLBACK_FAILURE_MESSAGES } from '../../core/addToCartErrors';
import { CART_MESSAGES } from '../../core/cartPill';
import {
  ADDRESS_MESSAGES,
  addressFormFor,
  checkShippingAddress,
  formatAddressLines,
} from '../../core/checkout/address';
import { checkCardInput } from '../../core/checkout/card';
import { shownTotalValue, totalsFinal } from '../../core/checkout/shownTotal';
import type { CheckoutStep } from '../../core/checkout/steps';
import { ADDRESS_FIELDS, type CheckoutField } from '../../core/checkout/types';
import type { CurrencyCode } from '../../core/currency';
import { validateEmail } from '../../core/email';
import { maskedGiftCard } from '../../core/giftCard/code';
import type { CheckoutQuote } from '../../modules/orders/orderTypes';
import { SiteImagesContext } from '../../ui/ResponsiveImage';
import {
  checkoutChoices,
  FIELD_MAX_LENGTHS,
  fieldErrorId,
  fieldId,
  lineErrorId,
  paymentInput,
  readCheckoutValues,
  withoutGiftCard,
  withQuotedGiftCards,
  type CheckoutErrors,
  type CheckoutFieldName,
  type CheckoutValues,
} from '../../ui/checkout/formValues';
import {
  money,
  shippingAmountText,
  SummaryLines,
  SummaryTotals,
  type SummaryLine,
} from '../../ui/checkout/OrderSummary';
import {
  controlAttributes,
  Field,
  FieldError,
  ShippingMethodField,
  TestCardFields,
  TextField,
} from '../../ui/checkout/CheckoutFields';
import { CHECKOUT_PATH } from '../../ui/checkout/paths';
import { fetchQuote, newIdempotencyKey, postOrder } from './checkoutApi';

export interface CheckoutFormProps {
  currency: CurrencyCode;
  siteId: string;
  /** The site version and the line images' sizes: the island is a React root of its own, outside the page's context. */
  images: { version?: number; sizes: Record<string, { width: number; height: number }> };
  quote: CheckoutQuote;
  /** What the shopper typed (a re-rendered post), or the defaults. */
  values: CheckoutValues;
  errors: CheckoutErrors;
  /** Cart entry id → its message (sold out since it was added). */
  lineErrors: Record<string, string>;
  /** The message above the form after a refusal, or null. */
  alert: string | null;
  /** Made by the server for this rendering; the island keeps it until a refusal settles it. */
  idempotencyKey: string;
  /** The visitor's crumb, posted in a hidden field when the form is sent without JavaScript (src/platform/http/crumb.ts). */
  crumb: string;
  /** The countries the store ships to, in the site's order. */
  shipsTo: { code: string; name: string }[];
  payment: { provider: string; notice: string | null };
  /** The server's texts for what the browser checks too (src/modules/checkout/checkout.ts). */
  messages: { fixDetails: string; chooseShipping: string };
  /** Where 'Continue shopping' goes. */
  shopPath: string;
  /**
   * The step shown without JavaScript (../../core/checkout/steps): the details first, then the payment with the
   * totals for them. The hydrated island shows every field on one page, whatever the step.
   */
  step: CheckoutStep;
}

/** Fields whose input is re-checked with the core's rules when it loses focus. */
const CHECKED_ON_BLUR: ReadonlySet<string> = new Set<CheckoutFieldName>([
  'email',
  ...ADDRESS_FIELDS,
  'cardNumber',
  'cardExpiry',
  'cardCvc',
]);
/** Fields whose change asks for a new quote (after QUOTE_DELAY_MS of quiet). */
const QUOTED_ON_CHANGE: ReadonlySet<string> = new Set<CheckoutFieldName>([
  'country',
  'region',
  'postalCode',
  'shippingOptionId',
]);
const QUOTE_DELAY_MS = 300;

/**
 * The checkout form (page type 201). The server renders it as a plain form that posts to /checkout and works without
 * JavaScript; hydrated, it asks the server for new totals as the address and choices change (the server computes every
 * amount), checks fields with the core's rules as the shopper goes, and places the order through the JSON call with
 * the page's idempotency key: the same key for a double click or a retry after a dropped connection, a new one only
 * after the server has refused the order.
 */
export function CheckoutForm(props: CheckoutFormProps) {
  const { currency, siteId, shipsTo, payment, messages } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const [quote, setQuote] = useState(props.quote);
  const [country, setCountry] = useState(props.values.country);
  const [shippingOptionId, setShippingOptionId] = useState(props.quote.selectedShippingOptionId ?? '');
  const [errors, setErrors] = useState<CheckoutErrors>(props.errors);
  const [lineErrors, setLineErrors] = useState(props.lineErrors);
  // `listed`: the alert heads a list of the fields' messages; it goes once the shopper has fixed them all.
  const [alert, setAlert] = useState<{ message: string; serial: number; listed: boolean } | null>(
    props.alert
      ? {
          message: props.alert,
          serial: 0,
          listed: Object.keys(props.errors).length + Object.keys(props.lineErrors).length > 0,
        }
      : null,
  );
  const [idempotencyKey, setIdempotencyKey] = useState(props.idempotencyKey);
  const [placing, setPlacing] = useState(false);
  // The gift-card codes applied so far (the hidden field's value): what the last quote applied.
  const [giftCardCodes, setGiftCardCodes] = useState(props.values.giftCardCodes);
  const giftCardInput = useRef<HTMLInputElement>(null);
  // False on the server and while hydrating, true once the island runs: what only works with JavaScript shows then.
  const enhanced = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [quoting, setQuoting] = useState(false);
  const [status, setStatus] = useState('');
  const [quoteProblem, setQuoteProblem] = useState<string | null>(null);
  // Refs, not state: a second click in the same tick must already see the first one.
  const placingNow = useRef(false);
  const quoteTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const quoteSerial = useRef(0);

  useEffect(() => () => clearTimeout(quoteTimer.current), []);

  // The folded summary (phones) opens to show a message of its own (a code that does not apply, a sold-out line);
  // it is never closed under the shopper.
  const summaryRef = useRef<HTMLDetailsElement>(null);
  const summaryErrors = Boolean(errors.couponCode ?? errors.giftCardCode) || Object.keys(lineErrors).length > 0;
  const [summaryOpenAtFirst] = useState(summaryErrors);
  useEffect(() => {
    if (summaryErrors && summaryRef.current) summaryRef.current.open = true;
  }, [summaryErrors]);

  useEffect(() => {
    // Every summary shown (a server re-render, a refusal, a failed check) takes the focus, so it is read first.
    if (alert) alertRef.current?.focus();
  }, [alert]);

  const addressForm = addressFormFor(country);
  // Gift cards pay everything: no card is asked for (the server asks no payment service either).
  const paidByGiftCards = quote.giftCards.length > 0 && quote.amountDueCents === 0;
  const values = (): CheckoutValues => {
    const data = formRef.current ? new FormData(formRef.current) : null;
    return readCheckoutValues((name) => data?.get(name));
  };

  /** The core's checks of what the browser can check (the server checks all of it again). */
  const check = (typed: CheckoutValues): CheckoutErrors => {
    const found: CheckoutErrors = {};
    const email = validateEmail(typed.email);
    if (typed.email.trim() === '') found.email = ADDRESS_MESSAGES.required;
    else if (!email.ok) found.email = email.error;
    if (quote.requiresShipping) {
      const address = checkShippingAddress(
        typed,
        shipsTo.map((c) => c.code),
      );
      if (!address.ok) Object.assign(found, address.error);
      if (!quote.shippingOptions.some((o) => o.id === typed.shippingOptionId))
        found.shippingOptionId = messages.chooseShipping;
    }
    if (payment.provider === 'test' && !paidByGiftCards) {
      const card = checkCardInput(typed, new Date());
      if (!card.ok) Object.assign(found, card.error);
    }
    return found;
  };

  const showAlert = (message: string, listed = false) =>
    setAlert((previous) => ({ message, serial: (previous?.serial ?? 0) + 1, listed }));

  const runQuote = async (): Promise<void> => {
    const serial = quoteSerial.current;
    const typed = values();
    setQuoting(true);
    const answer = await fetchQuote(checkoutChoices(typed));
    // A later change asked for a newer quote: this one is out of date.
    if (serial !== quoteSerial.current) return;
    setQuoting(false);
    if (!answer.ok) {
      setQuoteProblem(answer.network ? CART_MESSAGES.checkConnection : FALLBACK_FAILURE_MESSAGES.other);
      return;
    }
    const next = answer.quote;
    setQuoteProblem(null);
    setQuote(next);
    setShippingOptionId(next.selectedShippingOptionId ?? '');
    // A gift card that applied joins the list (and leaves the field); one that failed stays, by its message.
    const quoted = withQuotedGiftCards(typed, next.giftCards);
    setGiftCardCodes(quoted.giftCardCodes);
    if (quoted.giftCardCode === '' && giftCardInput.current) giftCardInput.current.value = '';
    setErrors((previous) => {
      const updated = { ...previous };
      delete updated.couponCode;
      delete updated.giftCardCode;
      if (typed.couponCode.trim() !== '' && next.couponError) updated.couponCode = next.couponError;
      if (next.giftCardError) updated.giftCardCode = next.giftCardError;
      if (updated.shippingOptionId && next.selectedShippingOptionId) delete updated.shippingOptionId;
      return updated;
    });
    const giftCardsText =
      next.giftCards.length > 0 ? `, ${money(next.amountDueCents, currency)} left to pay after gift cards` : '';
    setStatus(
      `Total ${money(next.totals.grandTotalCents, currency)}${next.coupon ? `, coupon ${next.coupon.code} applied` : ''}${giftCardsText}.`,
    );
  };

  /** Asks for new totals once the shopper pauses (each change restarts the wait; older answers are ignored). */
  const requestQuote = (delay: number) => {
    quoteSerial.current += 1;
    clearTimeout(quoteTimer.current);
    quoteTimer.current = setTimeout(() => void runQuote(), delay);
  };

  const place = async (): Promise<void> => {
    if (placingNow.current) return;
    const typed = values();
    const found = check(typed);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setLineErrors({});
      showAlert(messages.fixDetails, true);
      return;
    }
    placingNow.current = true;
    setPlacing(true);
    const outcome = await postOrder({
      ...checkoutChoices(typed),
      idempotencyKey,
      payment: paymentInput(typed, payment.provider),
    });
    if (outcome.kind === 'placed') {
      // The button stays disabled while the order page loads.
      window.location.assign(outcome.orderUrl);
      return;
    }
    placingNow.current = false;
    setPlacing(false);
    if (outcome.kind === 'unknown') {
      // Nothing is known of the order: the next try sends the same key, so it can never make a second order.
      showAlert(outcome.network ? CART_MESSAGES.checkConnection : (outcome.message ?? FALLBACK_FAILURE_MESSAGES.other));
      return;
    }
    setErrors(outcome.fields as CheckoutErrors);
    setLineErrors(Object.fromEntries(outcome.lines.map((l) => [l.entryId, l.message])));
    showAlert(outcome.message, Object.keys(outcome.fields).length + outcome.lines.length > 0);
    setIdempotencyKey(newIdempotencyKey());
    // The cart or the stock may have changed under the page: show what it costs now.
    requestQuote(0);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.name === 'removeGiftCard') {
      setGiftCardCodes(withoutGiftCard(values(), submitter.value).giftCardCodes);
      requestQuote(0);
      return;
    }
    const intent = submitter instanceof HTMLButtonElement ? submitter.value : 'quote';
    if (intent === 'place') void place();
    else requestQuote(0);
  };

  /** Enter in a code's field applies the code, as its Apply button does: a new quote, never the whole form sent. */
  const applyOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    requestQuote(0);
  };

  /** A field's message from the core's rules now, kept, replaced or removed. */
  const recheck = (name: CheckoutField, onlyToClear: boolean) => {
    const message = check(values())[name];
    if (onlyToClear && message) return;
    setErrors((previous) => {
      const updated = { ...previous };
      if (message) updated[name] = message;
      else delete updated[name];
      return updated;
    });
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target: EventTarget = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
    if (target.name === 'country') setCountry(target.value);
    if (target.name === 'shippingOptionId') setShippingOptionId(target.value);
    if (QUOTED_ON_CHANGE.has(target.name)) requestQuote(QUOTE_DELAY_MS);
    // A message goes as soon as what is typed is right.
    if (CHECKED_ON_BLUR.has(target.name) && errors[target.name as CheckoutField])
      recheck(target.name as CheckoutField, true);
  };

  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const target: EventTarget = event.target;
    if (
      !(target instanceof HTMLInputElement || target instanceof HTMLSelectElement) ||
      !CHECKED_ON_BLUR.has(target.name)
    )
      return;
    const name = target.name as CheckoutField;
    if (!errors[name]) {
      // A new message only when the shopper moves on to another field with something typed: an empty field is not a
      // mistake yet, and a message that appears while a button is being pressed moves the button away from the
      // pointer (placing the order checks every field anyway).
      const next = event.relatedTarget;
      const toField =
        next instanceof HTMLInputElement || next instanceof HTMLSelectElement || next instanceof HTMLTextAreaElement;
      if (!toField || target.value.trim() === '') return;
    }
    recheck(name, false);
  };

  const images = { version: props.images.version, sizes: new Map(Object.entries(props.images.sizes)) };
  const lines: SummaryLine[] = quote.cart.entries.map((e) => ({
    id: e.id,
    title: e.title,
    attributes: e.chosenVariant.attributes,
    answers: e.additionalFieldsSummary,
    quantity: e.quantity,
    lineTotal: e.subTotal,
    image: quote.lineImages[e.id] ?? null,
  }));
  const lineTitles = new Map(lines.map((l) => [l.id, l.title]));

  if (lines.length === 0) return <EmptyCheckout shopPath={props.shopPath} />;

  const labels: Record<CheckoutField | 'paymentMethodId' | 'giftCardCodes', string> = {
    email: 'Email',
    firstName: 'First name',
    lastName: 'Last name',
    address1: 'Address',
    address2: 'Address 2',
    city: 'City',
    country: 'Country',
    region: addressForm.regionLabel,
    postalCode: addressForm.postalLabel,
    phone: 'Phone',
    shippingOptionId: 'Shipping method',
    couponCode: 'Coupon code',
    giftCardCode: 'Gift card',
    giftCardCodes: 'Gift cards',
    cardNumber: 'Card number',
    cardExpiry: 'Expiry (MM / YY)',
    cardCvc: 'CVC',
    payment: 'Payment',
    paymentMethodId: 'Payment method',
  };
  const field = (name: CheckoutFieldName) => ({
    name,
    label: labels[name],
    error: errors[name],
    value: props.values[name],
  });
  const belowMinimum = quote.minimumSubtotalMessage;
  // Without JavaScript the details come first, then the payment; hydrated, one page ('all').
  const step: CheckoutStep | 'all' = enhanced ? 'all' : props.step;

  return (
    <SiteImagesContext value={images}>
      {/* The summary follows the fields: each message goes as its field is fixed, and the summary with the last one. */}
      {alert && !(alert.listed && Object.keys(errors).length + Object.keys(lineErrors).length === 0) ? (
        <div
          className="checkout-alert"
          role="alert"
          tabIndex={-1}
          ref={alertRef}
          aria-labelledby="checkout-alert-title"
        >
          <h2 id="checkout-alert-title" className="checkout-alert__title">
            {alert.message}
          </h2>
          <ErrorList errors={errors} labels={labels} lineErrors={lineErrors} lineTitles={lineTitles} />
        </div>
      ) : null}
      <form
        ref={formRef}
        className="checkout checkout--summary-first"
        method="post"
        action={CHECKOUT_PATH}
        noValidate
        onSubmit={onSubmit}
        onChange={onChange}
        onBlur={onBlur}
      >
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <input type="hidden" name="giftCardCodes" value={giftCardCodes} />
        {/* Posted without JavaScript: Place order never charges a total the page did not show (core/checkout/shownTotal). */}
        <input type="hidden" name="shownTotal" value={shownTotalValue(quote.totals, totalsFinal(quote))} />
        <input type="hidden" name="crumb" value={props.crumb} />
        <input type="hidden" name="step" value={step} />
        {/*
          The summary comes first: at the top of a phone's page, folded to its total (a <details>, so it opens without
          JavaScript too); beside the form on a wide screen, always shown (styles.css).
        */}
        <details
          className="checkout__summary checkout__summary--collapsible"
          open={summaryOpenAtFirst || undefined}
          ref={summaryRef}
        >
          <summary className="checkout__summary-toggle">
            <h2 id="checkout-summary">Order summary</h2>
            <span className="checkout__summary-total">
              {money(quote.giftCards.length > 0 ? quote.amountDueCents : quote.totals.grandTotalCents, currency)}
            </span>
          </summary>
          <SummaryLines lines={lines} siteId={siteId} currency={currency} lineErrors={lineErrors} />
          <div className="checkout-coupon">
            <Field name="couponCode" label={labels.couponCode} error={errors.couponCode}>
              <div className="checkout-coupon__row">
                <input
                  {...controlAttributes('couponCode', errors.couponCode)}
                  maxLength={FIELD_MAX_LENGTHS.couponCode}
                  type="text"
                  autoComplete="off"
                  defaultValue={props.values.couponCode}
                  onKeyDown={applyOnEnter}
                />
                {/* Two Apply buttons on the page: each says what it applies (the name keeps the visible word). */}
                <button type="submit" name="intent" value="quote" className="button" aria-label="Apply coupon">
                  Apply
                </button>
              </div>
            </Field>
          </div>
          <div className="checkout-coupon checkout-gift-cards">
            {quote.giftCards.length > 0 ? (
              <ul className="checkout-gift-cards__list" aria-label="Gift cards applied">
                {quote.giftCards.map((card) => (
                  <li key={card.code} className="checkout-gift-cards__card">
                    <span>
                      Gift card {maskedGiftCard(card.lastFour)}: pays {money(card.amountCents, currency)} of its{' '}
                      {money(card.balanceCents, currency)} balance
                    </span>
                    <button
                      type="submit"
                      name="removeGiftCard"
                      value={card.code}
                      className="button"
                      aria-label={`Remove gift card ${maskedGiftCard(card.lastFour)}`}
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            <Field name="giftCardCode" label={labels.giftCardCode} error={errors.giftCardCode}>
              <div className="checkout-coupon__row">
                <input
                  ref={giftCardInput}
                  {...controlAttributes('giftCardCode', errors.giftCardCode)}
                  maxLength={FIELD_MAX_LENGTHS.giftCardCode}
                  type="text"
                  autoComplete="off"
                  spellCheck={false}
                  defaultValue={props.values.giftCardCode}
                  onKeyDown={applyOnEnter}
                />
                <button type="submit" name="intent" value="quote" className="button" aria-label="Apply gift card">
                  Apply
                </button>
              </div>
            </Field>
          </div>
          <div aria-busy={quoting}>
            <SummaryTotals
              totals={quote.totals}
              currency={currency}
              requiresShipping={quote.requiresShipping}
              couponCode={quote.coupon?.code ?? null}
              shippingPending={quote.selectedShippingOptionId === null}
              giftCards={quote.giftCards}
              amountDueCents={quote.amountDueCents}
            />
          </div>
        </details>
        <div className="checkout__details">
          {step === 'payment' ? <DetailsReview values={props.values} quote={quote} currency={currency} /> : null}
          {step !== 'payment' ? (
            <section className="checkout-section" aria-labelledby="checkout-contact">
              <h2 id="checkout-contact">Contact</h2>
              <TextField {...field('email')} type="email" autoComplete="email" required />
            </section>
          ) : null}

          {quote.requiresShipping && step !== 'payment' ? (
            <section className="checkout-section" aria-labelledby="checkout-shipping-address">
              <h2 id="checkout-shipping-address">Shipping address</h2>
              <div className="checkout-row">
                <TextField {...field('firstName')} autoComplete="given-name" required />
                <TextField {...field('lastName')} autoComplete="family-name" required />
              </div>
              <TextField {...field('address1')} autoComplete="address-line1" required />
              <TextField {...field('address2')} autoComplete="address-line2" />
              <TextField {...field('city')} autoComplete="address-level2" required />
              <div className="checkout-row">
                <Field name="country" label={labels.country} error={errors.country} required>
                  <select
                    {...controlAttributes('country', errors.country)}
                    autoComplete="country"
                    value={country}
                    onChange={() => undefined /* the form's onChange reads it */}
                  >
                    {shipsTo.some((c) => c.code === country) ? null : <option value="">Choose a country</option>}
                    {shipsTo.map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </Field>
                {addressForm.regions.length > 0 ? (
                  <Field
                    name="region"
                    label={addressForm.regionLabel}
                    error={errors.region}
                    required={addressForm.regionRequired}
                  >
                    <select
                      key={country}
                      {...controlAttributes('region', errors.region)}
                      autoComplete="address-level1"
                      defaultValue={country === props.values.country ? props.values.region : ''}
                    >
                      <option value="">Choose a {addressForm.regionLabel.toLowerCase()}</option>
                      {addressForm.regions.map((r) => (
                        <option key={r.code} value={r.code}>
                          {r.name}
                        </option>
                      ))}
                    </select>
                  </Field>
                ) : null}
              </div>
              <div className="checkout-row">
                <TextField
                  {...field('postalCode')}
                  label={addressForm.postalLabel}
                  autoComplete="postal-code"
                  required={addressForm.postalRequired}
                />
                <TextField {...field('phone')} type="tel" autoComplete="tel" />
              </div>
            </section>
          ) : null}

          {quote.requiresShipping && step !== 'payment' ? (
            <ShippingMethodField
              options={quote.shippingOptions}
              chosenId={shippingOptionId}
              error={errors.shippingOptionId}
              currency={currency}
            />
          ) : null}

          {step === 'details' ? null : (
            <section className="checkout-section" aria-labelledby="checkout-payment">
              <h2 id="checkout-payment">Payment</h2>
              {payment.notice ? <p className="checkout-notice">{payment.notice}</p> : null}
              <FieldError name="payment" error={errors.payment} />
              {paidByGiftCards ? <p className="checkout-notice">Your gift cards pay for the whole order.</p> : null}
              {payment.provider === 'test' && !paidByGiftCards ? <TestCardFields field={field} /> : null}
              {payment.provider === 'stripe' && !paidByGiftCards ? (
                enhanced ? (
                  <TextField {...field('paymentMethodId')} autoComplete="off" required />
                ) : (
                  <p className="checkout-notice">
                    Paying by card needs JavaScript. Please turn it on in your browser to pay.
                  </p>
                )
              ) : null}
            </section>
          )}
        </div>

        <div className="checkout__end">
          <p className="visually-hidden" role="status">
            {status}
          </p>
          {quoteProblem ? <p className="field__error">{quoteProblem}</p> : null}
          {belowMinimum ? (
            <p className="checkout-minimum" id="checkout-minimum">
              {belowMinimum}
            </p>
          ) : null}
          <div className="checkout-actions">
            {step === 'details' ? (
              <>
                <button type="submit" name="intent" value="quote" className="button">
                  Update totals
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="details"
                  className="button button--primary checkout-place"
                  disabled={belowMinimum !== null}
                >
                  Continue to payment
                </button>
              </>
            ) : null}
            {step === 'details' ? null : (
              <button
                type="submit"
                name="intent"
                value="place"
                className="button button--primary checkout-place"
                disabled={placing || belowMinimum !== null}
                aria-describedby={belowMinimum ? 'checkout-minimum' : undefined}
              >
                {placing ? 'Placing order…' : 'Place order'}
              </button>
            )}
          </div>
        </div>
      </form>
      {step === 'payment' ? (
        <ChangeDetailsForm values={props.values} giftCardCodes={giftCardCodes} crumb={props.crumb} />
      ) : null}
    </SiteImagesContext>
  );
}

const noSubscription = () => () => undefined;

/** The cart emptied under the page (bought in another tab, say). */
export function EmptyCheckout({ shopPath }: { shopPath: string }) {
  return (
    <div className="checkout-empty">
      <p>{CART_MESSAGES.emptyCart}</p>
      <p>
        <a className="button" href={shopPath}>
          Continue shopping
        </a>
      </p>
    </div>
  );
}

/** The summary's list: each message, linked to its field (a link to an input moves the focus there). */
function ErrorList({
  errors,
  labels,
  lineErrors,
  lineTitles,
}: {
  errors: CheckoutErrors;
  labels: Record<CheckoutField | 'paymentMethodId', string>;
  lineErrors: Record<string, string>;
  lineTitles: ReadonlyMap<string, string>;
}) {
  const items = [
    ...Object.entries(errors).map(([name, message]) => ({
      href: `#${name === 'payment' ? fieldErrorId('payment') : fieldId(name as CheckoutFieldName)}`,
      text: `${labels[name as CheckoutField] ?? name}: ${message}`,
    })),
    ...Object.entries(lineErrors).map(([entryId, message]) => ({
      href: `#${lineErrorId(entryId)}`,
      text: `${lineTitles.get(entryId) ?? 'An item'}: ${message}`,
    })),
  ];
  if (items.length === 0) return null;
  return (
    <ul className="checkout-alert__list">
      {items.map((item) => (
        <li key={item.href}>
          <a href={item.href}>{item.text}</a>
        </li>
      ))}
    </ul>
  );
}

/** The details fields posted from the payment step as they were given on the details step. */
const DETAIL_FIELDS: readonly CheckoutFieldName[] = ['email', ...ADDRESS_FIELDS, 'shippingOptionId'];

/**
 * The payment step (without JavaScript): the details given, as text, posted again in hidden fields, and 'Change' to go
 * back to them (a button of its own form below, so that Enter in a field of this form never goes back).
 */
function DetailsReview({
  values,
  quote,
  currency,
}: {
  values: CheckoutValues;
  quote: CheckoutQuote;
  currency: CurrencyCode;
}) {
  const option = quote.shippingOptions.find((o) => o.id === quote.selectedShippingOptionId);
  return (
    <section className="checkout-section checkout-review" aria-labelledby="checkout-review">
      <h2 id="checkout-review">Contact and shipping</h2>
      {DETAIL_FIELDS.map((name) => (
        <input
          key={name}
          type="hidden"
          name={name}
          value={name === 'shippingOptionId' ? (quote.selectedShippingOptionId ?? '') : values[name]}
        />
      ))}
      <dl className="checkout-review__list">
        <div>
          <dt>Email</dt>
          <dd>{values.email}</dd>
        </div>
        {quote.requiresShipping ? (
          <div>
            <dt>Ship to</dt>
            <dd>
              {formatAddressLines(values).map((line, i) => (
                <span className="checkout-review__line" key={i}>
                  {line}
                </span>
              ))}
            </dd>
          </div>
        ) : null}
        {option ? (
          <div>
            <dt>Shipping method</dt>
            <dd>
              {option.name} · {shippingAmountText(option.amount, currency)}
            </dd>
          </div>
        ) : null}
      </dl>
      <button type="submit" form={CHANGE_FORM_ID} name="intent" value="edit" className="button">
        Change
      </button>
    </section>
  );
}

const CHANGE_FORM_ID = 'checkout-change';

/** The form of the payment step's 'Change' button: back to the details step with what was given (never the card). */
function ChangeDetailsForm({
  values,
  giftCardCodes,
  crumb,
}: {
  values: CheckoutValues;
  giftCardCodes: string;
  crumb: string;
}) {
  return (
    <form id={CHANGE_FORM_ID} method="post" action={CHECKOUT_PATH} hidden>
      <input type="hidden" name="crumb" value={crumb} />
      {DETAIL_FIELDS.map((name) => (
        <input key={name} type="hidden" name={name} value={values[name]} />
      ))}
      <input type="hidden" name="couponCode" value={values.couponCode} />
      <input type="hidden" name="giftCardCodes" value={giftCardCodes} />
    </form>
  );
}
