/** The tables the admin module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Selectable } from 'kysely';

/** One change made in the owner's area or by a `vitrine` command (migration 017). */
export interface AuditLogTable {
  /** Random token. */
  id: string;
  site_id: string;
  /** ISO-8601 UTC. */
  at: string;
  /** The staff member's site_users.id; null for a `vitrine` command or the shop itself. */
  actor_id: string | null;
  /** Who, as shown: the staff member's e-mail, 'vitrine command' or 'the shop'. */
  actor: string;
  /** What, e.g. 'order.fulfilled', 'order.refunded', 'stock.adjusted'. */
  action: string;
  /** The record changed: its kind ('order', 'variant', 'site-user' …) and id. */
  subject_type: string;
  subject_id: string;
  /** One sentence an owner reads, e.g. 'Fulfilled order 12 (UPS 1Z999…)'. */
  summary: string;
  /** JSON of what changed, before and after (only the fields that changed), or null. */
  before: string | null;
  after: string | null;
}

export type AuditLogRow = Selectable<AuditLogTable>;

declare module '../../platform/db/tables' {
  interface Database {
    audit_log: AuditLogTable;
  }
}
