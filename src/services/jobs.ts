/**
 * The one job runner of `vitrine serve`: each job runs on its own timer, never twice at once in this process, and a
 * failing run is logged, never thrown. Jobs that must not run twice across processes claim their work with leases
 * in the database (the outbox does); the runner only paces them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import { applyRetention, rollupRecent } from './analytics/rollup';
import { expireCarts } from './cartExpiry';
import { removeExpiredSessions } from './siteUsers/sessions';
import { drainOutbox } from '../platform/mail/outbox';
import type { MailTransport } from '../platform/mail/transport';
import { paymentProviderFor, type PaymentEnv } from './payments';
import { releaseAbandonedPayments } from './payments/reconcile';
import { runRestockAutoSend } from './restock/autoSend';
import { getSite } from './sites';
import { billDueSubscriptions } from './subscriptions/billing';

export interface Job {
  name: string;
  /** Pause between the end of one run and the start of the next (the first run comes after one interval). */
  intervalMs: number;
  run: () => Promise<void>;
}

/** What the runner logs through; Fastify's (pino) logger fits. */
export interface JobLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface JobRunner {
  /** Stops the timers and waits for the runs in progress. */
  stop(): Promise<void>;
  /** Runs the job now (after the current run, if one is in progress); resolves when that run ends. */
  runNow(name: string): Promise<void>;
}

interface JobState {
  job: Job;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  /** A run asked for while one was in progress: starts when it ends. */
  next: Promise<void> | undefined;
}

