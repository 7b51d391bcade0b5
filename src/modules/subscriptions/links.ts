/**
 * Cancel links: every subscription e-mail carries /subscriptions/cancel/{token}, a fresh random 128-bit token whose
 * sha256 alone is stored (a database reader cannot make a link from it). Any token ever sent for the subscription
 * cancels it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

type Db = Kysely<Database>;

export const CANCEL_PATH_PREFIX = '/subscriptions/cancel/';
export const cancelPath = (token: string): string => CANCEL_PATH_PREFIX + token;

const TOKEN = /^[A-Za-z0-9_-]{22}$/;
export const isCancelToken = (value: unknown): value is string => typeof value === 'string' && TOKEN.test(value);
const hashOf = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new cancel link's token for the subscription; call in the transaction of the e-mail that carries it. */
export async function newCancelToken(trx: Db, subscriptionId: string, now: Date): Promise<string> {
  const token = randomBytes(16).toString('base64url');
  await trx
    .insertInto('subscription_links')
    .values({ token_hash: hashOf(token), subscription_id: subscriptionId, created_at: now.toISOString() })
    .execute();
  return token;
}

/** The subscription id a token names, on this site; undefined for a malformed, unknown or other site's token. */
export async function subscriptionOfToken(db: Db, siteId: string, token: string): Promise<string | undefined> {
  if (!isCancelToken(token)) return undefined;
  const row = await db
    .selectFrom('subscription_links as l')
    .innerJoin('subscriptions as s', 's.id', 'l.subscription_id')
    .select('s.id')
    .where('l.token_hash', '=', hashOf(token))
    .where('s.site_id', '=', siteId)
    .executeTakeFirst();
  return row?.id;
}
