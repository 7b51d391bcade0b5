/** The cart's job: expired carts removed. Run by the job runner of `vitrine serve` (src/platform/jobs/runner.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { Job, JobLog } from '../../platform/jobs/runner';
import { expireCarts } from './cartExpiry';

/** How often the cart-expiry job runs: carts expire by the day, so hourly is plenty. */
export const CART_EXPIRY_INTERVAL_MS = 60 * 60_000;

/**
 * Removes expired carts (./cartExpiry.ts): open ones untouched for 30 days, empty ones after a day; never bought ones.
 */
export function cartExpiryJob(db: Kysely<Database>, log?: JobLog): Job {
  return {
    name: 'cart-expiry',
    intervalMs: CART_EXPIRY_INTERVAL_MS,
    async run() {
      const { removed } = await expireCarts(db, new Date());
      if (removed > 0) log?.info({ job: 'cart-expiry', removed }, `cart-expiry: removed ${removed} expired carts`);
    },
  };
}
