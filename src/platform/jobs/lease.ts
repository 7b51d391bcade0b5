/**
 * Leases: how a job that may run in several processes at once claims a row. The row's `locked_until` (ISO-8601 UTC, or
 * null) says until when a run owns it; another run may take it once that time has passed (the run that held it died
 * or hung). Claim with a conditional write on `leaseOpen` inside a transaction; end the lease by setting null.
 * Used by the outbox (../mail/outbox.ts) and the subscriptions' renewals.
 */
import { sql, type RawBuilder } from 'kysely';

/** The end of a lease taken at `now` for `leaseMs`, as stored in `locked_until`. */
export const leaseEnd = (now: Date, leaseMs: number): string => new Date(now.getTime() + leaseMs).toISOString();

/** The condition "no run holds this row at `now`", on a table with a `locked_until` column. */
export const leaseOpen = (now: Date): RawBuilder<boolean> =>
  sql<boolean>`(locked_until is null or locked_until <= ${now.toISOString()})`;
