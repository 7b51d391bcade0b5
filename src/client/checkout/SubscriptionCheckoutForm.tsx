/**
 * The subscription checkout's form (/checkout/subscribe?cartToken=…): rendered on the server as a plain form that posts
 * to its own address and works without JavaScript (Update totals, then Subscribe); hydrated, its totals follow the
 * address and the shipping method as /checkout's do (the server computes every amount: POST
 * /api/commerce/checkout/subscription-quote), so that the first Subscribe posts the total the page shows and goes
 * through. The post itself stays the form's: the card is typed once, and never written back into a page.
 */
import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { FALLBACK_FAILURE_MESSAGES } from '../../core/addToCartErrors';
import { CART_MESSAGES } from '../../core/cartPill';
import { ADDRESS_MESSAGES, addressFormFor, checkShippingAddress } from '../../core/checkout/address';
import { checkCardInput } from '../../core/checkout/card';
import { shownTotalValue, totalChangedMessage, totalsFinal } from '../../core/checkout/shownTotal';
import { ADDRESS_FIELDS } from '../../core/checkout/types';
import type { CurrencyCode } from '../../core/currency';
import { validateEmail } from '../../core/email';
import type { CheckoutQuote } from '../../modules/orders/orderTypes';
import {
  controlAttributes,
  Field,
  FieldError,
  ShippingMethodField,
  TestCardFields,
  TextField,
} from '../../ui/checkout/CheckoutFields';
import {
  checkoutChoices,
  fieldErrorId,
  fieldId,
  readCheckoutValues,
  type CheckoutErrors,
  type CheckoutFieldName,
  type CheckoutValues,
} from '../../ui/checkout/formValues';
import { money, SummaryLines, SummaryTotals } from '../../ui/checkout/OrderSummary';
import { SiteImagesContext } from '../../ui/ResponsiveImage';
import { fetchSubscriptionQuote } from './checkoutApi';

export interface SubscriptionCheckoutFormProps {
  /** Where the form posts (this page's address with its cart token). */
  action: string;
  /** The subscription cart's token (the quote call names it). */
  cartToken: string;
  currency: CurrencyCode;
  siteId: string;
  /** The site version and the line images' sizes: the island is a React root of its own. */
  images: { version?: number; sizes: Record<string, { width: number; height: number }> };
  quote: CheckoutQuote;
  planText: string;
  values: CheckoutValues;
  errors: CheckoutErrors;
  alert: string | null;
  idempotencyKey: string;
  crumb: string;
  shipsTo: { code: string; name: string }[];
  payment: { provider: string; notice: string | null };
}

const LABELS: Record<string, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  address1: 'Address',
  address2: 'Address 2',
  city: 'City',
  country: 'Country',
  phone: 'Phone',
  shippingOptionId: 'Shipping method',
  cardNumber: 'Card number',
  cardExpiry: 'Expiry (MM / YY)',
  cardCvc: 'CVC',
  payment: 'Payment',
  paymentMethodId: 'Payment method',
};

/** Fields whose change asks for new totals (after QUOTE_DELAY_MS of quiet). */
const QUOTED_ON_CHANGE: ReadonlySet<string> = new Set(['country', 'region', 'postalCode', 'shippingOptionId']);
const QUOTE_DELAY_MS = 300;

