/**
 * The e-mail outbox: messages are written in the transaction of what they tell about (an order that rolls back sends
 * nothing) and sent later by the outbox job or `vitrine outbox send`. A sender claims due messages with a lease
 * (`locked_until`) in one short transaction — `FOR UPDATE SKIP LOCKED` on PostgreSQL, `BEGIN IMMEDIATE` on SQLite —
 * so two processes never send the same message; it sends outside any transaction, then records the outcome.
 * A failed send is retried with growing delays and given up after MAX_ATTEMPTS.
 *
 * Some messages are stored as render data rather than as text and HTML (an order's e-mails: enqueueEmailsToRender, a
 * few facts as placed), so the transaction that writes them does not render them: the sender, `getOutboxMessage` and
 * `listOutbox` render them with the renderer their kind registered (./kinds.ts). One that cannot be rendered is never
 * sent: the drain marks it failed with the reason. A kind may also make a message's bodies just before the send (a
 * gift card's code). The outbox imports no module: the modules register their kinds at startup.
 */
import type { Kysely } from 'kysely';
import { err, ok } from '../../core/result';
import { compiledQuery, type PreparedQuery } from '../db/sqlite/compiledQuery';
import { engineOf } from '../db/connect';
import { inTransaction } from '../db/transaction';
import type { Database } from '../db/tables';
import type { NewOutboxRow, OutboxRow, OutboxStatus } from './tables';
import { leaseEnd, leaseOpen } from '../jobs/lease';
import { randomToken } from '../randomToken';
import { mailKind, type BodyRenderer, type MailKind, type PreparedSend } from './kinds';
import { checkMailHeaders, MailHeaderError, type MailTransport } from './transport';

type Db = Kysely<Database>;

export type { OutboxStatus };

export interface NewEmail {
  siteId: string;
  /** What the message is, e.g. 'order-confirmation', 'new-order'. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  orderId?: string | null;
  /** Not sent before then (a gift card's delivery date); at once when absent or null. */
  sendAfter?: Date | null;
}

/**
 * A message whose text and HTML are rendered when it is sent or shown (an order's e-mails): the subject is stored (it
 * is short, and lists show it), the bodies are rendered from `renderData` (JSON) and what it tells about.
 */
export interface NewEmailToRender {
  siteId: string;
  kind: string;
  to: string;
  subject: string;
  renderData: string;
  orderId?: string | null;
}

export interface OutboxMessage {
  id: string;
  siteId: string;
  kind: string;
  to: string;
  subject: string;
  /** The text and HTML: as stored, or rendered from `renderData` by getOutboxMessage and listOutbox ('' from claimDueMessages: the drain renders). */
  text: string;
  html: string;
  orderId: string | null;
  status: OutboxStatus;
  /** Sends tried so far, the successful one included. */
  attempts: number;
  /** ISO-8601 UTC: not sent before then. */
  nextAttemptAt: string;
  /** ISO-8601 UTC: the lease of the sender that claimed it, or null. */
  lockedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** ISO-8601 UTC: not sent before then, whatever asks for it (a gift card's delivery date); null for at once. */
  sendAfter: string | null;
  /** JSON the text and HTML are rendered from by its kind's renderer (an order's e-mails), or null: they are stored. */
  renderData: string | null;
  /** Why the text and HTML could not be rendered (they are then ''); set by getOutboxMessage and listOutbox only. */
  renderError?: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Wait after the 1st, 2nd, … failed attempt; the last delay repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR];
/** After this many failed attempts the message is 'failed' and no longer tried (about 21 hours after the first). */
export const MAX_ATTEMPTS = 8;
/** How long a claim lasts: far longer than a send may take (see the SMTP timeouts in transport.ts). */
export const DEFAULT_LEASE_MS = 15 * MINUTE;
/** Claimed at once by a drain: few, so that the lease stays longer than the batch's sends even at their timeouts. */
const CLAIM_BATCH = 5;
const MAX_ERROR_LENGTH = 2000;

/** The wait before the next attempt once `attempts` attempts have failed. */
export const retryDelayMs = (attempts: number): number =>
  RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1] as number;

