/**
 * The audit entry of a restock send by a person or a command (/admin's 'Send now', `vitrine restock send`): written in
 * each batch's transaction through send.ts's onBatch hook, naming the variant and the shoppers e-mailed. The automatic
 * send (autoSend.ts) writes none: nobody did it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { recordAudit, type Actor } from '../admin';

export const restockSentAudit =
  (siteId: string, variantId: string, actor: Actor) =>
  (trx: Kysely<Database>, emails: readonly string[]): Promise<void> =>
    recordAudit(trx, {
      siteId,
      actor,
      action: 'restock.sent',
      subject: { type: 'variant', id: variantId },
      summary: `Sent the restock e-mail of ${variantId} to ${emails.length} waiting shopper${emails.length === 1 ? '' : 's'}`,
      after: { emails },
    });
