/**
 * `vitrine import FILE [--stock …]`, `vitrine export [--site ID] [--out FILE]` and `vitrine migrate`: the site file in
 * and out of the database, and the database's schema.
 */
import { join, resolve } from 'node:path';
import { loadSettings, redacted, type Config } from '../../config';
import { defineCommand, UserError, type CliIo, type Command } from '../../platform/cli/command';
import {
  exportSiteToFile,
  findSiteByHost,
  importSiteFile,
  SiteFileError,
  SiteNotFoundError,
  type ImportProgress,
  type ImportResult,
} from '../../modules/site';
import { describeImportStock, IMPORT_STOCK_OPTION_FORMS, parseImportStockOption } from '../../core/importStock';
import { withDatabase } from '../../platform/cli/database';

/** The site file's own errors (refused, not found) are complete messages for the user. */
export async function siteFileErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SiteFileError || error instanceof SiteNotFoundError) throw new UserError(error.message);
    throw error;
  }
}

export function describeImport(r: ImportResult): string {
  const c = r.counts;
  return (
    `Imported site '${r.site.id}' (${r.site.title}), version ${r.site.version}: ` +
    `${c.products} products, ${c.variants} variants, ${c.collections} collections, ${c.pages} pages, ${c.posts} posts, ${c.forms} forms, ${c.images} images`
  );
}

const importCommand = defineCommand({
  name: 'import',
  positionals: [{ name: 'FILE', what: 'site file' }],
  options: {
    stock: {
      type: 'string',
      value: 'file|file:SKU,SKU…',
      format: {
        test: (value: string) => parseImportStockOption(value) !== undefined,
        forms: IMPORT_STOCK_OPTION_FORMS,
      },
      description:
        "whose stock to store: live (the default) keeps the stored variants' live stock (sales stay sold), new variants take the file's; file takes the file's stock for every variant; file:SKU,SKU for those",
    },
  },
  details: ["The site's images are read beside FILE. docs/site-file.md describes the site file."],
  async run({ options, positionals }, io) {
    const stock = (options.stock === undefined ? undefined : parseImportStockOption(options.stock)) ?? 'live';
    const file = positionals[0] as string;
    const config = loadSettings();
    return withDatabase(config, io, async (handle) => {
      io.out(`Reading ${file} and its images…`);
      const result = await siteFileErrors(() =>
        importSiteFile(handle.db, file, { progress: importProgress(io), stock }),
      );
      io.out(describeImport(result));
      for (const line of describeImportStock(result.stock)) io.out(line);
      await announceSiteChange(config, result.site.id, io);
      return 0;
    });
  },
});

/** Rows stored before a table's progress is worth telling (the demo's import says nothing until it is done). */
const PROGRESS_FROM_ROWS = 1000;

/**
 * A large import's progress, as lines: each big table every tenth of its rows ('  variants: 12,000 of 60,000'), then
 * the steps after it. A small import prints none of it.
 */
function importProgress(io: CliIo): ImportProgress {
  const tenths = new Map<string, number>();
  let large = false;
  return (step, done, total) => {
    if (done === undefined || total === undefined) {
      if (large) io.out(`  ${step}…`);
      return;
    }
    if (total < PROGRESS_FROM_ROWS) return;
    large = true;
    const tenth = Math.floor((done * 10) / total);
    if (tenth <= (tenths.get(step) ?? 0) && done !== total) return;
    if (tenths.get(step) === 10) return;
    tenths.set(step, tenth);
    io.out(`  ${step}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
  };
}

/**
 * Tells running servers (other processes) to drop their cached site at once, through Redis when REDIS_URL is set.
 * Without Redis, or when it is down, they see the new version within SITE_CACHE_TTL_MS anyway: a warning, not a failure.
 */
async function announceSiteChange(config: Config, siteId: string, io: CliIo): Promise<void> {
  if (config.redisUrl === undefined) return;
  const { publishSiteChange, SITE_CACHE_TTL_MS } = await import('../../modules/site/siteCache');
  if (!(await publishSiteChange(config.redisUrl, siteId))) {
    io.err(
      `vitrine: could not notify running servers through Redis (${redacted(config.redisUrl)}); they will show the new version within ${SITE_CACHE_TTL_MS / 1000} s`,
    );
  }
}

const exportCommand = defineCommand({
  name: 'export',
  options: {
    site: { type: 'string', value: 'ID', description: 'the site to write (default: the default one)' },
    out: { type: 'string', value: 'FILE', description: 'where to write it (default: ./export/<site id>/site.json)' },
  },
  details: ["The site's images are written beside FILE."],
  async run({ options }, io) {
    return withDatabase(loadSettings(), io, async (handle) => {
      let siteId = options.site;
      if (siteId === undefined) {
        const site = await findSiteByHost(handle.db, 'localhost');
        if (!site) throw new UserError('the database holds no site yet; import one first: vitrine import FILE');
        siteId = site.id;
      }
      const id = siteId;
      const out = resolve(options.out ?? join('export', id, 'site.json'));
      io.out(`Exporting site '${id}'…`);
      const result = await siteFileErrors(() => exportSiteToFile(handle.db, id, out));
      io.out(`Exported site '${siteId}' to ${out} with ${result.assets.length} images`);
      return 0;
    });
  },
});

const migrateCommand = defineCommand({
  name: 'migrate',
  async run(_args, io) {
    return withDatabase(loadSettings(), io, async () => 0);
  },
});

export const commands: readonly Command[] = [importCommand, exportCommand, migrateCommand];
