/**
 * The audit log: every change made in the owner's area (and by the `vitrine` commands that change the shop) is one
 * row — who, what, on which record, before → after. A change and its row are written in the same transaction, so the
 * log never tells of a change that did not happen, nor misses one that did.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import { timeOrderedId } from '../../platform/timeOrderedId';
import type { AuditLogRow } from './tables';

/** Who made a change: a signed-in staff member, or a `vitrine` command run on the server. */
export type Actor = { id: string; email: string } | { command: true };

export const COMMAND_ACTOR: Actor = { command: true };

export interface AuditEntry {
  siteId: string;
  actor: Actor;
  action: string;
  subject: { type: string; id: string };
  summary: string;
  before?: unknown;
  after?: unknown;
  /** Defaults to now. */
  at?: Date;
}

export interface AuditRecord {
  id: string;
  at: string;
  actor: string;
  /** The staff member's id, or null for a command. */
  actorId: string | null;
  action: string;
  subject: { type: string; id: string };
  summary: string;
  before: unknown;
  after: unknown;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** Writes one audit row (inside the change's own transaction: pass the transaction as `db`). */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  const actor = entry.actor;
  await db
    .insertInto('audit_log')
    .values({
      id: timeOrderedId(),
      site_id: entry.siteId,
      at: (entry.at ?? new Date()).toISOString(),
      actor_id: 'id' in actor ? actor.id : null,
      actor: 'id' in actor ? actor.email : 'vitrine command',
      action: entry.action,
      subject_type: entry.subject.type,
      subject_id: entry.subject.id,
      summary: entry.summary,
      before: json(entry.before),
      after: json(entry.after),
    })
    .execute();
}

const fromRow = (row: AuditLogRow): AuditRecord => ({
  id: row.id,
  at: row.at,
  actor: row.actor,
  actorId: row.actor_id,
  action: row.action,
  subject: { type: row.subject_type, id: row.subject_id },
  summary: row.summary,
  before: row.before === null ? null : (JSON.parse(row.before) as unknown),
  after: row.after === null ? null : (JSON.parse(row.after) as unknown),
});

/** A page of the log, newest first: `after` is the last row of the page before (its cursor). */
export interface AuditPage {
  records: AuditRecord[];
  /** The cursor of the next (older) page, or null at the end. */
  next: string | null;
}

const encodeCursor = (row: { at: string; id: string }): string =>
  Buffer.from(JSON.stringify([row.at, row.id])).toString('base64url');

/** The cursor's row, or undefined when it is not one of ours (then the first page is shown). */
function decodeCursor(cursor: string | undefined): { at: string; id: string } | undefined {
  if (!cursor || cursor.length > 200) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { at: value[0] as string, id: value[1] as string };
    }
  } catch {
    // Not ours.
  }
  return undefined;
}

/** The site's log (or one record's), newest first, `limit` rows a page. */
export async function listAudit(
  db: Kysely<Database>,
  siteId: string,
  options: { subject?: { type: string; id: string }; cursor?: string; limit?: number } = {},
): Promise<AuditPage> {
  const limit = options.limit ?? 50;
  const after = decodeCursor(options.cursor);
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .where('site_id', '=', siteId)
    .$if(options.subject !== undefined, (q) =>
      q.where('subject_type', '=', options.subject!.type).where('subject_id', '=', options.subject!.id),
    )
    .$if(after !== undefined, (q) =>
      q.where((eb) => eb.or([eb('at', '<', after!.at), eb.and([eb('at', '=', after!.at), eb('id', '<', after!.id)])])),
    )
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { records: page.map(fromRow), next: rows.length > limit && last ? encodeCursor(last) : null };
}
