/**
 * How many restock sign-ups wait for their e-mail (the owner's home, /admin): not yet notified, whatever the stock.
 * Read from the index restock_sign_ups_waiting (migration 024): as many rows as it counts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

export async function countWaitingSignUps(db: Kysely<Database>, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('restock_sign_ups')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('site_id', '=', siteId)
    .where('notified_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
