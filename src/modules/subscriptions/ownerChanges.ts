/**
 * What the owner changes on a subscription (/admin/gathered/subscriptions, `vitrine subscriptions pause|resume|skip|
 * cancel`): pause, resume, skip the next billing, cancel. Each is one transaction with its audit entry, and each moves
 * the subscription with one guarded update, so two staff (or a staff member and the renewal run) at once: one wins,
 * the other is told.
 *
 * - pause: active or past due → paused; the renewal run bills only active subscriptions, and its order's transaction
 *   re-checks 'active' with a guarded update of its own, so a pause racing a renewal never bills the paused one.
 * - resume: paused → active, next billing on the plan's schedule: the date it had if still ahead, else the first
 *   scheduled date after now (periods that fell while paused are not billed).
 * - skip: the next period is passed over once (a 'skipped' bill, nothing charged): next billing moves one interval on.
 *   The bill row is the period's claim (UNIQUE with the renewal's), so a skip and a renewal of one period never both
 *   happen; after the last cycle the subscription completes.
 */
import type { Kysely } from 'kysely';
import { SUBSCRIPTION_STATUS_TEXT, billingDate } from '../../core/subscriptionSchedule';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import { randomToken } from '../../platform/randomToken';
import { recordAudit, type Actor } from '../admin';
import { getSite } from '../site';
import { nextBillingAfter } from './billing';
import { cancelSubscription, getSubscription, subscriptionFromRow, type Subscription } from './store';

type Db = Kysely<Database>;

export type OwnerChange = 'pause' | 'resume' | 'skip' | 'cancel';

export type OwnerChangeRefusal =
  | { type: 'not-found'; message: string }
  /** Not in a state the change applies to (another change got there first); nothing changed. */
  | { type: 'conflict'; message: string };

const notFound = (id: string): OwnerChangeRefusal => ({
  type: 'not-found',
  message: `There is no subscription ${id}.`,
});

const stateText = (sub: Subscription): string => SUBSCRIPTION_STATUS_TEXT[sub.status].toLowerCase();

/** The audit's view of a subscription: what these changes move. */
const auditView = (sub: Subscription) => ({
  status: sub.status,
  nextBillingAt: sub.nextBillingAt,
  periodsBilled: sub.periodsBilled,
});

const ACTION: Record<OwnerChange, string> = {
  pause: 'subscription.paused',
  resume: 'subscription.resumed',
  skip: 'subscription.skipped',
  cancel: 'subscription.cancelled',
};

const DONE: Record<OwnerChange, string> = {
  pause: 'Paused',
  resume: 'Resumed',
  skip: 'Skipped the next billing of',
  cancel: 'Cancelled',
};

export interface ChangeOptions {
  /**
   * skip: the period the owner saw as the next one (the page's form sends it), so that a button pressed twice, or two
   * staff at once, skip one billing, not two; without it, whatever billing is next now.
   */
  period?: number;
}

/** Makes one change as `actor` (a staff member or a `vitrine` command) on a subscription of `siteId`. */
export async function changeSubscription(
  db: Db,
  siteId: string,
  id: string,
  change: OwnerChange,
  actor: Actor,
  now: Date = new Date(),
  options: ChangeOptions = {},
): Promise<Result<Subscription, OwnerChangeRefusal>> {
  const site = await getSite(db, siteId);
  const timeZone = site?.settings.timeZone ?? 'UTC';
  return inTransaction<Subscription, OwnerChangeRefusal>(db, async (trx) => {
    const before = await getSubscription(trx, id, siteId);
    if (!before) return err(notFound(id));
    const after = await apply(trx, before, change, now, timeZone, options);
    if (!after.ok) return after;
    await recordAudit(trx, {
      siteId,
      actor,
      action: ACTION[change],
      subject: { type: 'subscription', id },
      summary: `${DONE[change]} the subscription of ${before.email} (${before.line.title})${
        change === 'skip' || change === 'resume'
          ? `; next billing ${after.value.nextBillingAt?.slice(0, 10) ?? 'none (completed)'}`
          : ''
      }`,
      before: auditView(before),
      after: auditView(after.value),
      at: now,
    });
    return after;
  });
}