const at = (time: Date, plusMs = 0): string => new Date(time.getTime() + plusMs).toISOString();

function rowToMessage(row: OutboxRow): OutboxMessage {
  return {
    id: row.id,
    siteId: row.site_id,
    kind: row.kind,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    orderId: row.order_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lockedUntil: row.locked_until,
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    sendAfter: row.send_after,
    renderData: row.render_data,
  };
}

export type { BodyRenderer };

/**
 * Renders messages stored as render data, for one drain or listing: each renderer a kind registered is made once,
 * when its first message comes (kinds that share one, an order's two e-mails, share what it read). A kind that
 * registered no renderer cannot render any: the message can never be sent.
 */
function bodyRenderer(db: Db): BodyRenderer {
  const renderers = new Map<MailKind['renderer'], BodyRenderer>();
  return async (message) => {
    const make = mailKind(message.kind)?.renderer;
    if (make === undefined)
      return err(`cannot render the ${message.kind} e-mail: no template renders that kind from render data`);
    let render = renderers.get(make);
    if (render === undefined) renderers.set(make, (render = make(db)));
    return render(message);
  };
}

/** The messages with their text and HTML rendered where they are stored as render data. */
async function withBodies(db: Db, messages: OutboxMessage[]): Promise<OutboxMessage[]> {
  if (messages.every((m) => m.renderData === null)) return messages;
  const render = bodyRenderer(db);
  const out: OutboxMessage[] = [];
  for (const message of messages) {
    if (message.renderData === null) {
      out.push(message);
      continue;
    }
    const rendered = await render(message);
    out.push(
      rendered.ok
        ? { ...message, text: rendered.value.text, html: rendered.value.html }
        : { ...message, text: '', html: '', renderError: rendered.error },
    );
  }
  return out;
}

function checkRecipientAndSubject(email: { to: string; subject: string }): void {
  if (/[\r\n]/.test(email.to) || !email.to.includes('@'))
    throw new MailHeaderError(`refused recipient ${JSON.stringify(email.to.slice(0, 100))}`);
  if (/[\r\n]/.test(email.subject)) throw new MailHeaderError('refused subject: must be one line');
}

/** A pending row, due at once (or from `sendAfter`). */
function pendingRow(email: NewEmail | NewEmailToRender, time: string): NewOutboxRow {
  const stored = 'renderData' in email;
  return {
    id: randomToken(16),
    site_id: email.siteId,
    kind: email.kind,
    to_address: email.to,
    subject: email.subject,
    text_body: stored ? '' : email.text,
    html_body: stored ? '' : email.html,
    order_id: email.orderId ?? null,
    status: 'pending',
    attempts: 0,
    next_attempt_at: time,
    locked_until: null,
    last_error: null,
    created_at: time,
    sent_at: null,
    send_after: !stored && email.sendAfter ? email.sendAfter.toISOString() : null,
    render_data: stored ? email.renderData : null,
  };
}

/**
 * Writes a pending message, due at once (or from `sendAfter`). Call it inside the transaction of what it tells about. Throws
 * MailHeaderError for a recipient or subject with a line break (a bug in the caller: they are never sent).
 */
export async function enqueueEmail(trx: Db, email: NewEmail, now: Date = new Date()): Promise<string> {
  checkRecipientAndSubject(email);
  const row = pendingRow(email, now.toISOString());
  await trx.insertInto('outbox').values(row).execute();
  return row.id;
}

/**
 * Writes pending messages whose text and HTML are rendered when sent (an order's e-mails), due at once, in one
 * statement. Call it inside the transaction of what they tell about. Throws MailHeaderError as enqueueEmail does.
 */
