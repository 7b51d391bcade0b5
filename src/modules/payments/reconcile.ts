/**
 * Releases money held by checkouts that never finished: a payment attempt still pending long after it began means its
 * process died between the provider's answer and the order's transaction (a crash, a deploy). The order was never
 * written, so an authorization it holds is voided, and the attempt is closed as failed so a retried request with its
 * key tells the shopper to try again. Runs as a job inside `vitrine serve`; safe in several processes at once (the
 * provider's void is idempotent by key, and the status moves only from pending).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { CheckoutFailure } from '../orders';
import { abandonedAttempts } from './attempts';
import type { PaymentProvider } from './provider';

/** A checkout takes well under a second; one pending this long is abandoned (the wait of a duplicate is 20 s). */
export const ABANDONED_AFTER_MS = 10 * 60_000;

const ABANDONED: CheckoutFailure = {
  type: 'PAYMENT_FAILED',
  message: 'Your order could not be completed and you have not been charged. Please try again.',
};

export async function releaseAbandonedPayments(
  db: Kysely<Database>,
  providerOf: (siteId: string) => Promise<PaymentProvider | undefined>,
  now = new Date(),
): Promise<{ released: number }> {
  let released = 0;
  for (const attempt of await abandonedAttempts(db, new Date(now.getTime() - ABANDONED_AFTER_MS))) {
    if (attempt.reference) {
      const provider = await providerOf(attempt.siteId);
      const voided = provider ? await provider.void(attempt.reference, `${attempt.id}:void`) : { ok: false };
      if (!voided.ok) continue; // tried again on the next run
    }
    const closed = await db
      .updateTable('payments')
      .set({
        status: attempt.reference ? 'voided' : 'failed',
        failure: JSON.stringify(ABANDONED),
        updated_at: now.toISOString(),
      })
      .where('id', '=', attempt.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    released += Number(closed.numUpdatedRows);
  }
  return { released };
}