async function apply(
  trx: Db,
  sub: Subscription,
  change: OwnerChange,
  now: Date,
  timeZone: string,
  options: ChangeOptions,
): Promise<Result<Subscription, OwnerChangeRefusal>> {
  const stamp = now.toISOString();
  // Said in the state it is in now (another change may have moved it since it was read).
  const refused = async (what: string) => {
    const current = (await getSubscription(trx, sub.id, sub.siteId)) ?? sub;
    return err<OwnerChangeRefusal>({
      type: 'conflict',
      message: `Subscription ${sub.id} is ${stateText(current)}: it cannot be ${what}.`,
    });
  };
  switch (change) {
    case 'pause': {
      const row = await trx
        .updateTable('subscriptions')
        .set({ status: 'paused', updated_at: stamp })
        .where('id', '=', sub.id)
        .where('status', 'in', ['active', 'past_due'])
        .returningAll()
        .executeTakeFirst();
      return row ? ok(subscriptionFromRow(row)) : refused('paused');
    }
    case 'resume': {
      const resumed = resumePoint(sub, now, timeZone);
      const row = await trx
        .updateTable('subscriptions')
        .set({
          status: resumed.next === null ? 'completed' : 'active',
          periods_billed: resumed.periodsBilled,
          next_billing_at: resumed.next ? resumed.next.toISOString() : null,
          updated_at: stamp,
        })
        .where('id', '=', sub.id)
        .where('status', '=', 'paused')
        .where('periods_billed', '=', sub.periodsBilled)
        .returningAll()
        .executeTakeFirst();
      return row ? ok(subscriptionFromRow(row)) : refused('resumed');
    }
    case 'skip': {
      if (sub.status !== 'active') return refused('skipped');
      const period = sub.periodsBilled + 1;
      if (options.period !== undefined && options.period !== period)
        return err({
          type: 'conflict',
          message: `The billing you asked to skip (period ${options.period}) is no longer the next one: the next is period ${period}${sub.nextBillingAt ? `, on ${sub.nextBillingAt.slice(0, 10)}` : ''}.`,
        });
      const claimed = await trx
        .insertInto('subscription_bills')
        .values({
          id: randomToken(16),
          subscription_id: sub.id,
          period_number: period,
          status: 'skipped',
          amount: 0,
          order_id: null,
          locked_until: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .onConflict((oc) => oc.columns(['subscription_id', 'period_number']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!claimed)
        return err({
          type: 'conflict',
          message: `The next billing of subscription ${sub.id} is being made right now: it cannot be skipped.`,
        });
      const next = nextBillingAfter(sub, period, timeZone);
      const row = await trx
        .updateTable('subscriptions')
        .set({
          periods_billed: period,
          next_billing_at: next ? next.toISOString() : null,
          status: next ? 'active' : 'completed',
          updated_at: stamp,
        })
        .where('id', '=', sub.id)
        .where('status', '=', 'active')
        .where('periods_billed', '=', period - 1)
        .returningAll()
        .executeTakeFirst();
      // Moved meanwhile: the whole transaction (the skipped bill too) rolls back.
      return row ? ok(subscriptionFromRow(row)) : refused('skipped');
    }
    case 'cancel': {
      const outcome = await cancelSubscription(trx, sub.id, now, sub.siteId);
      return outcome.cancelled ? ok(outcome.subscription) : refused('cancelled');
    }
  }
}

/** Where a resumed subscription picks up: its next date if still ahead, else the first scheduled date after now. */
function resumePoint(sub: Subscription, now: Date, timeZone: string): { periodsBilled: number; next: Date | null } {
  if (!sub.plan) return { periodsBilled: sub.periodsBilled, next: null };
  if (sub.nextBillingAt !== null && Date.parse(sub.nextBillingAt) > now.getTime())
    return { periodsBilled: sub.periodsBilled, next: new Date(sub.nextBillingAt) };
  const start = new Date(sub.startedAt);
  let period = sub.periodsBilled + 1;
  // A weekly plan paused for years is at most a few hundred periods: bounded, and no loop without end.
  for (let i = 0; i < 10_000; i += 1) {
    const cycles = sub.plan.numBillingCycles;
    if (cycles !== null && cycles > 0 && period > cycles) return { periodsBilled: cycles, next: null };
    const date = billingDate(start, sub.plan.billingPeriod, period, timeZone);
    if (date.getTime() > now.getTime()) return { periodsBilled: period - 1, next: date };
    period += 1;
  }
  return { periodsBilled: sub.periodsBilled, next: null };
}
