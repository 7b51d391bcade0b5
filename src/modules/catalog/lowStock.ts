/**
 * The daily low-stock e-mail (issue 25): at most one a day (UTC) per site, to each of its admins and store managers,
 * listing the counted variants at or below the store's lowStockThreshold; nothing is sent, and the day stays open,
 * when nothing is low. The day is claimed by inserting the row (site, day) of low_stock_notices in the same
 * transaction that writes the e-mails: of several processes running the job at once, one inserts it and the others
 * find it (PostgreSQL makes them wait for the first one's commit) — the row is the lease, and it never needs releasing.
 */
import type { Kysely } from 'kysely';
import { ok } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import { enqueueEmail } from '../../platform/mail/outbox';
import { listSites, type Site } from '../site';
import { shopNoticeRecipients } from '../siteUsers';
import { countLowStock, listInventory } from './inventoryAdmin';
import { LOW_STOCK_KIND, lowStockEmail, type LowStockLine } from './lowStockMail';

/** The longest list an e-mail shows (the inventory's page has them all). */
const MOST_LINES = 200;

export interface LowStockOutcome {
  siteId: string;
  /** 'sent': e-mails queued; 'none-low', 'no-recipients', 'already-sent' today. */
  action: 'sent' | 'none-low' | 'no-recipients' | 'already-sent';
  variants: number;
  emails: number;
}

/** The low-stock e-mails of one site for `now`'s day; `origin` is the owner's (ownerOrigin). */
export async function sendLowStockNotice(
  db: Kysely<Database>,
  site: Site,
  origin: string,
  now = new Date(),
): Promise<LowStockOutcome> {
  const day = now.toISOString().slice(0, 10);
  const threshold = site.settings.store.lowStockThreshold;
  const done = await inTransaction(db, async (trx) => {
    const outcome = (action: LowStockOutcome['action'], variants = 0, emails = 0) =>
      ok<LowStockOutcome>({ siteId: site.id, action, variants, emails });
    const sent = await trx
      .selectFrom('low_stock_notices')
      .select('day')
      .where('site_id', '=', site.id)
      .where('day', '=', day)
      .executeTakeFirst();
    if (sent) return outcome('already-sent');
    const recipients = await shopNoticeRecipients(trx, site.id);
    if (recipients.length === 0) return outcome('no-recipients');
    const lowCount = await countLowStock(trx, site.id, threshold);
    if (lowCount === 0) return outcome('none-low');
    const low = await listInventory(trx, site.id, { filter: 'low', lowStockThreshold: threshold, limit: MOST_LINES });
    const claimed = await trx
      .insertInto('low_stock_notices')
      .values({ site_id: site.id, day, variants: lowCount, sent_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['site_id', 'day']).doNothing())
      .returning('day')
      .executeTakeFirst();
    if (!claimed) return outcome('already-sent');
    const lines: LowStockLine[] = low.items.map((item) => ({
      sku: item.sku,
      productName: item.productName,
      variant: Object.entries(item.attributes)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
      qtyInStock: item.qtyInStock ?? 0,
    }));
    const mail = lowStockEmail(lines, {
      siteTitle: site.title,
      threshold,
      inventoryUrl: `${origin}/admin/inventory?filter=low`,
    });
    for (const to of recipients) await enqueueEmail(trx, { siteId: site.id, kind: LOW_STOCK_KIND, to, ...mail }, now);
    return outcome('sent', lowCount, recipients.length);
  });
  if (!done.ok) throw new Error('unreachable');
  return done.value;
}

/** Every site's low-stock e-mails for today; `originOf` gives each site's owner origin. */
export async function sendLowStockNotices(
  db: Kysely<Database>,
  originOf: (site: Site) => string,
  now = new Date(),
): Promise<LowStockOutcome[]> {
  const outcomes: LowStockOutcome[] = [];
  for (const site of await listSites(db)) outcomes.push(await sendLowStockNotice(db, site, originOf(site), now));
  return outcomes;
}
