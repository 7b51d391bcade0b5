/** The site users' job: expired sessions removed. Run by the job runner of `vitrine serve` (src/platform/jobs/runner.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { Job, JobLog } from '../../platform/jobs/runner';
import { removeExpiredSessions } from './sessions';

/** How often expired sessions are removed: they expire by the day, so hourly is plenty. */
const SESSION_EXPIRY_INTERVAL_MS = 60 * 60_000;

export function sessionExpiryJob(db: Kysely<Database>, log?: JobLog): Job {
  return {
    name: 'session-expiry',
    intervalMs: SESSION_EXPIRY_INTERVAL_MS,
    async run() {
      const sessions = await removeExpiredSessions(db, new Date());
      if (sessions > 0)
        log?.info(
          { job: 'session-expiry', sessions },
          `session-expiry: removed ${sessions} expired site-user sessions`,
        );
    },
  };
}
