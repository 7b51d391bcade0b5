import type { Kysely } from 'kysely';
import type { Database } from '../../src/platform/db/tables';

/** A site row with no content, domain or settings: what a test of the database layer needs to hang its rows on. */
export async function insertBareSite(db: Kysely<Database>, id: string, title = id): Promise<void> {
  await db
    .insertInto('sites')
    .values({
      id,
      domains: '[]',
      is_default: 0,
      title,
      currency: 'USD',
      settings: '{}',
      version: 1,
      updated_at: '2026-01-01T00:00:00.000Z',
    })
    .execute();
}
