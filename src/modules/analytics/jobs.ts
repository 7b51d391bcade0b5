/** The analytics job: rollups and retention. Run by the job runner of `vitrine serve` (src/platform/jobs/runner.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { Job, JobLog } from '../../platform/jobs/runner';
import { applyRetention, rollupRecent } from './rollup';

/** How often today's and yesterday's analytics are rolled up (the report also rolls up before it reads). */
export const ANALYTICS_ROLLUP_INTERVAL_MS = 10 * 60_000;

/** Rolls up recent analytics and applies their retention (./analytics/rollup.ts): raw events older than `retentionDays` go. */
export function analyticsRollupJob(db: Kysely<Database>, retentionDays: number, log?: JobLog): Job {
  return {
    name: 'analytics-rollup',
    intervalMs: ANALYTICS_ROLLUP_INTERVAL_MS,
    async run() {
      const now = new Date();
      await rollupRecent(db, now);
      const { days, events } = await applyRetention(db, now, retentionDays);
      if (events > 0)
        log?.info(
          { job: 'analytics-rollup', days, events },
          `analytics: removed ${events} raw events of ${days} days past the ${retentionDays}-day retention`,
        );
    },
  };
}
