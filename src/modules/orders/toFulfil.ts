/**
 * The orders waiting to be fulfilled, as the owner's home (/admin) counts them: paid (refunded in part or not) and
 * still pending — an order awaiting its payment is not yet to ship, a canceled or fulfilled one no longer. Read from
 * the index orders_to_fulfil (migration 024): as many rows as it counts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

/** How many of site `siteId`'s orders are paid and pending fulfilment. */
export async function countOrdersToFulfil(db: Kysely<Database>, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('site_id', '=', siteId)
    .where('fulfilment', '=', 'pending')
    .where('status', '=', 'paid')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
