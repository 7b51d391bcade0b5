/**
 * The salted daily visitor hash: sha256(salt of the day, site, who). The salt is random, one per UTC day, kept in the
 * database (so every process of a site hashes alike) and deleted when its day is over (./retention.ts): nobody, the
 * merchant included, can then link a visitor's hash to another day's, or recompute it from an IP address.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

/** UTC day of a time, YYYY-MM-DD. */
export const dayOf = (time: Date): string => time.toISOString().slice(0, 10);

/** The day `days` days before `day` (YYYY-MM-DD). */
export const daysBefore = (day: string, days: number): string =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000));

export class DailySalts {
  readonly #known = new Map<string, string>();

  constructor(private readonly db: Kysely<Database>) {}

  /** The day's salt: created by the first process that needs it (the others read the winner's). */
  async saltFor(day: string): Promise<string> {
    const known = this.#known.get(day);
    if (known) return known;
    await this.db
      .insertInto('analytics_salts')
      .values({ day, salt: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('analytics_salts')
      .select('salt')
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    // Only today's and yesterday's are worth keeping in memory.
    if (this.#known.size > 2) this.#known.clear();
    this.#known.set(day, row.salt);
    return row.salt;
  }
}

export const saltedHash = (salt: string, ...parts: string[]): string =>
  createHash('sha256')
    .update([salt, ...parts].join('\u0000'))
    .digest('base64url')
    .slice(0, 22);
