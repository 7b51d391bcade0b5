/**
 * The site's staff as the admin runs them (issue 25, /admin/staff and `vitrine users`): who they are, invitations (an
 * e-mailed link that works once and sets a password; only the token's sha256 is kept), role changes, removal (their
 * sessions end with them), sessions revoked. Every change is one transaction with its audit entry; a password or a
 * token is never written to the audit log. The site always keeps an admin: the last one can be neither demoted nor
 * removed (the admins' rows are locked first, so two admins demoting each other at once cannot both succeed).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isEmail } from '../../core/email';
import { ContributorRole } from '../../core/enums';
import { err, ok, type Result } from '../../core/result';
import { roleName } from '../../core/siteUserRoles';
import { entersAdmin } from '../../core/staffAccess';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import { enqueueEmail } from '../../platform/mail/outbox';
import { recordAudit, type Actor } from '../admin';
import { STAFF_INVITE_KIND, staffInviteEmail } from './mail';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords';
import { revokeAllSessions, revokeSession } from './sessions';
import type { SiteUser } from './users';

type Db = Kysely<Database>;

/** How long an invitation's link works. */
export const INVITE_LIFETIME_MS = 72 * 60 * 60 * 1000;
/** Where an invitation's link leads (then /account/invite/{token}). */
export const INVITE_PATH = '/account/invite';

/**
 * The roles that enter /admin, in the order the forms offer them: the site's builders (issue 26: website managers,
 * editors, draft editors) beside the shop's roles.
 */
export const STAFF_ROLES: readonly ContributorRole[] = [
  ContributorRole.ADMIN,
  ContributorRole.WEBSITE_MANAGER,
  ContributorRole.STORE_MANAGER,
  ContributorRole.EDITOR,
  ContributorRole.DRAFT_EDITOR,
  ContributorRole.VIEWER,
  ContributorRole.REPORTING,
].filter(entersAdmin);

export interface StaffMember {
  id: string;
  email: string;
  role: number;
  roleName: string;
  createdAt: string;
}

export interface PendingInvite {
  email: string;
  role: number;
  roleName: string;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

export type StaffFailureType =
  'INVALID_EMAIL' | 'NOT_A_STAFF_ROLE' | 'ALREADY_A_USER' | 'UNKNOWN_USER' | 'LAST_ADMIN' | 'UNKNOWN_SESSION';

export interface StaffFailure {
  type: StaffFailureType;
  message: string;
}

export const STAFF_MESSAGES = {
  notStaffRole: `The role must be one of ${STAFF_ROLES.map(roleName).join(', ')}.`,
  unknownUser: 'There is no such staff member on this site.',
  unknownSession: 'That session has already ended.',
  lastAdminSelfDemote:
    'You are the last admin of this site: make another staff member an admin before you change your own role.',
  lastAdminSelfRemove:
    'You are the last admin of this site: make another staff member an admin before you remove yourself.',
  lastAdmin: (email: string) => `${email} is the last admin of this site: make another staff member an admin first.`,
} as const;

const fail = (type: StaffFailureType, message: string): Result<never, StaffFailure> => err({ type, message });
const normalizeEmail = (email: string) => email.trim().toLowerCase();
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const INVITE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const actorName = (actor: Actor): string => ('id' in actor ? actor.email : 'vitrine command');

/** Who a change names: a user's id (the admin's pages and API) or e-mail (the commands). */
export type UserRef = { id: string } | { email: string };

const isStaffRole = (role: number): boolean => (STAFF_ROLES as readonly number[]).includes(role);

/** The site's staff (users whose role enters /admin), by e-mail. */
export async function listStaff(db: Db, siteId: string): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom('site_users')
    .select(['id', 'email', 'role', 'created_at'])
    .where('site_id', '=', siteId)
    .where('role', 'in', [...STAFF_ROLES])
    .execute();
  // Sorted here, so SQLite reads the site's staff by role (site_users_by_role) rather than every user by e-mail.
  rows.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: Number(r.role),
    roleName: roleName(Number(r.role)),
    createdAt: r.created_at,
  }));
}