export async function enqueueEmailsToRender(
  trx: Db,
  emails: readonly NewEmailToRender[],
  now: Date = new Date(),
): Promise<string[]> {
  if (emails.length === 0) return [];
  for (const email of emails) checkRecipientAndSubject(email);
  const time = now.toISOString();
  const rows = emails.map((email) => pendingRow(email, time));
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    const names = valueNamesOfRow(i);
    OUTBOX_COLUMNS.forEach((column, c) => (values[names[c]!] = row[column]));
  });
  await insertOutboxRows(rows.length).execute(trx, values);
  return rows.map((r) => r.id);
}

/** Every column of the outbox, in the order pendingRow writes them (TypeScript checks that none is missing). */
const OUTBOX_COLUMNS = Object.keys({
  id: true,
  site_id: true,
  kind: true,
  to_address: true,
  subject: true,
  text_body: true,
  html_body: true,
  order_id: true,
  status: true,
  attempts: true,
  next_attempt_at: true,
  locked_until: true,
  last_error: true,
  created_at: true,
  sent_at: true,
  send_after: true,
  render_data: true,
} satisfies Record<keyof NewOutboxRow, true>) as (keyof NewOutboxRow)[];

/** The names of row i's values in insertOutboxRows (column + i), by column. */
const valueNamesByRow: string[][] = [];
const valueNamesOfRow = (i: number): string[] =>
  (valueNamesByRow[i] ??= OUTBOX_COLUMNS.map((column) => `${column}${i}`));

/**
 * The insert of `count` pending rows (an order writes one or two), built once per count (issue 13: building and
 * compiling it took about 2 % of a placed order's time): row i's value of a column is the value named column + i.
 */
const insertOutboxRowsByCount = new Map<number, PreparedQuery<Record<string, unknown>, unknown>>();
function insertOutboxRows(count: number): PreparedQuery<Record<string, unknown>, unknown> {
  let insert = insertOutboxRowsByCount.get(count);
  if (insert === undefined) {
    insert = compiledQuery((db, v: Record<string, unknown>) =>
      db
        .insertInto('outbox')
        .values(
          Array.from(
            { length: count },
            (_, i) =>
              Object.fromEntries(
                OUTBOX_COLUMNS.map((column, c) => [column, v[valueNamesOfRow(i)[c]!]]),
              ) as NewOutboxRow,
          ),
        ),
    );
    insertOutboxRowsByCount.set(count, insert);
  }
  return insert;
}

/** Messages, newest first (default: every site and status, at most 50). */
export async function listOutbox(
  db: Db,
  filter: { siteId?: string; status?: OutboxStatus; limit?: number } = {},
): Promise<OutboxMessage[]> {
  const rows = await db
    .selectFrom('outbox')
    .selectAll()
    .$if(filter.siteId !== undefined, (q) => q.where('site_id', '=', filter.siteId as string))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status as OutboxStatus))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 50)
    .execute();
  return withBodies(db, rows.map(rowToMessage));
}

/** The message, its text and HTML rendered if it is stored as render data (`renderError` says why they could not be). */
export async function getOutboxMessage(db: Db, id: string): Promise<OutboxMessage | undefined> {
  const row = await db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await withBodies(db, [rowToMessage(row)]))[0];
}

export interface ClaimOptions {
  now: Date;
  limit: number;
  leaseMs: number;
  /** Also claim pending messages whose next retry is still to come (`vitrine outbox send`: "send now"). */
  includeWaiting?: boolean;
  /** Messages not to claim (those a drain already tried). */
  excludeIds?: readonly string[];
  /** Only these messages (`vitrine giftcards issue` sending its card's e-mail at once). */
  onlyIds?: readonly string[];
}

/**
 * Claims up to `limit` due pending messages for `leaseMs`: no other sender claims them until the lease ends, or
 * until markSent / markFailed releases them. The oldest due first.
 */
