/**
 * SQLite counts an order in its customer's row and its search row a moment after the order (migration 032: place
 * order writes only its id to orders_pending). Whatever reads the customers or searches the orders counts the orders
 * still waiting first, so it sees every order placed before it; the job below does it every minute between reads, so
 * that a read after a busy day does not hold the write lock for a day's orders. PostgreSQL counts them in the
 * order's transaction (027's triggers): nothing to do.
 */
import { sql, type Kysely } from 'kysely';
import { ok } from '../../core/result';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import type { Job } from '../../platform/jobs/runner';

export const PENDING_ORDERS_INTERVAL_MS = 60_000;

/** Counts the orders waiting (deleting their pending rows counts each: 032's trigger), in one write transaction. */
export async function countPendingOrders(db: Kysely<Database>): Promise<void> {
  if (engineOf(db) !== 'sqlite') return;
  const waiting = await sql`SELECT 1 FROM orders_pending LIMIT 1`.execute(db);
  if (waiting.rows.length === 0) return;
  await inTransaction(db, async (trx) => {
    await sql`DELETE FROM orders_pending`.execute(trx);
    return ok(undefined);
  });
}

export function pendingOrdersJob(db: Kysely<Database>): Job {
  return { name: 'pending-orders', intervalMs: PENDING_ORDERS_INTERVAL_MS, run: () => countPendingOrders(db) };
}