export function startJobRunner(options: { jobs: readonly Job[]; log: JobLog }): JobRunner {
  const { log } = options;
  const states = new Map<string, JobState>();
  for (const job of options.jobs) {
    if (states.has(job.name)) throw new Error(`job '${job.name}' is listed twice`);
    if (!(Number.isFinite(job.intervalMs) && job.intervalMs > 0))
      throw new Error(`job '${job.name}' needs an interval above 0 ms`);
    states.set(job.name, { job, timer: undefined, running: undefined, next: undefined });
  }
  let stopped = false;

  const schedule = (state: JobState) => {
    if (stopped) return;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => void start(state), state.job.intervalMs);
    // The jobs never keep a process alive on their own: the server does.
    state.timer.unref();
  };

  const start = (state: JobState): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (state.running) {
      state.next ??= state.running.then(() => {
        state.next = undefined;
        return start(state);
      });
      return state.next;
    }
    clearTimeout(state.timer);
    state.timer = undefined;
    const { name } = state.job;
    state.running = (async () => {
      try {
        await state.job.run();
      } catch (error) {
        log.error(
          { job: name, err: error },
          `job ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    })().finally(() => {
      state.running = undefined;
      schedule(state);
    });
    return state.running;
  };

  for (const state of states.values()) schedule(state);

  return {
    async stop() {
      stopped = true;
      for (const state of states.values()) clearTimeout(state.timer);
      await Promise.all([...states.values()].map((state) => state.running));
    },
    runNow(name) {
      const state = states.get(name);
      if (!state) return Promise.reject(new Error(`there is no job '${name}'`));
      return start(state);
    },
  };
}

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

/** How often the cart-expiry job runs: carts expire by the day, so hourly is plenty. */
export const CART_EXPIRY_INTERVAL_MS = 60 * 60_000;

/**
 * Removes expired carts (./cartExpiry.ts): open ones untouched for 30 days, empty ones after a day; never bought ones.
 * Expired site-user sessions go with them.
 */
export function cartExpiryJob(db: Kysely<Database>, log?: JobLog): Job {
  return {
    name: 'cart-expiry',
    intervalMs: CART_EXPIRY_INTERVAL_MS,
    async run() {
      const { removed } = await expireCarts(db, new Date());
      if (removed > 0) log?.info({ job: 'cart-expiry', removed }, `cart-expiry: removed ${removed} expired carts`);
      const sessions = await removeExpiredSessions(db, new Date());
      if (sessions > 0)
        log?.info({ job: 'cart-expiry', sessions }, `cart-expiry: removed ${sessions} expired site-user sessions`);
    },
  };
}

/** How often the abandoned-payments job looks (it only acts on attempts pending for ABANDONED_AFTER_MS). */
const ABANDONED_PAYMENTS_INTERVAL_MS = 60_000;

/** Voids authorizations of checkouts whose process died before the order was written (../payments/reconcile.ts). */
export function abandonedPaymentsJob(db: Kysely<Database>, env: PaymentEnv, log?: JobLog): Job {
  return {
    name: 'abandoned-payments',
    intervalMs: ABANDONED_PAYMENTS_INTERVAL_MS,
    async run() {
      const { released } = await releaseAbandonedPayments(db, async (siteId) => {
        const site = await getSite(db, siteId);
        return site ? paymentProviderFor(site.settings.store.checkout.payments, env) : undefined;
      });
      if (released > 0)
        log?.info(
          { job: 'abandoned-payments', released },
          `released ${released} payment attempts of unfinished checkouts`,
        );
    },
  };
}

/** How often renewals are billed: a bill is due at a time of day, so it goes out within this of it. */
export const SUBSCRIPTION_BILLING_INTERVAL_MS = 5 * 60_000;

/** Bills the subscription periods that are due (./subscriptions/billing.ts: one bill per period across processes). */
export function subscriptionBillingJob(db: Kysely<Database>, env: PaymentEnv, log?: JobLog, publicUrl?: string): Job {
  return {
    name: 'subscription-billing',
    intervalMs: SUBSCRIPTION_BILLING_INTERVAL_MS,
    async run() {
      const summary = await billDueSubscriptions(db, {
        now: new Date(),
        paymentsFor: (site) => paymentProviderFor(site.settings.store.checkout.payments, env),
        publicUrl,
      });
      for (const problem of summary.errors)
        log?.error(
          { job: 'subscription-billing', subscriptionId: problem.subscriptionId },
          `subscription ${problem.subscriptionId} not billed: ${problem.error}`,
        );
      const { paid, awaitingPayment, declined, soldOut, failed } = summary;
      if (paid + awaitingPayment + declined + soldOut + failed > 0) {
        log?.info(
          { job: 'subscription-billing', paid, awaitingPayment, declined, soldOut, failed },
          `subscriptions: ${paid} paid, ${awaitingPayment} awaiting payment, ${declined} declined, ${soldOut} sold out, ${failed} to retry`,
        );
      }
    },
  };
}

/** How often today's and yesterday's analytics are rolled up (the report also rolls up before it reads). */
export const ANALYTICS_ROLLUP_INTERVAL_MS = 10 * 60_000;

/** Rolls up recent analytics and applies their retention (./analytics/rollup.ts): raw events older than `retentionDays` go. */
export function analyticsRollupJob(db: Kysely<Database>, retentionDays: number, log?: JobLog): Job {
  return {
    name: 'analytics-rollup',
    intervalMs: ANALYTICS_ROLLUP_INTERVAL_MS,
    async run() {
      const now = new Date();
      await rollupRecent(db, now);
      const { days, events } = await applyRetention(db, now, retentionDays);
      if (events > 0)
        log?.info(
          { job: 'analytics-rollup', days, events },
          `analytics: removed ${events} raw events of ${days} days past the ${retentionDays}-day retention`,
        );
    },
  };
}

/** How often the restocks recorded by imports and refunds are looked at (./restock/autoSend.ts). */
export const RESTOCK_INTERVAL_MS = 60_000;

/**
 * Variants with sign-ups that came back in stock: their restock e-mails are queued at once on sites whose
 * `store.restock.autoSend` is on (as many as units); elsewhere the log says who waits and the command that sends.
 */
export function restockJob(db: Kysely<Database>, log?: JobLog): Job {
  return {
    name: 'restock',
    intervalMs: RESTOCK_INTERVAL_MS,
    async run() {
      for (const o of await runRestockAutoSend(db)) {
        const what = `${o.productId} / ${o.variantId} is back in stock on site ${o.siteId}`;
        if (o.action === 'sent')
          log?.info(
            { job: 'restock', ...o },
            `restock: ${what}: ${o.sent} e-mails queued, ${o.waiting} shoppers still waiting`,
          );
        else if (o.waiting > 0) {
          log?.info(
            { job: 'restock', ...o },
            `restock: ${what} with ${o.waiting} shoppers waiting; send with: vitrine restock send --site ${o.siteId} --product ${o.productId} --variant ${o.variantId}`,
          );
        }
      }
    },
  };
}