/** Invitations not used yet (expired ones too, marked), newest first. */
export async function listInvites(db: Db, siteId: string, now = new Date()): Promise<PendingInvite[]> {
  const rows = await db
    .selectFrom('staff_invites')
    .select(['email', 'role', 'invited_by', 'created_at', 'expires_at'])
    .where('site_id', '=', siteId)
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    email: r.email,
    role: Number(r.role),
    roleName: roleName(Number(r.role)),
    invitedBy: r.invited_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    expired: r.expires_at <= now.toISOString(),
  }));
}

export interface InviteInput {
  site: { id: string; title: string };
  email: string;
  role: number;
  actor: Actor;
  /** The origin of the link in the e-mail (scheme://host[:port]). */
  origin: string;
  now?: Date;
}

/**
 * Invites `email` as `role`: one pending invitation per address (a new one replaces the one before, whose link stops
 * working), its e-mail in the outbox and its audit entry, in one transaction.
 */
export async function inviteStaff(
  db: Db,
  input: InviteInput,
): Promise<Result<{ email: string; role: number; expiresAt: string }, StaffFailure>> {
  const email = normalizeEmail(input.email);
  if (!isEmail(email) || email.length > 256)
    return fail('INVALID_EMAIL', `'${input.email.slice(0, 100)}' is not an e-mail address.`);
  if (!isStaffRole(input.role)) return fail('NOT_A_STAFF_ROLE', STAFF_MESSAGES.notStaffRole);
  const now = input.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_MS).toISOString();
  return inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom('site_users')
      .select('role')
      .where('site_id', '=', input.site.id)
      .where('email', '=', email)
      .executeTakeFirst();
    if (user)
      return fail(
        'ALREADY_A_USER',
        `${email} already has an account on this site (${roleName(Number(user.role))}): change their role instead.`,
      );
    await trx
      .deleteFrom('staff_invites')
      .where('site_id', '=', input.site.id)
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('staff_invites')
      .values({
        token_hash: hashOf(token),
        site_id: input.site.id,
        email,
        role: input.role,
        invited_by: actorName(input.actor),
        created_at: now.toISOString(),
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    const mail = staffInviteEmail({
      siteTitle: input.site.title,
      invitedBy: 'id' in input.actor ? input.actor.email : null,
      role: roleName(input.role),
      link: `${input.origin}${INVITE_PATH}/${token}`,
      expiresAt,
    });
    await enqueueEmail(trx, { siteId: input.site.id, kind: STAFF_INVITE_KIND, to: email, ...mail }, now);
    await recordAudit(trx, {
      siteId: input.site.id,
      actor: input.actor,
      action: 'staff.invited',
      subject: { type: 'staff-invite', id: email },
      summary: `Invited ${email} as ${roleName(input.role)}`,
      after: { email, role: roleName(input.role), expiresAt },
      at: now,
    });
    return ok({ email, role: input.role, expiresAt });
  });
}

export type InviteState = { state: 'open'; email: string; role: number } | { state: 'used' | 'expired' | 'unknown' };

