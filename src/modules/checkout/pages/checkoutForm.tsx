/**
 * The checkout at /checkout (page type 201), made for one visitor: the form for the cart of the CART cookie. Its form
 * action (./actions.ts) shows it again with new totals or each message next to its field, at the step it is on.
 */
import { randomBytes } from 'node:crypto';
import { countryName } from '../../../core/checkout/address';
import type { CheckoutStep } from '../../../core/checkout/steps';
import { PageType } from '../../../core/enums';
import { pageCrumb } from '../../../platform/http/crumb';
import { visitorPageKind } from '../../../render/visitorPageKind';
import type { AppContext } from '../../../platform/http/appContext';
import type { CheckoutFormProps } from '../../../client/checkout/CheckoutForm';
import { CheckoutPage } from '../../../ui/checkout/CheckoutPages';
import {
  checkoutChoices,
  emptyCheckoutValues,
  withoutCardSecrets,
  type CheckoutErrors,
  type CheckoutValues,
} from '../../../ui/checkout/formValues';
import { CHECKOUT_PATH } from '../../../ui/checkout/paths';
import { cartToken } from '../../cart';
import type { CheckoutQuote } from '../../orders';
import type { Site } from '../../site';
import { CHECKOUT_MESSAGES, quoteCheckout } from '../checkout';
import { currencyOf, forgetStaleCart, shopPath } from './shared';
import { pageRoute } from '../../../platform/http/apiDescription';

/** What a rendering of the checkout form shows besides the quote. */
export interface FormState {
  values: CheckoutValues;
  errors?: CheckoutErrors;
  lineErrors?: Record<string, string>;
  alert?: string | null;
  /** The step the page shows without JavaScript (../../../core/checkout/steps); with JavaScript the form is one page. */
  step?: CheckoutStep;
}

export interface CheckoutFormData {
  quote: CheckoutQuote;
  state: FormState;
  status: number;
  /** Where 'Continue shopping' leads. */
  shop: string;
}

/** The page's data for this quote and form state. */
export const checkoutFormData = async (
  ctx: AppContext,
  site: Site,
  quote: CheckoutQuote,
  state: FormState,
  status = 200,
): Promise<CheckoutFormData> => ({ quote, state, status, shop: await shopPath(ctx, site) });

export const checkoutForm = (ctx: AppContext) =>
  visitorPageKind<CheckoutFormData>({
    name: 'checkoutForm',
    paths: [CHECKOUT_PATH],
    route: { schema: pageRoute('checkoutPage', 'The checkout (works without JavaScript)') },
    headers: { 'cache-control': 'no-store' },
    load: async ({ request, reply, site }) => {
      const values = { ...emptyCheckoutValues(), country: site.settings.store.checkout.shipsTo[0] ?? '' };
      const quote = await quoteCheckout(ctx.db, site, cartToken(request), checkoutChoices(values));
      forgetStaleCart(ctx, request, reply, quote.cart.id);
      return checkoutFormData(ctx, site, quote, { values });
    },
    view: ({ request, reply, site }, { quote, state, status, shop }) => {
      // The form posts without JavaScript too: it carries the visitor's crumb (platform/http/crumb.ts).
      const crumb = pageCrumb(request, reply, ctx);
      const provider = ctx.paymentsFor(site);
      const settings = site.settings.store.checkout;
      return {
        path: CHECKOUT_PATH,
        pageType: PageType.CHECKOUT,
        title: state.alert ? 'Error: Checkout' : 'Checkout',
        description: `Checkout at ${site.title}.`,
        status,
        assets: 'checkout',
        body: (images) => {
          if (quote.cart.entries.length === 0) return <CheckoutPage form={null} shopPath={shop} />;
          const files = Object.values(quote.lineImages).flatMap((image) => (image ? [image.file] : []));
          const form: CheckoutFormProps = {
            currency: currencyOf(site),
            siteId: site.id,
            images: {
              ...(images.version !== undefined ? { version: images.version } : {}),
              sizes: Object.fromEntries(
                files.flatMap((file) => {
                  const size = images.sizes?.get(file);
                  return size ? [[file, size]] : [];
                }),
              ),
            },
            quote,
            values: withoutCardSecrets(state.values),
            errors: state.errors ?? {},
            lineErrors: state.lineErrors ?? {},
            alert: state.alert ?? null,
            idempotencyKey: randomBytes(16).toString('base64url'),
            crumb,
            shipsTo: settings.shipsTo.map((code) => ({ code, name: countryName(code) ?? code })),
            payment: { provider: provider.name, notice: provider.notice },
            messages: { fixDetails: CHECKOUT_MESSAGES.fixDetails, chooseShipping: CHECKOUT_MESSAGES.chooseShipping },
            shopPath: shop,
            step: state.step ?? 'details',
          };
          return <CheckoutPage form={form} shopPath={shop} />;
        },
      };
    },
  });
