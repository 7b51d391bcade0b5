/** The outbox's job: due messages sent every few seconds (src/platform/jobs/runner.ts runs it). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import type { Job, JobLog } from '../jobs/runner';
import { drainOutbox } from './outbox';
import type { MailTransport } from './transport';

export const OUTBOX_INTERVAL_MS = 5000;

/**
 * Sends the due outbox messages every few seconds. Without a transport (no SMTP_URL) it sends nothing: the messages
 * stay pending, and `vitrine outbox` lists them.
 */
export function outboxJob(db: Kysely<Database>, transport: MailTransport | undefined, log?: JobLog): Job {
  return {
    name: 'outbox',
    intervalMs: OUTBOX_INTERVAL_MS,
    async run() {
      if (!transport) return;
      const result = await drainOutbox(db, transport);
      if (!log) return;
      for (const problem of result.errors) {
        log.error(
          { job: 'outbox', outboxId: problem.id, to: problem.to },
          `e-mail ${problem.id} to ${problem.to} not sent: ${problem.error}`,
        );
      }
      const { sent, retried, failed } = result;
      if (sent + retried + failed > 0)
        log.info(
          { job: 'outbox', sent, retried, failed },
          `outbox: sent ${sent}, to retry ${retried}, failed ${failed}`,
        );
    },
  };
}
