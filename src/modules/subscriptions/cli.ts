/**
 * `vitrine subscriptions`: the merchant's view of subscriptions. `subscriptions` lists them (newest first, every site
 * unless --site), `subscriptions show ID` prints one with its bills, `subscriptions cancel ID` cancels it, and
 * `subscriptions bill [--now DATE]` bills every period due now (or at DATE) — what the scheduler inside
 * `vitrine serve` does every few minutes, safe to run at the same time as it.
 */
import {
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_STATUS_TEXT,
  type SubscriptionStatus,
} from '../../core/subscriptionSchedule';
import { paymentEnvOf, paymentProviderFor } from '../payments';
import { COMMAND_ACTOR } from '../admin';
import { billDueSubscriptions } from './billing';
import { changeSubscription } from './ownerChanges';
import { getSubscription, listBills, listSubscriptions } from './store';
import { getSite } from '../site';
import { defineCommand, UsageError, UserError, type Command, type PositionalSpec } from '../../platform/cli/command';
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { formatStoredMoney as money } from '../../core/money';
import { formatTable, printable } from '../../platform/cli/table';

const ID = /^[A-Za-z0-9_-]{22}$/;

/** An id may start with '-' (22 base64url characters): such an argument is the id, not an option. */
const SUBSCRIPTION_ID: PositionalSpec = {
  name: 'ID',
  what: 'subscription id',
  needs: "the subscription's id",
  dashValue: ID,
};

const shownTime = (iso: string | null): string =>
  iso === null ? '-' : /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? iso.slice(0, 16).replace('T', ' ') : iso;
/** The id of `subscriptions show|cancel ID`, checked. */
function idOf(text: string): string {
  if (!ID.test(text))
    throw new UsageError(
      `a subscription id is 22 letters, digits, '-' or '_' (as 'vitrine subscriptions' lists them), not '${printable(text)}'`,
    );
  return text;
}

const listCommand = defineCommand({
  name: 'subscriptions',
  options: {
    site: { type: 'string', value: 'ID', description: 'only the subscriptions of this site' },
    status: { type: 'string', choices: SUBSCRIPTION_STATUSES, description: 'only the subscriptions of this status' },
    limit: { type: 'integer', min: 1, max: 10_000, default: 50, description: 'at most this many subscriptions' },
  },
  async run({ options }, io) {
    const { site: siteId, status, limit } = options;
    return withDatabase(loadSettings(), io, async (handle) => {
      if (siteId !== undefined && !(await getSite(handle.db, siteId)))
        throw new UserError(`there is no site '${printable(siteId)}' in the database`);
      const subs = await listSubscriptions(handle.db, {
        limit,
        ...(siteId !== undefined ? { siteId } : {}),
        ...(status !== undefined ? { status: status as SubscriptionStatus } : {}),
      });
      if (subs.length === 0) {
        io.out(status === undefined ? 'No subscriptions yet.' : `No ${status} subscriptions.`);
        return 0;
      }
      const table = formatTable(
        [
          { header: 'ID' },
          { header: 'STATUS' },
          { header: 'E-MAIL', maxWidth: 40 },
          { header: 'PRODUCT', maxWidth: 30 },
          { header: 'PLAN', maxWidth: 40 },
          { header: 'NEXT BILLING (UTC)' },
          { header: 'SITE' },
        ],
        subs.map((s) => [
          s.id,
          SUBSCRIPTION_STATUS_TEXT[s.status],
          s.email,
          s.line.title,
          s.planText,
          shownTime(s.nextBillingAt),
          s.siteId,
        ]),
      );
      for (const line of table) io.out(line);
      if (subs.length === limit) io.out(`(the newest ${limit}; --limit N shows more)`);
      return 0;
    });
  },
});

const showCommand = defineCommand({
  name: 'subscriptions show',
  positionals: [SUBSCRIPTION_ID],
  async run({ positionals }, io) {
    const id = idOf(positionals[0] as string);
    return withDatabase(loadSettings(), io, async (handle) => {
      const sub = await getSubscription(handle.db, id);
      if (!sub) throw new UserError(`there is no subscription '${id}'`);
      const p = (text: string) => printable(text);
      const attributes = Object.entries(sub.line.attributes)
        .map(([n, v]) => `${n}: ${v}`)
        .join(', ');
      const lines = [
        `Subscription ${sub.id}`,
        `Site:          ${p(sub.siteId)}`,
        `Status:        ${SUBSCRIPTION_STATUS_TEXT[sub.status]}`,
        `E-mail:        ${p(sub.email)}`,
        `Product:       ${p(sub.line.title)}${attributes ? ` (${p(attributes)})` : ''}, sku ${p(sub.sku)} × ${sub.quantity}`,
        `Plan:          ${p(sub.planText)}`,
        `Started:       ${shownTime(sub.startedAt)} UTC`,
        `Next billing:  ${sub.nextBillingAt ? `${shownTime(sub.nextBillingAt)} UTC` : '-'}`,
        ...(sub.cancelledAt ? [`Cancelled:     ${shownTime(sub.cancelledAt)} UTC`] : []),
        `Payment:       ${p(sub.paymentProvider)}`,
        '',
        'Bills:',
      ];
      const bills = await listBills(handle.db, sub.id);
      const table = formatTable(
        [
          { header: 'PERIOD', align: 'right' },
          { header: 'STATUS' },
          { header: 'AMOUNT', align: 'right' },
          { header: 'ORDER' },
          { header: 'AT (UTC)' },
        ],
        bills.map((b) => [
          String(b.periodNumber),
          b.status,
          money(sub.currency, b.amount),
          b.orderNumber === null ? '-' : `#${b.orderNumber}`,
          shownTime(b.createdAt),
        ]),
      );
      for (const line of [...lines, ...table.map((l) => `  ${l}`)]) io.out(line);
      return 0;
    });
  },
});

