/**
 * The report page's tokens: `vitrine report token` makes one (256 random bits, printed once, stored as its sha256),
 * and GET /analytics/report?token=… shows that site's report to whoever holds it. There is no site-user sign-in with
 * an admin or reporting role yet; when there is, the page should take it instead.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function createReportToken(db: Kysely<Database>, siteId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('analytics_report_tokens')
    .values({ token_hash: hashOf(token), site_id: siteId, created_at: now.toISOString() })
    .execute();
  return token;
}

/** The site a token opens, or undefined. */
export async function siteOfReportToken(db: Kysely<Database>, token: unknown): Promise<string | undefined> {
  if (typeof token !== 'string' || !TOKEN.test(token)) return undefined;
  const row = await db
    .selectFrom('analytics_report_tokens')
    .select('site_id')
    .where('token_hash', '=', hashOf(token))
    .executeTakeFirst();
  return row?.site_id;
}
