/** The restock job: notices queued when stock returns. Run by the job runner of `vitrine serve` (src/platform/jobs/runner.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { Job, JobLog } from '../../platform/jobs/runner';
import { runRestockAutoSend } from './autoSend';

/** How often the restocks recorded by imports and refunds are looked at (./restock/autoSend.ts). */
export const RESTOCK_INTERVAL_MS = 60_000;

/**
 * Variants with sign-ups that came back in stock: their restock e-mails are queued at once on sites whose
 * `store.restock.autoSend` is on (as many as units); elsewhere the log says who waits and the command that sends.
 */
export function restockJob(db: Kysely<Database>, log?: JobLog): Job {
  return {
    name: 'restock',
    intervalMs: RESTOCK_INTERVAL_MS,
    async run() {
      for (const o of await runRestockAutoSend(db)) {
        const what = `${o.productId} / ${o.variantId} is back in stock on site ${o.siteId}`;
        if (o.action === 'sent')
          log?.info(
            { job: 'restock', ...o },
            `restock: ${what}: ${o.sent} e-mails queued, ${o.waiting} shoppers still waiting`,
          );
        else if (o.waiting > 0) {
          log?.info(
            { job: 'restock', ...o },
            `restock: ${what} with ${o.waiting} shoppers waiting; send with: vitrine restock send --site ${o.siteId} --product ${o.productId} --variant ${o.variantId}`,
          );
        }
      }
    },
  };
}