export async function claimDueMessages(db: Db, options: ClaimOptions): Promise<OutboxMessage[]> {
  const now = options.now.toISOString();
  const postgres = engineOf(db) === 'postgres';
  const excluded = options.excludeIds ?? [];
  const claimed = await inTransaction<OutboxRow[], never>(db, async (trx) => {
    const due = await trx
      .selectFrom('outbox')
      .select('id')
      .where('status', '=', 'pending')
      .$if(!options.includeWaiting, (q) => q.where('next_attempt_at', '<=', now))
      // A message for a later day (a gift card's delivery date) waits for it, even for "send now".
      .where((eb) => eb.or([eb('send_after', 'is', null), eb('send_after', '<=', now)]))
      .where(leaseOpen(options.now))
      .$if(excluded.length > 0, (q) => q.where('id', 'not in', excluded))
      .$if(options.onlyIds !== undefined, (q) =>
        q.where('id', 'in', options.onlyIds!.length > 0 ? options.onlyIds! : ['']),
      )
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(options.limit)
      // Another sender's claim in progress holds its rows locked: skip them rather than wait and re-check.
      .$if(postgres, (q) => q.forUpdate().skipLocked())
      .execute();
    if (due.length === 0) return ok<OutboxRow[]>([]);
    const rows = await trx
      .updateTable('outbox')
      .set({ locked_until: leaseEnd(options.now, options.leaseMs) })
      .where(
        'id',
        'in',
        due.map((r) => r.id),
      )
      .returningAll()
      .execute();
    return ok(rows);
  });
  const rows = claimed.ok ? claimed.value : [];
  return rows
    .map(rowToMessage)
    .sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt) || a.id.localeCompare(b.id));
}

