/**
 * Site users' sessions: a random 256-bit token in an HttpOnly cookie; the database keeps only its sha256, with an
 * expiry. Signing out deletes the row; an expired row is refused and removed when next seen.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';
import type { SiteUser } from './users';

/** A session lasts this long from sign-in (the cookie's Max-Age is the same). */
export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a session for `user`; the token goes in the cookie and nowhere else. */
export async function startSession(
  db: Kysely<Database>,
  user: SiteUser,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await db
    .insertInto('site_user_sessions')
    .values({
      token_hash: hashOf(token),
      site_user_id: user.id,
      expires_at: expiresAt.toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return { token, expiresAt };
}

/** The user of the session `token` on site `siteId`, or null (no such session, expired, or another site's). */
export async function sessionUser(
  db: Kysely<Database>,
  siteId: string,
  token: string | undefined,
  now = new Date(),
): Promise<SiteUser | null> {
  if (token === undefined || !TOKEN.test(token)) return null;
  const row = await db
    .selectFrom('site_user_sessions')
    .innerJoin('site_users', 'site_users.id', 'site_user_sessions.site_user_id')
    .select([
      'site_users.id',
      'site_users.site_id',
      'site_users.email',
      'site_users.role',
      'site_users.created_at',
      'site_user_sessions.expires_at',
    ])
    .where('site_user_sessions.token_hash', '=', hashOf(token))
    .executeTakeFirst();
  if (!row || row.site_id !== siteId) return null;
  if (row.expires_at <= now.toISOString()) {
    await endSession(db, token);
    return null;
  }
  return { id: row.id, siteId: row.site_id, email: row.email, role: Number(row.role), createdAt: row.created_at };
}

export async function endSession(db: Kysely<Database>, token: string | undefined): Promise<void> {
  if (token === undefined || !TOKEN.test(token)) return;
  await db.deleteFrom('site_user_sessions').where('token_hash', '=', hashOf(token)).execute();
}

/** Removes expired sessions (run with the cart-expiry job). */
export async function removeExpiredSessions(db: Kysely<Database>, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('site_user_sessions')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