const cancelCommand = defineCommand({
  name: 'subscriptions cancel',
  positionals: [SUBSCRIPTION_ID],
  async run({ positionals }, io) {
    const id = idOf(positionals[0] as string);
    return withDatabase(loadSettings(), io, async (handle) => {
      const sub = await getSubscription(handle.db, id);
      if (!sub) throw new UserError(`there is no subscription '${id}'`);
      // The owner's cancel, with its audit entry (as /admin's).
      const outcome = await changeSubscription(handle.db, sub.siteId, id, 'cancel', COMMAND_ACTOR);
      if (outcome.ok) {
        io.out(
          `Cancelled subscription ${id} (${printable(outcome.value.email)}, ${printable(outcome.value.planText)}).`,
        );
        return 0;
      }
      const now = (await getSubscription(handle.db, id)) ?? sub;
      throw new UserError(`subscription ${id} is already ${SUBSCRIPTION_STATUS_TEXT[now.status].toLowerCase()}`);
    });
  },
});

/** `subscriptions pause|resume|skip ID`: the owner's changes of /admin, with their audit entry. */
const ownerCommand = (change: 'pause' | 'resume' | 'skip') =>
  defineCommand({
    name: `subscriptions ${change}`,
    positionals: [SUBSCRIPTION_ID],
    async run({ positionals }, io) {
      const id = idOf(positionals[0] as string);
      return withDatabase(loadSettings(), io, async (handle) => {
        const sub = await getSubscription(handle.db, id);
        if (!sub) throw new UserError(`there is no subscription '${id}'`);
        const changed = await changeSubscription(handle.db, sub.siteId, id, change, COMMAND_ACTOR);
        if (!changed.ok) throw new UserError(changed.error.message);
        const s = changed.value;
        const next = s.nextBillingAt ? `next billing ${shownTime(s.nextBillingAt)} UTC` : 'no next billing (completed)';
        io.out(
          change === 'pause'
            ? `Paused subscription ${id} (${printable(s.email)}): it is not billed until resumed.`
            : change === 'resume'
              ? `Resumed subscription ${id} (${printable(s.email)}); ${next}.`
              : `Skipped the next billing of subscription ${id} (${printable(s.email)}); ${next}.`,
        );
        return 0;
      });
    },
  });

const billCommand = defineCommand({
  name: 'subscriptions bill',
  options: {
    now: {
      type: 'string',
      value: 'DATE',
      description: 'bill what is due at this time: 2026-05-01 or 2026-05-01T09:00:00Z (a time without a zone is UTC)',
    },
  },
  details: ['Safe to run at the same time as the billing inside vitrine serve: each renewal is billed once.'],
  async run({ options }, io) {
    const raw = options.now;
    const now = raw === undefined ? new Date() : parseDate(raw);
    const config = loadSettings();
    return withDatabase(config, io, async (handle) => {
      const env = paymentEnvOf(config);
      const summary = await billDueSubscriptions(handle.db, {
        now,
        paymentsFor: (site) => paymentProviderFor(site.settings.store.checkout.payments, env),
        publicUrl: config.publicUrl,
      });
      io.out(
        `Billed at ${now.toISOString()}: ${summary.paid} paid, ${summary.awaitingPayment} awaiting payment, ${summary.declined} declined (now past due), ` +
          `${summary.soldOut} sold out (not charged), ${summary.failed} to retry.`,
      );
      for (const problem of summary.errors)
        io.err(`vitrine: subscription ${problem.subscriptionId} not billed: ${problem.error}`);
      return summary.errors.length > 0 ? 1 : 0;
    });
  },
});

/** '2026-05-01', '2026-05-01T09:00', '2026-05-01T09:00:00Z' … (a date without a zone is read as UTC). */
function parseDate(text: string): Date {
  const iso = /^\d{4}-\d\d-\d\d$/.test(text)
    ? `${text}T00:00:00Z`
    : /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?$/.test(text)
      ? `${text}Z`
      : text;
  const date = /^\d{4}-\d\d-\d\dT/.test(iso) ? new Date(iso) : new Date(NaN);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(
      `option '--now' must be a date like 2026-05-01 or 2026-05-01T09:00:00Z, not '${printable(text)}'`,
    );
  return date;
}

export const commands: readonly Command[] = [
  listCommand,
  showCommand,
  cancelCommand,
  ownerCommand('pause'),
  ownerCommand('resume'),
  ownerCommand('skip'),
  billCommand,
];