export const INVITE_MESSAGES = {
  used: 'This invitation link has already been used. Sign in with your e-mail and password instead.',
  expired: 'This invitation link has expired. Ask an admin of this site to invite you again.',
  unknown:
    'This invitation link is not valid. Check that you opened the whole link from the e-mail, or ask an admin to invite you again.',
  alreadyUser: 'There is already an account with this e-mail address. Sign in instead.',
  tooShort: `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooLong: `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`,
  mismatch: 'The two passwords are not the same. Please type the same password twice.',
} as const;

/** What the invitation link `token` of site `siteId` is now. */
export async function inviteState(db: Db, siteId: string, token: string, now = new Date()): Promise<InviteState> {
  if (!INVITE_TOKEN.test(token)) return { state: 'unknown' };
  const row = await db
    .selectFrom('staff_invites')
    .select(['email', 'role', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashOf(token))
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (!row) return { state: 'unknown' };
  if (row.used_at !== null) return { state: 'used' };
  if (row.expires_at <= now.toISOString()) return { state: 'expired' };
  return { state: 'open', email: row.email, role: Number(row.role) };
}

export type AcceptFailure = { type: 'used' | 'expired' | 'unknown' | 'alreadyUser' | 'password'; message: string };

/**
 * Uses the invitation link `token`: the account is made with `password` (hashed as every password) and the link
 * marked used, in one transaction (of two tries at once, one makes the account; the other is told the link was used).
 */
export async function acceptInvite(
  db: Db,
  siteId: string,
  token: string,
  password: string,
  now = new Date(),
): Promise<Result<SiteUser, AcceptFailure>> {
  const state = await inviteState(db, siteId, token, now);
  if (state.state !== 'open') return err({ type: state.state, message: INVITE_MESSAGES[state.state] });
  if (password.length < PASSWORD_MIN_LENGTH) return err({ type: 'password', message: INVITE_MESSAGES.tooShort });
  if (password.length > PASSWORD_MAX_LENGTH) return err({ type: 'password', message: INVITE_MESSAGES.tooLong });
  const passwordHash = await hashPassword(password);
  return inTransaction<SiteUser, AcceptFailure>(db, async (trx) => {
    const used = await trx
      .updateTable('staff_invites')
      .set({ used_at: now.toISOString() })
      .where('token_hash', '=', hashOf(token))
      .where('site_id', '=', siteId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) return err({ type: 'used', message: INVITE_MESSAGES.used });
    const user: SiteUser = {
      id: randomUUID(),
      siteId,
      email: state.email,
      role: state.role,
      createdAt: now.toISOString(),
    };
    const inserted = await trx
      .insertInto('site_users')
      .values({
        id: user.id,
        site_id: siteId,
        email: user.email,
        password_hash: passwordHash,
        role: user.role,
        created_at: user.createdAt,
      })
      .onConflict((oc) => oc.columns(['site_id', 'email']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return err({ type: 'alreadyUser', message: INVITE_MESSAGES.alreadyUser });
    await recordAudit(trx, {
      siteId,
      actor: { id: user.id, email: user.email },
      action: 'staff.joined',
      subject: { type: 'site-user', id: user.id },
      summary: `${user.email} accepted the invitation and joined as ${roleName(user.role)}`,
      after: { email: user.email, role: roleName(user.role) },
      at: now,
    });
    return ok(user);
  });
}

interface Target {
  id: string;
  email: string;
  role: number;
}

/** The user `ref` of the site, with the site's admins locked (PostgreSQL) so the last-admin rule holds under races. */
async function lockedTarget(trx: Db, siteId: string, ref: UserRef): Promise<{ target?: Target; admins: number }> {
  const admins = await trx
    .selectFrom('site_users')
    .select('id')
    .where('site_id', '=', siteId)
    .where('role', '=', ContributorRole.ADMIN)
    .$if(engineOf(trx) === 'postgres', (q) => q.forUpdate())
    .execute();
  const row = await trx
    .selectFrom('site_users')
    .select(['id', 'email', 'role'])
    .where('site_id', '=', siteId)
    .$if('id' in ref, (q) => q.where('id', '=', (ref as { id: string }).id))
    .$if('email' in ref, (q) => q.where('email', '=', normalizeEmail((ref as { email: string }).email)))
    .executeTakeFirst();
  return { target: row && { id: row.id, email: row.email, role: Number(row.role) }, admins: admins.length };
}

const isSelf = (actor: Actor, target: Target) => 'id' in actor && actor.id === target.id;

/** Gives staff member `ref` the role `role`; refused for the site's last admin. */
export async function changeStaffRole(
  db: Db,
  input: { siteId: string; user: UserRef; role: number; actor: Actor; now?: Date },
): Promise<Result<{ email: string; before: number; after: number }, StaffFailure>> {
  if (!isStaffRole(input.role)) return fail('NOT_A_STAFF_ROLE', STAFF_MESSAGES.notStaffRole);
  return inTransaction(db, async (trx) => {
    const { target, admins } = await lockedTarget(trx, input.siteId, input.user);
    if (!target) return fail('UNKNOWN_USER', STAFF_MESSAGES.unknownUser);
    if (target.role === input.role) return ok({ email: target.email, before: target.role, after: target.role });
    if (target.role === ContributorRole.ADMIN && admins <= 1)
      return fail(
        'LAST_ADMIN',
        isSelf(input.actor, target) ? STAFF_MESSAGES.lastAdminSelfDemote : STAFF_MESSAGES.lastAdmin(target.email),
      );
    await trx.updateTable('site_users').set({ role: input.role }).where('id', '=', target.id).execute();
    await recordAudit(trx, {
      siteId: input.siteId,
      actor: input.actor,
      action: 'staff.role-changed',
      subject: { type: 'site-user', id: target.id },
      summary: `Changed the role of ${target.email} from ${roleName(target.role)} to ${roleName(input.role)}`,
      before: { role: roleName(target.role) },
      after: { role: roleName(input.role) },
      ...(input.now ? { at: input.now } : {}),
    });
    return ok({ email: target.email, before: target.role, after: input.role });
  });
}

/** Removes user `ref` from the site and ends their sessions; refused for the site's last admin. */
export async function removeStaff(
  db: Db,
  input: { siteId: string; user: UserRef; actor: Actor; now?: Date },
): Promise<Result<{ email: string; role: number; sessions: number }, StaffFailure>> {
  return inTransaction(db, async (trx) => {
    const { target, admins } = await lockedTarget(trx, input.siteId, input.user);
    if (!target) return fail('UNKNOWN_USER', STAFF_MESSAGES.unknownUser);
    if (target.role === ContributorRole.ADMIN && admins <= 1)
      return fail(
        'LAST_ADMIN',
        isSelf(input.actor, target) ? STAFF_MESSAGES.lastAdminSelfRemove : STAFF_MESSAGES.lastAdmin(target.email),
      );
    const sessions = await revokeAllSessions(trx, target.id);
    await trx.deleteFrom('site_users').where('id', '=', target.id).execute();
    await recordAudit(trx, {
      siteId: input.siteId,
      actor: input.actor,
      action: 'staff.removed',
      subject: { type: 'site-user', id: target.id },
      summary: `Removed ${target.email} (${roleName(target.role)}) from the staff; ${sessions === 1 ? '1 session' : `${sessions} sessions`} ended`,
      before: { email: target.email, role: roleName(target.role) },
      ...(input.now ? { at: input.now } : {}),
    });
    return ok({ email: target.email, role: target.role, sessions });
  });
}

/** Ends one session (`sessionId` from listSessions) of user `ref`, or all of them (`sessionId` null). */
export async function revokeStaffSessions(
  db: Db,
  input: { siteId: string; user: UserRef; sessionId: string | null; actor: Actor },
): Promise<Result<{ email: string; ended: number }, StaffFailure>> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('site_users')
      .select(['id', 'email'])
      .where('site_id', '=', input.siteId)
      .$if('id' in input.user, (q) => q.where('id', '=', (input.user as { id: string }).id))
      .$if('email' in input.user, (q) => q.where('email', '=', normalizeEmail((input.user as { email: string }).email)))
      .executeTakeFirst();
    if (!row) return fail('UNKNOWN_USER', STAFF_MESSAGES.unknownUser);
    let ended: number;
    if (input.sessionId === null) ended = await revokeAllSessions(trx, row.id);
    else {
      if (!(await revokeSession(trx, row.id, input.sessionId)))
        return fail('UNKNOWN_SESSION', STAFF_MESSAGES.unknownSession);
      ended = 1;
    }
    await recordAudit(trx, {
      siteId: input.siteId,
      actor: input.actor,
      action: 'staff.sessions-revoked',
      subject: { type: 'site-user', id: row.id },
      summary:
        input.sessionId === null
          ? `Signed ${row.email} out everywhere (${ended === 1 ? '1 session' : `${ended} sessions`} ended)`
          : `Ended a session of ${row.email}`,
      ...(input.sessionId !== null ? { before: { session: input.sessionId } } : {}),
    });
    return ok({ email: row.email, ended });
  });
}