export function SubscriptionCheckoutForm(props: SubscriptionCheckoutFormProps) {
  const { currency } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const [quote, setQuote] = useState(props.quote);
  const [country, setCountry] = useState(props.values.country);
  const [shippingOptionId, setShippingOptionId] = useState(props.quote.selectedShippingOptionId ?? '');
  const [errors, setErrors] = useState<CheckoutErrors>(props.errors);
  const [alert, setAlert] = useState<{ message: string; serial: number; listed: boolean } | null>(
    props.alert ? { message: props.alert, serial: 0, listed: Object.keys(props.errors).length > 0 } : null,
  );
  const [quoting, setQuoting] = useState(false);
  const [status, setStatus] = useState('');
  const [quoteProblem, setQuoteProblem] = useState<string | null>(null);
  const enhanced = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const quoteTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const quoteSerial = useRef(0);
  /** The quote asked for and not answered yet (Subscribe waits for it). */
  const pendingQuote = useRef<Promise<CheckoutQuote | null> | null>(null);
  const shownTotal = useRef(props.quote.totals.grandTotalCents);

  useEffect(() => () => clearTimeout(quoteTimer.current), []);
  useEffect(() => {
    if (alert) alertRef.current?.focus();
  }, [alert]);

  const addressForm = addressFormFor(country);
  const labels: Record<string, string> = {
    ...LABELS,
    region: addressForm.regionLabel,
    postalCode: addressForm.postalLabel,
  };
  const values = (): CheckoutValues => {
    const data = formRef.current ? new FormData(formRef.current) : null;
    return readCheckoutValues((name) => data?.get(name));
  };

  /** The core's message for one field now ('' when it is right): a message goes as soon as its field is fixed. */
  const messageOf = (name: string, typed: CheckoutValues): string | undefined => {
    if (name === 'email')
      return typed.email.trim() === ''
        ? ADDRESS_MESSAGES.required
        : validateEmail(typed.email).ok
          ? undefined
          : errors.email;
    if ((ADDRESS_FIELDS as readonly string[]).includes(name)) {
      const checked = checkShippingAddress(
        typed,
        props.shipsTo.map((c) => c.code),
      );
      return checked.ok ? undefined : (checked.error as Record<string, string | undefined>)[name];
    }
    if (name === 'cardNumber' || name === 'cardExpiry' || name === 'cardCvc') {
      const checked = checkCardInput(typed, new Date());
      return checked.ok ? undefined : (checked.error as Record<string, string | undefined>)[name];
    }
    return errors[name as keyof CheckoutErrors];
  };

  const runQuote = (): Promise<CheckoutQuote | null> => {
    const serial = quoteSerial.current;
    setQuoting(true);
    const asked = (async () => {
      const answer = await fetchSubscriptionQuote(props.cartToken, checkoutChoices(values()));
      if (serial !== quoteSerial.current) return null;
      setQuoting(false);
      pendingQuote.current = null;
      if (!answer.ok) {
        setQuoteProblem(answer.network ? CART_MESSAGES.checkConnection : FALLBACK_FAILURE_MESSAGES.other);
        return null;
      }
      const next = answer.quote;
      setQuoteProblem(null);
      setQuote(next);
      shownTotal.current = next.totals.grandTotalCents;
      setShippingOptionId(next.selectedShippingOptionId ?? '');
      setErrors((previous) => {
        if (!previous.shippingOptionId || !next.selectedShippingOptionId) return previous;
        const updated = { ...previous };
        delete updated.shippingOptionId;
        return updated;
      });
      setStatus(`Total ${money(next.totals.grandTotalCents, currency)}.`);
      return next;
    })();
    pendingQuote.current = asked;
    return asked;
  };

  const requestQuote = (delay: number) => {
    quoteSerial.current += 1;
    clearTimeout(quoteTimer.current);
    // Subscribe waits for this one: a promise that settles with the quote the timer will ask for.
    pendingQuote.current = new Promise((resolve) => {
      quoteTimer.current = setTimeout(() => void runQuote().then(resolve), delay);
    });
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target: EventTarget = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
    if (target.name === 'country') setCountry(target.value);
    if (target.name === 'shippingOptionId') setShippingOptionId(target.value);
    if (QUOTED_ON_CHANGE.has(target.name)) requestQuote(QUOTE_DELAY_MS);
    const name = target.name as keyof CheckoutErrors;
    if (errors[name] && !messageOf(name, values())) {
      setErrors((previous) => {
        const updated = { ...previous };
        delete updated[name];
        return updated;
      });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const intent = submitter instanceof HTMLButtonElement ? submitter.value : 'quote';
    if (intent !== 'place') {
      // Update totals (or Enter): new totals here, the page stays with what was typed.
      event.preventDefault();
      requestQuote(0);
      return;
    }
    // The totals shown are those of the details typed: the form posts them, and the server charges only them.
    if (!pendingQuote.current) return;
    // New totals are on their way (the address just changed): Subscribe goes on once they are here, if they are the
    // ones the shopper saw when pressing it.
    event.preventDefault();
    const before = shownTotal.current;
    const button = submitter instanceof HTMLButtonElement ? submitter : undefined;
    void settledQuote().then((next) => {
      if (next && next.totals.grandTotalCents !== before) {
        // Never a total the page did not show: the new one is on the page now, with everything typed kept.
        setAlert((previous) => ({
          message: totalChangedMessage(money(next.totals.grandTotalCents, currency), 'Subscribe'),
          serial: (previous?.serial ?? 0) + 1,
          listed: false,
        }));
        return;
      }
      formRef.current?.requestSubmit(button);
    });
  };

  /** The latest quote once no newer one is on its way (null when the last one failed). */
  const settledQuote = async (): Promise<CheckoutQuote | null> => {
    let latest: CheckoutQuote | null = null;
    while (pendingQuote.current) latest = await pendingQuote.current;
    return latest;
  };

  const field = (name: CheckoutFieldName) => ({
    name,
    label: labels[name] ?? name,
    error: errors[name as keyof CheckoutErrors],
    value: props.values[name],
  });
  const lines = quote.cart.entries.map((e) => ({
    id: e.id,
    title: e.title,
    attributes: e.chosenVariant.attributes,
    answers: e.additionalFieldsSummary,
    quantity: e.quantity,
    lineTotal: e.subTotal,
    image: quote.lineImages[e.id] ?? null,
  }));
  const errorItems = Object.entries(errors).filter(([, message]) => message);
  const images = { version: props.images.version, sizes: new Map(Object.entries(props.images.sizes)) };
  return (
    <SiteImagesContext value={images}>
      {alert && !(alert.listed && errorItems.length === 0) ? (
        <div
          className="checkout-alert"
          role="alert"
          tabIndex={-1}
          ref={alertRef}
          aria-labelledby="subscribe-alert-title"
        >
          <h2 id="subscribe-alert-title" className="checkout-alert__title">
            {alert.message}
          </h2>
          {errorItems.length > 0 ? (
            <ul className="checkout-alert__list">
              {errorItems.map(([name, message]) => (
                <li key={name}>
                  <a
                    href={`#${name === 'payment' ? fieldErrorId('payment') : fieldId(name as CheckoutFieldName)}`}
                  >{`${labels[name] ?? name}: ${message}`}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <form
        ref={formRef}
        className="checkout"
        method="post"
        action={props.action}
        noValidate
        onSubmit={onSubmit}
        onChange={onChange}
      >
        <input type="hidden" name="crumb" value={props.crumb} />
        <input type="hidden" name="idempotencyKey" value={props.idempotencyKey} />
        {/* The total shown, so that Subscribe never charges another one (../../core/checkout/shownTotal). */}
        <input type="hidden" name="shownTotal" value={shownTotalValue(quote.totals, totalsFinal(quote))} />
        <div className="checkout__details">
          <section className="checkout-section" aria-labelledby="subscribe-contact">
            <h2 id="subscribe-contact">Contact</h2>
            <TextField {...field('email')} type="email" autoComplete="email" required />
          </section>
          {quote.requiresShipping ? (
            <section className="checkout-section" aria-labelledby="subscribe-address">
              <h2 id="subscribe-address">Shipping address</h2>
              <div className="checkout-row">
                <TextField {...field('firstName')} autoComplete="given-name" required />
                <TextField {...field('lastName')} autoComplete="family-name" required />
              </div>
              <TextField {...field('address1')} autoComplete="address-line1" required />
              <TextField {...field('address2')} autoComplete="address-line2" />
              <TextField {...field('city')} autoComplete="address-level2" required />
              <div className="checkout-row">
                <Field name="country" label={labels.country ?? 'Country'} error={errors.country} required>
                  <select
                    {...controlAttributes('country', errors.country)}
                    autoComplete="country"
                    value={country}
                    onChange={() => undefined /* the form's onChange reads it */}
                  >
                    {props.shipsTo.some((c) => c.code === country) ? null : <option value="">Choose a country</option>}
                    {props.shipsTo.map((c) => (
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
                ) : (
                  <TextField {...field('region')} autoComplete="address-level1" required={addressForm.regionRequired} />
                )}
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
          {quote.requiresShipping ? (
            <ShippingMethodField
              options={quote.shippingOptions}
              chosenId={shippingOptionId}
              error={errors.shippingOptionId}
              currency={currency}
            />
          ) : null}
          <section className="checkout-section" aria-labelledby="subscribe-payment">
            <h2 id="subscribe-payment">Payment</h2>
            {props.payment.notice ? <p className="checkout-notice">{props.payment.notice}</p> : null}
            <p className="field__description">
              Your card is kept and charged for each renewal ({props.planText}) until you cancel or the plan ends.
            </p>
            <FieldError name="payment" error={errors.payment} />
            {props.payment.provider === 'test' ? <TestCardFields field={field} /> : null}
            {props.payment.provider === 'stripe' ? (
              <TextField {...field('paymentMethodId')} autoComplete="off" required />
            ) : null}
          </section>
        </div>
        <section className="checkout__summary" aria-labelledby="subscribe-summary">
          <h2 id="subscribe-summary">First period</h2>
          <SummaryLines lines={lines} siteId={props.siteId} currency={currency} />
          <div aria-busy={quoting}>
            <SummaryTotals
              totals={quote.totals}
              currency={currency}
              requiresShipping={quote.requiresShipping}
              couponCode={null}
              shippingPending={quote.selectedShippingOptionId === null}
            />
          </div>
          <p className="visually-hidden" role="status">
            {status}
          </p>
          {quoteProblem ? <p className="field__error">{quoteProblem}</p> : null}
          <div className="checkout-actions">
            {enhanced ? null : (
              <button type="submit" name="intent" value="quote" className="button">
                Update totals
              </button>
            )}
            <button type="submit" name="intent" value="place" className="button button--primary checkout-place">
              Subscribe
            </button>
          </div>
        </section>
      </form>
    </SiteImagesContext>
  );
}

const noSubscription = () => () => undefined;
