/**
 * Site users' sessions: a random 256-bit token in an HttpOnly cookie; the database keeps only its sha256, with an
 * expiry. Signing out deletes the row; an expired row is refused and removed when next seen.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CONTRIBUTOR_ROLES } from '../../core/enums';
import type { Database } from '../../platform/db/tables';
import type { SiteUser } from './users';

/** A session lasts this long from sign-in (the cookie's Max-Age is the same). */
export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** How stale a session's `last_seen_at` may get before a request writes it again (one write per few minutes, not per request). */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;

/** The User-Agent as kept with a session: at most 300 characters, or null. */
const keptUserAgent = (userAgent: string | undefined): string | null =>
  userAgent === undefined || userAgent.trim() === '' ? null : userAgent.trim().slice(0, 300);

/** Starts a session for `user`; the token goes in the cookie and nowhere else. */
export async function startSession(
  db: Kysely<Database>,
  user: SiteUser,
  now = new Date(),
  userAgent?: string,
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
      last_seen_at: now.toISOString(),
      user_agent: keptUserAgent(userAgent),
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
      'site_user_sessions.last_seen_at',
    ])
    .where('site_user_sessions.token_hash', '=', hashOf(token))
    .executeTakeFirst();
  if (!row || row.site_id !== siteId) return null;
  if (row.expires_at <= now.toISOString()) {
    await endSession(db, token);
    return null;
  }
  if (row.last_seen_at === null || row.last_seen_at < new Date(now.getTime() - LAST_SEEN_EVERY_MS).toISOString())
    await db
      .updateTable('site_user_sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('token_hash', '=', hashOf(token))
      .execute();
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

/** A session as the staff page lists it; `id` names it without giving away its token or the token's hash. */
export interface SessionSummary {
  id: string;
  userId: string;
  email: string;
  startedAt: string;
  lastSeenAt: string | null;
  userAgent: string | null;
  expiresAt: string;
}

/** A session's public id: derived from the token's hash, so it opens nothing. */
const sessionId = (tokenHash: string): string =>
  createHash('sha256').update(`session:${tokenHash}`).digest('hex').slice(0, 20);

/** The current sessions of the site's users of `roles` (or of one user), newest first. */
export async function listSessions(
  db: Kysely<Database>,
  siteId: string,
  options: { userId?: string; roles?: readonly number[]; now?: Date } = {},
): Promise<SessionSummary[]> {
  const rows = await db
    .selectFrom('site_user_sessions')
    .innerJoin('site_users', 'site_users.id', 'site_user_sessions.site_user_id')
    .select([
      'site_user_sessions.token_hash',
      'site_user_sessions.created_at',
      'site_user_sessions.last_seen_at',
      'site_user_sessions.user_agent',
      'site_user_sessions.expires_at',
      'site_users.id as user_id',
      'site_users.email',
    ])
    .where('site_users.site_id', '=', siteId)
    .$if(options.userId !== undefined, (q) => q.where('site_users.id', '=', options.userId!))
    // By role, so the site's users are found through site_users_by_role, not read whole.
    .$if(options.userId === undefined, (q) =>
      q.where('site_users.role', 'in', [...(options.roles ?? CONTRIBUTOR_ROLES)]),
    )
    .where('site_user_sessions.expires_at', '>', (options.now ?? new Date()).toISOString())
    .orderBy('site_user_sessions.created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: sessionId(row.token_hash),
    userId: row.user_id,
    email: row.email,
    startedAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    userAgent: row.user_agent,
    expiresAt: row.expires_at,
  }));
}

/** The public id of the session of `token` (to mark the viewer's own in a list), or null. */
export const sessionIdOf = (token: string | undefined): string | null =>
  token === undefined || !TOKEN.test(token) ? null : sessionId(hashOf(token));

/**
 * Ends the session `id` of user `userId` (pass the transaction as `db`); whether there was one. That browser is
 * signed out at its next request.
 */
export async function revokeSession(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const hashes = await db
    .selectFrom('site_user_sessions')
    .select('token_hash')
    .where('site_user_id', '=', userId)
    .execute();
  const match = hashes.find((row) => sessionId(row.token_hash) === id);
  if (!match) return false;
  const result = await db
    .deleteFrom('site_user_sessions')
    .where('token_hash', '=', match.token_hash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every session of user `userId`; how many there were. */
export async function revokeAllSessions(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom('site_user_sessions').where('site_user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
