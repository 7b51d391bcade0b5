/**
 * Form submission keys (POST /api/form/FormSubmissionKey, §7): a random 192-bit key, stored as its sha256 with an
 * expiry. SaveFormSubmission spends it: one conditional DELETE, so a key is used once even when two submissions race
 * (on either engine), and never after FORM_KEY_LIFETIME_MS.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

type Db = Kysely<Database>;

/** Long enough to fill in a long form after the page asked for its key; the browser asks for one per attempt. */
export const FORM_KEY_LIFETIME_MS = 60 * 60_000;
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

export async function issueFormKey(db: Db, siteId: string, now: Date = new Date()): Promise<string> {
  const key = randomBytes(24).toString('base64url');
  // Expired keys go as new ones come (the expiry index keeps this cheap).
  await db.deleteFrom('form_keys').where('expires_at', '<', now.toISOString()).execute();
  await db
    .insertInto('form_keys')
    .values({
      key_hash: hashOf(key),
      site_id: siteId,
      expires_at: new Date(now.getTime() + FORM_KEY_LIFETIME_MS).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return key;
}

/** Spends the key: true once for a key of this site that has not expired, false after. */
export async function spendFormKey(db: Db, siteId: string, key: unknown, now: Date = new Date()): Promise<boolean> {
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) return false;
  const deleted = await db
    .deleteFrom('form_keys')
    .where('key_hash', '=', hashOf(key))
    .where('site_id', '=', siteId)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}
