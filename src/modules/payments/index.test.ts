import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { PaymentConfigError, paymentEnvOf, paymentProviderFor } from './index';

describe('paymentProviderFor', () => {
  const manualInstructions = 'Pay at the counter.';

  it("gives the provider a site's settings choose", () => {
    expect(paymentProviderFor({ provider: 'test', manualInstructions }, {}).name).toBe('test');
    const manual = paymentProviderFor({ provider: 'manual', manualInstructions }, {});
    expect([manual.name, manual.notice]).toEqual(['manual', manualInstructions]);
    const stripe = paymentProviderFor(
      { provider: 'stripe', manualInstructions },
      { stripeSecretKey: 'sk_test_123', stripeApiUrl: 'http://127.0.0.1:9' },
    );
    expect([stripe.name, stripe.notice]).toEqual(['stripe', null]);
  });

  it('refuses Stripe without STRIPE_SECRET_KEY, naming the setting', () => {
    for (const env of [{}, { stripeSecretKey: '' }, { stripeSecretKey: '  ' }]) {
      expect(() => paymentProviderFor({ provider: 'stripe', manualInstructions }, env)).toThrow(PaymentConfigError);
      expect(() => paymentProviderFor({ provider: 'stripe', manualInstructions }, env)).toThrow(
        'STRIPE_SECRET_KEY is not set',
      );
    }
  });
});

describe('STRIPE_* settings (loadConfig)', () => {
  it('are absent from the config when none is set', () => {
    expect(loadConfig({})).not.toHaveProperty('stripe');
    expect(paymentEnvOf(loadConfig({}))).toEqual({
      stripeSecretKey: undefined,
      stripeApiUrl: undefined,
      stripeWebhookSecret: undefined,
    });
  });

  it('are read, and handed to the providers by paymentEnvOf', () => {
    const config = loadConfig({
      STRIPE_SECRET_KEY: ' sk_test_51AbC ',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_51AbC',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(config.stripe).toEqual({
      secretKey: 'sk_test_51AbC',
      publishableKey: 'pk_test_51AbC',
      webhookSecret: 'whsec_abc123',
      apiUrl: 'http://127.0.0.1:12111',
    });
    expect(paymentEnvOf(config)).toEqual({
      stripeSecretKey: 'sk_test_51AbC',
      stripeApiUrl: 'http://127.0.0.1:12111',
      stripeWebhookSecret: 'whsec_abc123',
    });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'rk_live_xyz' }).stripe).toEqual({ secretKey: 'rk_live_xyz' });
  });

  it('refuses a key of the wrong kind without printing it', () => {
    const problems = (env: Record<string, string | undefined>) => {
      try {
        loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problems({ STRIPE_SECRET_KEY: 'pk_live_SeCrEt123' })).toEqual([
      "STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or a restricted rk_…), not 'pk_live_…'",
    ]);
    expect(problems({ STRIPE_PUBLISHABLE_KEY: 'sk_test_SeCrEt123' })).toEqual([
      "STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_live_… or pk_test_…), not 'sk_test_…'",
    ]);
    expect(problems({ STRIPE_WEBHOOK_SECRET: 'SeCrEt123' })).toEqual([
      "STRIPE_WEBHOOK_SECRET must be the webhook endpoint's signing secret (whsec_…), not the value given (not shown: it may be a secret)",
    ]);
    expect(problems({ STRIPE_SECRET_KEY: 'sk_live_SeCrEt123', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toEqual([
      'STRIPE_SECRET_KEY is a live key but STRIPE_PUBLISHABLE_KEY a test key: use both live or both test keys',
    ]);
    for (const env of [
      { STRIPE_SECRET_KEY: 'sk_test_SeCrEt 123' },
      { STRIPE_WEBHOOK_SECRET: 'whsec_SeCrEt\n123' },
    ] as Record<string, string>[]) {
      expect(problems(env)).toHaveLength(1);
      expect(problems(env).join('\n')).not.toContain('SeCrEt');
    }
  });

  it('takes STRIPE_API_URL as an http(s) base URL only, hiding a password', () => {
    expect(loadConfig({ STRIPE_API_URL: 'https://stripe-proxy.example.com:8443/' }).stripe).toEqual({
      apiUrl: 'https://stripe-proxy.example.com:8443/',
    });
    for (const bad of ['ftp://x.com', 'api.stripe.com', 'http://x.com/v1', 'http://x.com/?a=1']) {
      expect(() => loadConfig({ STRIPE_API_URL: bad })).toThrow(
        'STRIPE_API_URL must be an http:// or https:// URL with a host and no path',
      );
    }
    expect(() => loadConfig({ STRIPE_API_URL: 'http://me:SeCrEt@x.com/v1' })).toThrow("not 'http://me:***@x.com/v1'");
  });
});
