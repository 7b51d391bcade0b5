/** Payments: the provider a site chooses (test, manual, Stripe), attempts, saved methods, webhooks. */
// Other modules import this module through this file only (eslint: module boundaries).
/**
 * The payment provider a site's settings choose (`store.checkout.payments.provider`), with the keys from the
 * environment. See provider.ts for the interface and docs/architecture.md ("Payments").
 */
import type { Config } from '../../config';
import type { PaymentSettings } from '../site';
import { manualProvider } from './manualProvider';
import type { PaymentProvider } from './provider';
import { stripeProvider } from './stripeProvider';
import { testProvider } from './testProvider';

export type {
  AuthorizeOutcome,
  AuthorizeRequest,
  PaymentMethodInput,
  PaymentProvider,
  PaymentProviderName,
} from './provider';

/** Payment keys from the environment (STRIPE_*); the test and manual providers need none. */
export interface PaymentEnv {
  stripeSecretKey?: string | undefined;
  /** Base URL of Stripe's API (tests, a proxy); default https://api.stripe.com. */
  stripeApiUrl?: string | undefined;
  /** The webhook route's signing secret (registerPaymentWebhookRoutes); providers do not use it. */
  stripeWebhookSecret?: string | undefined;
}

/** A site's payment settings that this process cannot honour (Stripe without its key): a setup mistake, not a shopper's. */
export class PaymentConfigError extends Error {
  override name = 'PaymentConfigError';
}

/** The PaymentEnv of the loaded settings (`loadConfig`). */
export const paymentEnvOf = (config: Pick<Config, 'stripe'>): PaymentEnv => ({
  stripeSecretKey: config.stripe?.secretKey,
  stripeApiUrl: config.stripe?.apiUrl,
  stripeWebhookSecret: config.stripe?.webhookSecret,
});

export function paymentProviderFor(
  settings: Pick<PaymentSettings, 'provider' | 'manualInstructions'>,
  env: PaymentEnv,
): PaymentProvider {
  switch (settings.provider) {
    case 'test':
      return testProvider();
    case 'manual':
      return manualProvider(settings.manualInstructions);
    case 'stripe': {
      const secretKey = env.stripeSecretKey?.trim();
      if (!secretKey) {
        throw new PaymentConfigError(
          'the site takes payments with Stripe, but STRIPE_SECRET_KEY is not set (its secret key, sk_live_… or sk_test_…)',
        );
      }
      return stripeProvider({ secretKey, apiUrl: env.stripeApiUrl });
    }
    default:
      throw new PaymentConfigError(
        `unknown payment provider '${String((settings as { provider: unknown }).provider)}' (test, manual or stripe)`,
      );
  }
}
export {
  beginAttempt,
  finishAttempt,
  paymentOfOrder,
  recordAttemptFailure,
  rememberReference,
  waitForAttempt,
  type PaymentAttempt,
} from './attempts';
export { freeAuthorization } from './provider';
export { abandonedPaymentsJob } from './jobs';
