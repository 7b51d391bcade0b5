/** The provider a site's settings choose. */
import type { PaymentSettings } from '../../site/schema';
import { manualProvider } from './manualProvider';
import type { PaymentProvider } from './provider';
import { testProvider } from './testProvider';

export interface PaymentEnv {
  stripeSecretKey?: string;
  stripeApiUrl?: string;
}

export class PaymentConfigError extends Error {
  override name = 'PaymentConfigError';
}

export function paymentProviderFor(settings: Pick<PaymentSettings, 'provider' | 'manualInstructions'>, env: PaymentEnv): PaymentProvider {
  switch (settings.provider) {
    case 'manual':
      return manualProvider(settings.manualInstructions);
    case 'stripe':
      if (!env.stripeSecretKey) throw new PaymentConfigError('the site pays with Stripe, but STRIPE_SECRET_KEY is not set');
      throw new PaymentConfigError('the Stripe adapter is not available yet');
    default:
      return testProvider();
  }
}
