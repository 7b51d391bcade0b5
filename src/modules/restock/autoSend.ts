/**
 * What happens after a variant with sign-ups comes back in stock (./restocks.ts records it): on a site whose
 * `store.restock.autoSend` is on, its restock e-mails are sent (./send.ts: as many as units); otherwise the merchant is
 * told in the server's log which command sends them. Either way the restock is then handled (`auto_send_pending`
 * cleared, only for the restock that was looked at: one recorded meanwhile is looked at next time). Run by the
 * `restock` job of `vitrine serve`; several processes running it at once e-mail nobody twice (./send.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { getSite } from '../site';
import { sendRestockNotifications } from './send';

type Db = Kysely<Database>;

export interface RestockAutoSendOutcome {
  siteId: string;
  productId: string;
  variantId: string;
  /** 'sent': e-mails queued by the automatic send; 'left': the site sends by hand (the log says how). */
  action: 'sent' | 'left';
  sent: number;
  waiting: number;
}

/** Looks at every restock not yet handled. */
export async function runRestockAutoSend(
  db: Db,
  now: () => Date = () => new Date(),
): Promise<RestockAutoSendOutcome[]> {
  const pending = await db
    .selectFrom('restock_variants')
    .select(['site_id', 'sku', 'product_id', 'restocked_at'])
    .where('auto_send_pending', '=', 1)
    .orderBy('restocked_at')
    .limit(500)
    .execute();
  const outcomes: RestockAutoSendOutcome[] = [];
  for (const row of pending) {
    const site = await getSite(db, row.site_id);
    if (!site) continue;
    const target = { productId: row.product_id, variantId: row.sku };
    let outcome: RestockAutoSendOutcome = { siteId: site.id, ...target, action: 'left', sent: 0, waiting: 0 };
    if (site.settings.store.restock?.autoSend === true) {
      const sent = await sendRestockNotifications(db, site, target, { now });
      if (sent.ok) outcome = { ...outcome, action: 'sent', sent: sent.value.sent, waiting: sent.value.waiting };
    } else {
      const waiting = await db
        .selectFrom('restock_sign_ups')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('site_id', '=', site.id)
        .where('sku', '=', row.sku)
        .where('notified_at', 'is', null)
        .executeTakeFirstOrThrow();
      outcome = { ...outcome, waiting: Number(waiting.n) };
    }
    await db
      .updateTable('restock_variants')
      .set({ auto_send_pending: 0 })
      .where('site_id', '=', row.site_id)
      .where('sku', '=', row.sku)
      .$if(row.restocked_at !== null, (q) => q.where('restocked_at', '=', row.restocked_at as string))
      .execute();
    outcomes.push(outcome);
  }
  return outcomes;
}
