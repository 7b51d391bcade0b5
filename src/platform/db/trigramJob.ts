/**
 * The job that keeps SQLite's deferred trigram indexes (migration 029) nearly up to date between searches, so that a
 * search after a busy day indexes a minute's orders, not a day's (holding the write lock meanwhile). A search indexes
 * what is still waiting itself (./trigramSearch.ts), so this job only spreads the work. PostgreSQL: nothing to do.
 */
import type { Kysely } from 'kysely';
import type { Job } from '../jobs/runner';
import { DEFERRED_TRIGRAMS } from './migrations/029_deferred_trigrams';
import type { Database } from './tables';
import { indexPendingTrigrams } from './trigramSearch';

export const TRIGRAM_INDEX_INTERVAL_MS = 60_000;

export function trigramIndexJob(db: Kysely<Database>): Job {
  return {
    name: 'trigram-index',
    intervalMs: TRIGRAM_INDEX_INTERVAL_MS,
    async run() {
      for (const table of Object.keys(DEFERRED_TRIGRAMS) as (keyof typeof DEFERRED_TRIGRAMS)[])
        await indexPendingTrigrams(db, table);
    },
  };
}
