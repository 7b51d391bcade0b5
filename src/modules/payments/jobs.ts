/** The payments' job: authorizations of abandoned checkouts voided. Run by the job runner of `vitrine serve` (src/platform/jobs/runner.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { Job, JobLog } from '../../platform/jobs/runner';
import { paymentProviderFor, type PaymentEnv } from '.';
import { releaseAbandonedPayments } from './reconcile';
import { getSite } from '../site';

/** How often the abandoned-payments job looks (it only acts on attempts pending for ABANDONED_AFTER_MS). */
const ABANDONED_PAYMENTS_INTERVAL_MS = 60_000;

/** Voids authorizations of checkouts whose process died before the order was written (../payments/reconcile.ts). */
export function abandonedPaymentsJob(db: Kysely<Database>, env: PaymentEnv, log?: JobLog): Job {
  return {
    name: 'abandoned-payments',
    intervalMs: ABANDONED_PAYMENTS_INTERVAL_MS,
    async run() {
      const { released } = await releaseAbandonedPayments(db, async (siteId) => {
        const site = await getSite(db, siteId);
        return site ? paymentProviderFor(site.settings.store.checkout.payments, env) : undefined;
      });
      if (released > 0)
        log?.info(
          { job: 'abandoned-payments', released },
          `released ${released} payment attempts of unfinished checkouts`,
        );
    },
  };
}
