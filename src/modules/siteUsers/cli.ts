/**
 * `vitrine users [--site ID]`: the site users (who may sign in at /account/sign-in), with their roles.
 * `vitrine users add --email E --role ROLE [--site ID]`: adds one. The password is taken from the environment
 * variable VITRINE_USER_PASSWORD (never from the command line, which other users of the machine and the shell's
 * history can read); without it a strong one is made and printed once.
 * `vitrine users remove --email E [--site ID]`: removes one and ends their sessions (never the site's last admin).
 * `vitrine users invite --email E --role ROLE [--site ID]`: e-mails them a link (one use, 72 hours) that sets their
 * password. `vitrine users role --email E --role ROLE`: changes a role. `vitrine users sessions [--email E]`: the
 * sessions. `vitrine users revoke --email E [--session ID]`: ends one session, or all of theirs. Each change is written
 * to the audit log (as 'vitrine command').
 */
import { ROLE_NAMES, parseRole, roleName } from '../../core/siteUserRoles';
import { staffRoleDescription } from '../../core/staffAccess';
import { generatePassword } from './passwords';
import { createSiteUser, listSiteUsers, SiteUserError } from './users';
import { listSessions } from './sessions';
import {
  changeStaffRole,
  inviteStaff,
  removeStaff,
  revokeStaffSessions,
  STAFF_ROLES,
  type StaffFailure,
} from './staff';
import { ownerOrigin } from '../../core/linkOrigin';
import { COMMAND_ACTOR, recordAudit } from '../admin';
import { ok } from '../../core/result';
import { inTransaction } from '../../platform/db/transaction';
import { defineCommand, UsageError, UserError, type Command } from '../../platform/cli/command';
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { siteFor } from '../site';
import { formatTable, printable } from '../../platform/cli/table';

export const PASSWORD_ENV = 'VITRINE_USER_PASSWORD';

const SITE = { type: 'string', value: 'ID', description: 'the site (default: the default one)' } as const;

const STAFF_ROLE_NAMES = STAFF_ROLES.map(roleName).join(', ');

/** The staff roles with what each may do at /admin, for the commands' help (as /admin/staff shows them). */
const STAFF_ROLE_DETAILS: readonly string[] = [
  '',
  'What each staff role may do at /admin:',
  ...STAFF_ROLES.map((role) => `${roleName(role)}: ${staffRoleDescription(role)}`),
];

const listCommand = defineCommand({
  name: 'users',
  options: { site: { type: 'string', value: 'ID', description: 'only the users of this site' } },
  async run({ options }, io) {
    return withDatabase(loadSettings(), io, async (handle) => {
      if (options.site !== undefined) await siteFor(handle, options.site);
      const users = await listSiteUsers(handle.db, options.site);
      if (users.length === 0) {
        io.out("No site users yet. Add one with 'vitrine users add --email E --role store-manager'.");
        return 0;
      }
      const rows = users.map((u) => [u.email, roleName(u.role), u.siteId, u.createdAt.slice(0, 19).replace('T', ' ')]);
      for (const line of formatTable(
        [{ header: 'E-MAIL', maxWidth: 60 }, { header: 'ROLE' }, { header: 'SITE' }, { header: 'ADDED (UTC)' }],
        rows,
      ))
        io.out(line);
      return 0;
    });
  },
});

