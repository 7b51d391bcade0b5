/**
 * A third-party CAPTCHA token is accepted once here, whatever the provider says about a second assessment, and
 * whichever process sees it: the first acceptance inserts its hash into `captcha_solutions` (the table ALTCHA spends
 * its challenges in), whose primary key (site, id) refuses the second — on both engines, across processes. Rows go
 * once the token could no longer pass anyway.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/tables';

/** The row id of a token: the provider and the token's sha256 (tokens themselves are not kept). */
export const spentTokenId = (provider: string, token: string): string =>
  `${provider}:${createHash('sha256').update(token).digest('base64url')}`;

/** Spends the token: true the first time, false after. `expiresAt`: when it could no longer be accepted. */
export async function spendToken(
  db: Kysely<Database>,
  siteId: string,
  id: string,
  expiresAt: Date,
  now: Date = new Date(),
): Promise<boolean> {
  await db.deleteFrom('captcha_solutions').where('expires_at', '<', now.toISOString()).execute();
  const inserted = await db
    .insertInto('captcha_solutions')
    .values({ site_id: siteId, challenge_id: id, expires_at: expiresAt.toISOString() })
    .onConflict((oc) => oc.columns(['site_id', 'challenge_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
