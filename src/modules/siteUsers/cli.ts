/**
 * `vitrine users [--site ID]`: the site users (who may sign in at /account/sign-in), with their roles.
 * `vitrine users add --email E --role ROLE [--site ID]`: adds one. The password is taken from the environment
 * variable VITRINE_USER_PASSWORD (never from the command line, which other users of the machine and the shell's
 * history can read); without it a strong one is made and printed once.
 * `vitrine users remove --email E [--site ID]`: removes one and ends their sessions.
 */
import { ROLE_NAMES, parseRole, roleName } from '../../core/siteUserRoles';
import { generatePassword } from './passwords';
import { createSiteUser, listSiteUsers, removeSiteUser, SiteUserError } from './users';
import { defineCommand, UsageError, UserError, type Command } from '../../platform/cli/command';
import { loadSettings, withDatabase } from '../../cli/database';
import { siteFor } from '../../cli/shop';
import { formatTable, printable } from '../../platform/cli/table';

export const PASSWORD_ENV = 'VITRINE_USER_PASSWORD';

const SITE = { type: 'string', value: 'ID', description: 'the site (default: the default one)' } as const;

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
        const user = await createSiteUser(handle.db, { siteId: site.id, email, password, role });
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
      if (!(await removeSiteUser(handle.db, site.id, email)))
        throw new UserError(`${printable(email)} is not a user of site ${site.id}`);
      io.out(`Removed ${email.trim().toLowerCase()} from site ${site.id}; their sessions are ended.`);
      return 0;
    });
  },
});

export const commands: readonly Command[] = [listCommand, addCommand, removeCommand];