const addCommand = defineCommand({
  name: 'users add',
  options: {
    email: { type: 'string', value: 'E', description: "the user's e-mail address (they sign in with it)" },
    role: { type: 'string', value: 'ROLE', description: `one of ${Object.keys(ROLE_NAMES).join(', ')}` },
    site: SITE,
  },
  details: [
    `The password is taken from ${PASSWORD_ENV} (never from the command line, which others can read); without it a strong one is made and printed once.`,
    'Other roles (customer accounts and the roles of spec §3 that do not enter /admin) sign in at /account only.',
    ...STAFF_ROLE_DETAILS,
  ],
  async run({ options }, io) {
    const email = options.email;
    if (email === undefined) throw new UsageError("'users add' needs --email");
    const roleText = options.role;
    if (roleText === undefined)
      throw new UsageError(`'users add' needs --role (one of ${Object.keys(ROLE_NAMES).join(', ')})`);
    const role = parseRole(roleText);
    if (role === undefined)
      throw new UsageError(
        `option '--role' must be one of ${Object.keys(ROLE_NAMES).join(', ')}, not '${printable(roleText)}'`,
      );
    const given = process.env[PASSWORD_ENV];
    const password = given !== undefined && given !== '' ? given : generatePassword();
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      try {
        // The account and its audit entry in one transaction (as the admin's invitations are).
        const made = await inTransaction(handle.db, async (trx) => {
          const user = await createSiteUser(trx, { siteId: site.id, email, password, role });
          await recordAudit(trx, {
            siteId: site.id,
            actor: COMMAND_ACTOR,
            action: 'staff.added',
            subject: { type: 'site-user', id: user.id },
            summary: `Added ${user.email} as ${roleName(user.role)}`,
            after: { email: user.email, role: roleName(user.role) },
          });
          return ok(user);
        });
        if (!made.ok) throw new Error('unreachable: the account is made or refused by an error');
        const user = made.value;
        io.out(`Added ${user.email} (${roleName(user.role)}) to site ${site.id}. They sign in at /account/sign-in.`);
        if (given === undefined || given === '') io.out(`Password (shown once, pass it on safely): ${password}`);
        return 0;
      } catch (error) {
        if (error instanceof SiteUserError) throw new UserError(error.message);
        throw error;
      }
    });
  },
});

const removeCommand = defineCommand({
  name: 'users remove',
  options: {
    email: { type: 'string', value: 'E', description: "the user's e-mail address" },
    site: SITE,
  },
  async run({ options }, io) {
    const email = options.email;
    if (email === undefined) throw new UsageError("'users remove' needs --email");
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const done = orRefusal(
        await removeStaff(handle.db, { siteId: site.id, user: { email }, actor: COMMAND_ACTOR }),
        email,
        site.id,
      );
      io.out(`Removed ${done.email} from site ${site.id}; their sessions are ended.`);
      return 0;
    });
  },
});

/** A staff role named on the command line, or the usage error saying which ones there are. */
function staffRoleOption(command: string, text: string | undefined): number {
  if (text === undefined) throw new UsageError(`'${command}' needs --role (one of ${STAFF_ROLE_NAMES})`);
  const role = parseRole(text);
  if (role === undefined || !(STAFF_ROLES as readonly number[]).includes(role))
    throw new UsageError(`option '--role' must be one of ${STAFF_ROLE_NAMES}, not '${printable(text)}'`);
  return role;
}

/** The change's value, or the refusal as the command's error (in the words the admin's page uses). */
function orRefusal<T>(
  result: { ok: true; value: T } | { ok: false; error: StaffFailure },
  email: string,
  siteId: string,
): T {
  if (result.ok) return result.value;
  if (result.error.type === 'UNKNOWN_USER') throw new UserError(`${printable(email)} is not a user of site ${siteId}`);
  throw new UserError(result.error.message);
}

const inviteCommand = defineCommand({
  name: 'users invite',
  options: {
    email: { type: 'string', value: 'E', description: 'the e-mail address to invite (they sign in with it)' },
    role: { type: 'string', value: 'ROLE', description: `one of ${STAFF_ROLE_NAMES}` },
    site: SITE,
  },
  details: [
    "The e-mail goes through the outbox; its link works once, for 72 hours, and points at PUBLIC_URL, else the site's domain, else http://localhost:PORT.",
    ...STAFF_ROLE_DETAILS,
  ],
  async run({ options }, io) {
    const email = options.email;
    if (email === undefined) throw new UsageError("'users invite' needs --email");
    const role = staffRoleOption('users invite', options.role);
    const settings = loadSettings();
    return withDatabase(settings, io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const { origin } = ownerOrigin(site.domains, settings.port, settings.publicUrl);
      const done = orRefusal(
        await inviteStaff(handle.db, { site, email, role, actor: COMMAND_ACTOR, origin }),
        email,
        site.id,
      );
      io.out(
        `Invited ${done.email} (${roleName(done.role)}) to site ${site.id}; their link works until ${done.expiresAt.slice(0, 16).replace('T', ' ')} UTC. The e-mail is in the outbox ('vitrine outbox').`,
      );
      return 0;
    });
  },
});