/** Records a delivered message (and ends its lease). Inside a transaction when given one (a gift card's confirmation). */
export async function markSent(db: Db, id: string, now: Date = new Date()): Promise<void> {
  await db
    .updateTable('outbox')
    .set((eb) => ({
      status: 'sent',
      sent_at: now.toISOString(),
      locked_until: null,
      last_error: null,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Records a failed attempt and ends the lease: the message waits retryDelayMs(attempts) and is tried again, or is
 * 'failed' after MAX_ATTEMPTS attempts — at once when `permanent` (a message that can never be sent).
 * Answers the message's status afterwards (undefined when there is no such pending message).
 */
export async function markFailed(
  db: Db,
  id: string,
  error: string,
  now: Date = new Date(),
  options: { permanent?: boolean } = {},
): Promise<{ status: OutboxStatus; nextAttemptAt: string } | undefined> {
  const row = await db
    .selectFrom('outbox')
    .select('attempts')
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (!row) return undefined;
  const attempts = row.attempts + 1;
  const giveUp = options.permanent === true || attempts >= MAX_ATTEMPTS;
  const updated = await db
    .updateTable('outbox')
    .set({
      attempts,
      status: giveUp ? 'failed' : 'pending',
      next_attempt_at: giveUp ? now.toISOString() : at(now, retryDelayMs(attempts)),
      locked_until: null,
      last_error: error.slice(0, MAX_ERROR_LENGTH),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    // Only the attempt we read: a concurrent record of the same message (a lease that ran out) must not count twice.
    .where('attempts', '=', row.attempts)
    .returning(['status', 'next_attempt_at'])
    .executeTakeFirst();
  return updated && { status: updated.status, nextAttemptAt: updated.next_attempt_at };
}

export interface DrainResult {
  sent: number;
  /** Given up: MAX_ATTEMPTS reached, or a message that can never be sent. */
  failed: number;
  /** Failed this time, tried again later. */
  retried: number;
  /** Why each unsent message was not sent. */
  errors: { id: string; to: string; error: string }[];
}

export interface DrainOptions {
  /** The clock (tests); the real time when absent. */
  now?: Date;
  /** At most this many messages in this drain (default 100). */
  limit?: number;
  leaseMs?: number;
  /** Also send messages waiting for their next retry. */
  includeWaiting?: boolean;
  /** Only these messages. */
  onlyIds?: readonly string[];
  /**
   * Told each message sent whose kind prepared it with a detail (a gift card's code, which `vitrine giftcards issue`
   * prints; it is stored nowhere).
   */
  onSent?: (messageId: string, detail: string) => void;
}

const describeError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const message =
    error.message || (error as Error & { errors?: Error[] }).errors?.map((e) => e.message).join('; ') || error.name;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
};

/**
 * Sends the due messages through `transport`, a few claimed at a time, until none is due or `limit` were handled.
 * A message is sent at least once: if the process dies between the server's acceptance and markSent, it is sent
 * again when its lease ends.
 */
export async function drainOutbox(db: Db, transport: MailTransport, options: DrainOptions = {}): Promise<DrainResult> {
  const limit = options.limit ?? 100;
  const clock = () => options.now ?? new Date();
  const result: DrainResult = { sent: 0, failed: 0, retried: 0, errors: [] };
  const includeWaiting = options.includeWaiting === true;
  // A message that fails here waits for its retry, so it is not due again in this drain, unless waiting ones are
  // included: then the ids tried keep it from being tried again and again.
  const tried: string[] = [];
  const render = bodyRenderer(db);
  /** Records a failed attempt (given up at once when `permanent`) and counts it. */
  const failed = async (message: OutboxMessage, error: string, permanent: boolean): Promise<void> => {
    const outcome = await markFailed(db, message.id, error, clock(), { permanent });
    if (outcome?.status === 'failed') result.failed += 1;
    else result.retried += 1;
    result.errors.push({ id: message.id, to: message.to, error });
  };
  while (tried.length < limit) {
    const batch = await claimDueMessages(db, {
      now: clock(),
      limit: Math.min(CLAIM_BATCH, limit - tried.length),
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      includeWaiting,
      ...(includeWaiting ? { excludeIds: tried } : {}),
      ...(options.onlyIds !== undefined ? { onlyIds: options.onlyIds } : {}),
    });
    if (batch.length === 0) break;
    for (const message of batch) {
      tried.push(message.id);
      // A kind that makes the bodies just before the send (a gift card's code: stored nowhere, sent only over SMTP).
      const prepare = mailKind(message.kind)?.prepare;
      let prepared: PreparedSend | undefined;
      if (prepare !== undefined) {
        const made = await prepare(db, message, clock());
        if (!made.ok) {
          // Another sender has it: leave it (its lease). Gone (a gift card disabled before delivery): never sent.
          if (made.error.reason === 'busy') continue;
          await markFailed(db, message.id, made.error.message, clock(), { permanent: true });
          result.failed += 1;
          result.errors.push({ id: message.id, to: message.to, error: made.error.message });
          continue;
        }
        prepared = made.value;
      }
      // A message stored as render data is rendered now, by its kind's renderer (an order's, with the stored order).
      let body = { text: prepared?.text ?? message.text, html: prepared?.html ?? message.html };
      if (message.renderData !== null) {
        let rendered: Awaited<ReturnType<BodyRenderer>>;
        try {
          rendered = await render(message);
        } catch (error) {
          // The database did not answer, say: tried again later, as a failed send is.
          await failed(message, `could not render the e-mail: ${describeError(error)}`, false);
          continue;
        }
        // What it tells about is gone or the data is unreadable: it can never be sent.
        if (!rendered.ok) {
          await failed(message, rendered.error, true);
          continue;
        }
        body = { text: rendered.value.text, html: rendered.value.html };
      }
      try {
        checkMailHeaders(message);
        await transport.send({ to: message.to, subject: message.subject, text: body.text, html: body.html });
      } catch (error) {
        await failed(message, describeError(error), error instanceof MailHeaderError);
        continue;
      }
      const confirm = prepared?.confirm;
      if (confirm !== undefined) {
        await inTransaction<void, never>(db, async (trx) => {
          await confirm(trx, clock());
          await markSent(trx, message.id, clock());
          return ok(undefined);
        });
      } else {
        await markSent(db, message.id, clock());
      }
      if (prepared?.detail !== undefined) options.onSent?.(message.id, prepared.detail);
      result.sent += 1;
    }
  }
  return result;
}
