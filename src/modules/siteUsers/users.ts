/**
 * Site users: created by the shop's owner (`vitrine users add`), signed in with their e-mail and password.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isEmail } from '../../core/email';
import { STORE_ROLES } from '../../core/siteUserRoles';
import type { Database } from '../../platform/db/tables';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';
import { decoyHash, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from './passwords';

export interface SiteUser {
  id: string;
  siteId: string;
  email: string;
  /** A contributor role of spec §3 (ContributorRole). */
  role: number;
  createdAt: string;
}

export class SiteUserError extends Error {}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

type UserRow = { id: string; site_id: string; email: string; role: number; created_at: string };
const toSiteUser = (row: UserRow): SiteUser => ({
  id: row.id,
  siteId: row.site_id,
  email: row.email,
  role: Number(row.role),
  createdAt: row.created_at,
});

/** Adds a site user; SiteUserError (with the reason) for a bad e-mail or password or an e-mail already used on the site. */
export async function createSiteUser(
  db: Kysely<Database>,
  input: { siteId: string; email: string; password: string; role: number },
): Promise<SiteUser> {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) throw new SiteUserError(`'${input.email}' is not an e-mail address`);
  if (input.password.length < PASSWORD_MIN_LENGTH)
    throw new SiteUserError(`the password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  if (input.password.length > PASSWORD_MAX_LENGTH)
    throw new SiteUserError(`the password must have at most ${PASSWORD_MAX_LENGTH} characters`);
  const row = {
    id: randomUUID(),
    site_id: input.siteId,
    email,
    password_hash: await hashPassword(input.password),
    role: input.role,
    created_at: new Date().toISOString(),
  };
  const inserted = await db
    .insertInto('site_users')
    .values(row)
    .onConflict((oc) => oc.columns(['site_id', 'email']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw new SiteUserError(`${email} is already a user of site ${input.siteId}`);
  return toSiteUser(row);
}

/** The user whose e-mail and password these are, or null; as slow for an unknown e-mail as for a wrong password. */
export async function checkCredentials(
  db: Kysely<Database>,
  siteId: string,
  email: unknown,
  password: unknown,
): Promise<SiteUser | null> {
  if (
    typeof email !== 'string' ||
    typeof password !== 'string' ||
    password.length > PASSWORD_MAX_LENGTH ||
    email.length > 256
  )
    return null;
  const row = await db
    .selectFrom('site_users')
    .select(['id', 'site_id', 'email', 'role', 'created_at', 'password_hash'])
    .where('site_id', '=', siteId)
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  const matches = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
  return row && matches ? toSiteUser(row) : null;
}

export async function listSiteUsers(db: Kysely<Database>, siteId?: string): Promise<SiteUser[]> {
  let query = db
    .selectFrom('site_users')
    .select(['id', 'site_id', 'email', 'role', 'created_at'])
    .orderBy('site_id')
    .orderBy('email');
  if (siteId !== undefined) query = query.where('site_id', '=', siteId);
  return (await query.execute()).map(toSiteUser);
}

const noticeRecipients = compiledQuery((db, v: { siteId: string }) =>
  db
    .selectFrom('site_users')
    .select('email')
    .where('site_id', '=', v.siteId)
    .where('role', 'in', [...STORE_ROLES]),
);

/**
 * The staff e-mail addresses that get the shop's notices (new orders, low stock): its admins and store managers. Read
 * by every order (a query built once), and sorted here: ordered by the database, SQLite would rather read the site's
 * users by e-mail than by role.
 */
export async function shopNoticeRecipients(db: Kysely<Database>, siteId: string): Promise<string[]> {
  const { rows } = await noticeRecipients.execute(db, { siteId });
  return rows.map((r) => r.email).sort();
}
