/**
 * Webhooks of payment services: `POST /api/commerce/payments/stripe/webhook` (the URL to give Stripe). Stripe signs
 * the exact bytes it sends, so this route reads the body raw: its own JSON parser (a Buffer) lives only inside this
 * route's encapsulated plugin, and every other route keeps the app's JSON parser.
 */
import type { FastifyInstance } from 'fastify';
import { recordStripeEvent, verifyStripeWebhook } from './stripeWebhook';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { z } from 'zod';
import { describeRoute, describeWithoutValidating, errorAnswer, jsonAnswer } from '../../platform/http/apiDescription';

export const STRIPE_WEBHOOK_PATH = '/api/commerce/payments/stripe/webhook';
export const STRIPE_NOT_CONFIGURED = 'Stripe is not configured.';
const NOT_JSON = 'A Stripe webhook is sent as application/json.';

export interface PaymentWebhookOptions {
  /** STRIPE_WEBHOOK_SECRET (whsec_…); without it the Stripe webhook answers 404. */
  stripeWebhookSecret?: string | undefined;
}

/** Stripe's events are a few KB; a charge with many refunds stays far below this. */
const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

export function registerPaymentWebhookRoutes(
  app: FastifyInstance,
  ctx: Pick<AppContext, 'db'>,
  options: PaymentWebhookOptions,
): void {
  const secret = options.stripeWebhookSecret?.trim() || undefined;

  void app.register(async (scope) => {
    // The route's schema describes it (docs/openapi.json), even on an app that did not say so (a test's bare app).
    describeWithoutValidating(scope);
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
      (_request, body, done) => {
        done(null, body);
      },
    );

    // Stripe's servers call it, signed: no crumb or Origin check (src/platform/http/crumb.ts).
    scope.post(
      STRIPE_WEBHOOK_PATH,
      { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES, config: { crumb: false }, schema: stripeWebhookRoute },
      async (request, reply) => {
        if (secret === undefined) throw new ApiError('route-not-found', STRIPE_NOT_CONFIGURED);
        // An absent body arrives as undefined (the signature cannot match it either); another media type was parsed as such.
        if (request.body !== undefined && !Buffer.isBuffer(request.body))
          throw new ApiError('unsupported-media-type', NOT_JSON);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['stripe-signature'];
        const verified = verifyStripeWebhook(body, typeof header === 'string' ? header : undefined, secret);
        if (!verified.ok) throw new ApiError('invalid-input', verified.error);
        await recordStripeEvent(ctx.db, verified.value, new Date());
        reply.header('cache-control', 'no-store');
        return { received: true };
      },
    );
  });
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const stripeWebhookRoute = describeRoute({
  operationId: 'stripeWebhook',
  summary: 'Stripe’s events (webhook; signed)',
  description:
    'Called by Stripe, not a browser: authenticated by the `Stripe-Signature` header (STRIPE_WEBHOOK_SECRET), no crumb.',
  tags: ['webhooks'],
  headers: z.object({ 'stripe-signature': z.string() }),
  body: z.record(z.string(), z.unknown()).describe('The Stripe event, as Stripe signed it.'),
  response: {
    200: jsonAnswer('Recorded.', z.object({ received: z.literal(true) })),
    400: errorAnswer('invalid-input: the signature does not match.'),
    404: errorAnswer('route-not-found: no webhook secret is configured.'),
    415: errorAnswer('unsupported-media-type: not JSON.'),
  },
});
