/**
 * `vitrine versions`: the site's history (issue 26). `versions` lists the versions, newest first (number, when, who,
 * source, summary); `versions diff A B` prints what changed from version A to version B, per product, collection,
 * page, post, form and website setting; `versions restore N` saves version N again as the newest version (its records,
 * settings and images; live stock stays as sold). Each uses the default site unless --site names another.
 */
import { describeSiteDiff } from '../../core/siteDiff';
import { defineCommand, UserError, type CliIo, type Command, type PositionalSpec } from '../../platform/cli/command';
import { withDatabase } from '../../platform/cli/database';
import { formatTable, printable } from '../../platform/cli/table';
import { loadSettings } from '../../config';
import { compareVersions, restoreVersion, siteHistory } from './history';
import { siteFor } from './siteFor';

const SITE = {
  type: 'string',
  value: 'ID',
  description: 'the site whose versions these are (default: the default one)',
} as const;
const version = (name: string): PositionalSpec => ({
  name,
  what: 'version number',
  integer: true,
  dashValue: /^-\d/,
});

/** '2026-11-23 14:03:07' from a stored ISO time (UTC). */
const shownTime = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? iso.slice(0, 19).replace('T', ' ') : iso;

const listCommand = defineCommand({
  name: 'versions',
  options: {
    site: SITE,
    limit: { type: 'integer', min: 1, max: 10_000, default: 20, description: 'at most this many versions' },
  },
  details: ['A site imported before versions were kept shows its stored state as its first version.'],
  async run({ options }, io) {
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const { versions, next } = await siteHistory(handle.db, site.id, { limit: options.limit });
      const table = formatTable(
        [
          { header: 'VERSION', align: 'right' },
          { header: 'SAVED (UTC)' },
          { header: 'BY', maxWidth: 40 },
          { header: 'SOURCE' },
          { header: 'SUMMARY', maxWidth: 80 },
        ],
        versions.map((v) => [String(v.number), shownTime(v.createdAt), v.createdBy, v.source, v.summary]),
      );
      for (const line of table) io.out(line);
      if (next !== null) io.out(`(the newest ${options.limit}; --limit N shows more)`);
      return 0;
    });
  },
});

const diffCommand = defineCommand({
  name: 'versions diff',
  positionals: [version('A'), version('B')],
  options: { site: SITE },
  async run({ options, positionals }, io) {
    const [from, to] = positionals.map(Number) as [number, number];
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const compared = await compareVersions(handle.db, site.id, from, to);
      if (!compared.ok)
        throw new UserError(
          `site '${printable(site.id)}' has no version ${compared.error.type === 'UNKNOWN_VERSION' ? compared.error.number : from}`,
        );
      const lines = describeSiteDiff(compared.value.diff);
      io.out(`From version ${from} to version ${to}:`);
      if (lines.length === 0) io.out('  No changes (live stock is not part of a version).');
      for (const line of lines) io.out(`  ${printable(line)}`);
      return 0;
    });
  },
});

const restoreCommand = defineCommand({
  name: 'versions restore',
  positionals: [version('N')],
  options: { site: SITE, yes: { type: 'boolean', short: 'y', description: 'do not ask to confirm' } },
  details: [
    'The restore is itself a new version; stored variants keep their live stock (sales stay sold).',
    'Asks to confirm on a terminal; elsewhere (a script) it needs --yes.',
  ],
  async run({ options, positionals }, io) {
    const number = Number(positionals[0]);
    const config = loadSettings();
    return withDatabase(config, io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const history = await siteHistory(handle.db, site.id, { limit: 1 });
      const compared = await compareVersions(handle.db, site.id, history.latest ?? number, number);
      if (!compared.ok) throw new UserError(`site '${printable(site.id)}' has no version ${number}`);
      const lines = describeSiteDiff(compared.value.diff);
      io.out(`Restoring version ${number} of site '${printable(site.id)}' changes:`);
      for (const line of lines.length ? lines : ['nothing (it is the same as the latest version)'])
        io.out(`  ${printable(line)}`);
      if (!options.yes && !(await confirmOnTerminal(`Restore version ${number}? [y/N] `)))
        throw new UserError(`nothing restored: run it again with --yes to restore version ${number}`);
      const restored = await restoreVersion(handle.db, site.id, number, { createdBy: 'vitrine versions restore' });
      if (!restored.ok) throw new UserError(restored.error.message);
      io.out(`Restored version ${number} as version ${restored.value.version.number}; live stock kept.`);
      await announceSiteChange(config.redisUrl, site.id, io);
      return 0;
    });
  },
});

/**
 * Tells running servers (other processes) to drop their cached site at once, through Redis when REDIS_URL is set, as
 * `vitrine import` does; without it they show the restored version within SITE_CACHE_TTL_MS.
 */
async function announceSiteChange(redisUrl: string | undefined, siteId: string, io: CliIo): Promise<void> {
  if (redisUrl === undefined) return;
  const { publishSiteChange, SITE_CACHE_TTL_MS } = await import('./siteCache');
  if (!(await publishSiteChange(redisUrl, siteId)))
    io.err(
      `vitrine: could not notify running servers through Redis; they will show the restored version within ${SITE_CACHE_TTL_MS / 1000} s`,
    );
}

/** Asks on the terminal; false when there is none (a script, a pipe) or the answer is not yes. */
async function confirmOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export const commands: readonly Command[] = [listCommand, diffCommand, restoreCommand];
