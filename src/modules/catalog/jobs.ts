/** The catalog's job: the daily low-stock e-mail. Run by the job runner of `vitrine serve` (src/platform/jobs/runner.ts). */
import type { Kysely } from 'kysely';
import { ownerOrigin } from '../../core/linkOrigin';
import type { Database } from '../../platform/db/tables';
import type { Job, JobLog } from '../../platform/jobs/runner';
import { sendLowStockNotices } from './lowStock';

/** How often the job looks: hourly, so a shop that runs low in the afternoon hears of it that day (once a day at most). */
export const LOW_STOCK_INTERVAL_MS = 60 * 60_000;

/** The low-stock e-mails; links on PUBLIC_URL, else the site's domain, else this server's PORT (ownerOrigin). */
export function lowStockJob(
  db: Kysely<Database>,
  links: { publicUrl?: string | undefined; port: number },
  log?: JobLog,
): Job {
  return {
    name: 'low-stock',
    intervalMs: LOW_STOCK_INTERVAL_MS,
    async run() {
      const outcomes = await sendLowStockNotices(
        db,
        (site) => ownerOrigin(site.domains, links.port, links.publicUrl).origin,
      );
      for (const o of outcomes)
        if (o.action === 'sent')
          log?.info(
            { job: 'low-stock', ...o },
            `low-stock: ${o.variants} variants low on site ${o.siteId}: ${o.emails} e-mails queued`,
          );
    },
  };
}