const roleCommand = defineCommand({
  name: 'users role',
  options: {
    email: { type: 'string', value: 'E', description: "the user's e-mail address" },
    role: { type: 'string', value: 'ROLE', description: `one of ${STAFF_ROLE_NAMES}` },
    site: SITE,
  },
  details: STAFF_ROLE_DETAILS.slice(1),
  async run({ options }, io) {
    const email = options.email;
    if (email === undefined) throw new UsageError("'users role' needs --email");
    const role = staffRoleOption('users role', options.role);
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const done = orRefusal(
        await changeStaffRole(handle.db, { siteId: site.id, user: { email }, role, actor: COMMAND_ACTOR }),
        email,
        site.id,
      );
      io.out(
        done.before === done.after
          ? `${done.email} is already ${roleName(done.after)}.`
          : `${done.email} is now ${roleName(done.after)} (was ${roleName(done.before)}).`,
      );
      return 0;
    });
  },
});

const sessionsCommand = defineCommand({
  name: 'users sessions',
  options: {
    email: { type: 'string', value: 'E', description: "only this user's sessions" },
    site: SITE,
  },
  async run({ options }, io) {
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      let userId: string | undefined;
      if (options.email !== undefined) {
        const wanted = options.email.trim().toLowerCase();
        const user = (await listSiteUsers(handle.db, site.id)).find((u) => u.email === wanted);
        if (!user) throw new UserError(`${printable(options.email)} is not a user of site ${site.id}`);
        userId = user.id;
      }
      const sessions = await listSessions(handle.db, site.id, userId !== undefined ? { userId } : {});
      if (sessions.length === 0) {
        io.out('Nobody is signed in.');
        return 0;
      }
      const time = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '-');
      for (const line of formatTable(
        [
          { header: 'SESSION' },
          { header: 'E-MAIL', maxWidth: 60 },
          { header: 'STARTED (UTC)' },
          { header: 'LAST SEEN (UTC)' },
          { header: 'BROWSER', maxWidth: 50 },
        ],
        sessions.map((s) => [s.id, s.email, time(s.startedAt), time(s.lastSeenAt), s.userAgent ?? '-']),
      ))
        io.out(line);
      return 0;
    });
  },
});

const revokeCommand = defineCommand({
  name: 'users revoke',
  options: {
    email: { type: 'string', value: 'E', description: "the user's e-mail address" },
    session: {
      type: 'string',
      value: 'ID',
      description: "one session (from 'users sessions'); without it, all of theirs",
    },
    site: SITE,
  },
  async run({ options }, io) {
    const email = options.email;
    if (email === undefined) throw new UsageError("'users revoke' needs --email");
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const done = orRefusal(
        await revokeStaffSessions(handle.db, {
          siteId: site.id,
          user: { email },
          sessionId: options.session ?? null,
          actor: COMMAND_ACTOR,
        }),
        email,
        site.id,
      );
      io.out(
        options.session !== undefined
          ? `Ended session ${options.session} of ${done.email}.`
          : `Ended ${done.ended === 1 ? '1 session' : `${done.ended} sessions`} of ${done.email}.`,
      );
      return 0;
    });
  },
});

export const commands: readonly Command[] = [
  listCommand,
  addCommand,
  removeCommand,
  inviteCommand,
  roleCommand,
  sessionsCommand,
  revokeCommand,
];
