/** The subscriptions' job: renewals billed when due. Run by the job runner of `vitrine serve` (src/platform/jobs/runner.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { Job, JobLog } from '../../platform/jobs/runner';
import { paymentProviderFor, type PaymentEnv } from '../payments';
import { billDueSubscriptions } from './billing';

/** How often renewals are billed: a bill is due at a time of day, so it goes out within this of it. */
export const SUBSCRIPTION_BILLING_INTERVAL_MS = 5 * 60_000;

/** Bills the subscription periods that are due (./subscriptions/billing.ts: one bill per period across processes). */
export function subscriptionBillingJob(db: Kysely<Database>, env: PaymentEnv, log?: JobLog, publicUrl?: string): Job {
  return {
    name: 'subscription-billing',
    intervalMs: SUBSCRIPTION_BILLING_INTERVAL_MS,
    async run() {
      const summary = await billDueSubscriptions(db, {
        now: new Date(),
        paymentsFor: (site) => paymentProviderFor(site.settings.store.checkout.payments, env),
        publicUrl,
      });
      for (const problem of summary.errors)
        log?.error(
          { job: 'subscription-billing', subscriptionId: problem.subscriptionId },
          `subscription ${problem.subscriptionId} not billed: ${problem.error}`,
        );
      const { paid, awaitingPayment, declined, soldOut, failed } = summary;
      if (paid + awaitingPayment + declined + soldOut + failed > 0) {
        log?.info(
          { job: 'subscription-billing', paid, awaitingPayment, declined, soldOut, failed },
          `subscriptions: ${paid} paid, ${awaitingPayment} awaiting payment, ${declined} declined, ${soldOut} sold out, ${failed} to retry`,
        );
      }
    },
  };
}
