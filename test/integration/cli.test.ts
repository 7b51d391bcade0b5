import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generatedSite } from '../../bench/generatedSite';
import { getSite } from '../../src/modules/site/sites';
import { serveProcess, vitrineProcess, vitrineWith } from '../support/cli';
import { forEachEngine } from '../support/engines';

const ROOT = join(import.meta.dirname, '../..');

// The commands run in this process, each with only its given settings in the environment (../support/cli.ts): a
// `vitrine` process costs seconds of CPU to start. What only a process shows is run in one: the help and a wrong
// command line (exit codes, stdout apart from stderr), a database that cannot be reached (no stack trace), and `serve`.
// On a machine busy with the other test files, a test that starts `serve` can take longer than vitest's default 30 s
// without anything hanging.
vi.setConfig({ testTimeout: 120_000 });

const DEMO = join(ROOT, 'sites/demo/site.json');
const tmp = mkdtempSync(join(tmpdir(), 'vitrine-cli-'));
// Edited copies of the demo file live in tmp and find the demo's images through this link.
symlinkSync(join(ROOT, 'sites/demo/images'), join(tmp, 'images'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const settings = (env: Record<string, string>) => ({ DATABASE_URL: join(tmp, 'default.db'), ...env });

/** Runs `vitrine ARGS` in this process with only the given settings in the environment. */
const vitrine = (args: string[], env: Record<string, string> = {}) => vitrineWith(args, settings(env));
/** Runs `vitrine ARGS` as a process of its own with only the given settings in the environment. */
const vitrineAlone = (args: string[], env: Record<string, string> = {}) => vitrineProcess(args, settings(env));

/** Starts `vitrine serve`, waits for its "listening" line, and returns its URL and a stop function. */
async function serve(
  env: Record<string, string>,
): Promise<{ url: string; output: () => string; stop: () => Promise<number | null> }> {
  const server = await serveProcess(env, /Vitrine is listening on (http:\/\/\S+)/);
  return { url: server.match[1]!, output: server.output, stop: server.stop };
}

describe('vitrine command line', () => {
  it('prints help', async () => {
    const run = await vitrineAlone(['help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: vitrine <command> \[options\]\n/);
    expect(run.stdout).toContain('import FILE');
  });

  it('refuses wrong usage with exit code 2 and a hint', async () => {
    const cases: [string[], string][] = [
      [['bogus'], "vitrine: unknown command 'bogus'. Run 'vitrine help' for usage.\n"],
      [['import'], "vitrine: 'import' needs the site file: vitrine import FILE. Run 'vitrine help' for usage.\n"],
      [['import', 'a.json', 'b.json'], "vitrine: 'import' takes one site file, got 2. Run 'vitrine help' for usage.\n"],
      [['export', '--force'], "vitrine: unknown option '--force' for 'export'. Run 'vitrine help' for usage.\n"],
      [['export', '--site'], "vitrine: option '--site' needs a value. Run 'vitrine help' for usage.\n"],
      [['migrate', 'now'], "vitrine: 'migrate' takes no arguments, got 'now'. Run 'vitrine help' for usage.\n"],
    ];
    const runs = await Promise.all(cases.map(([args]) => vitrine(args)));
    runs.forEach((run, i) => {
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(cases[i]?.[1]);
    });
    const bare = await vitrineAlone([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: vitrine/);
    expect(bare.stdout).toBe('');
  });

  it('names bad settings in one message', async () => {
    const run = await vitrine(['migrate'], { PORT: 'abc', DATABASE_URL: 'mysql://db/shop', REDIS_URL: 'http://x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'vitrine: invalid settings:\n' +
        "  PORT must be a whole number from 0 to 65535, not 'abc'\n" +
        "  DATABASE_URL: unsupported database URL 'mysql://db/shop'; use a SQLite file path (./data/vitrine.db), a sqlite: URL (sqlite:./data/vitrine.db, sqlite::memory:) or a PostgreSQL URL (postgres://user:password@host:5432/name)\n" +
        "  REDIS_URL must be a redis:// or rediss:// URL, not 'http://x'\n",
    );
  });

  it('says when the database cannot be reached, without a stack trace', async () => {
    const run = await vitrineAlone(['migrate'], { DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:1/shop' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'vitrine: cannot use the database postgres://postgres:***@127.0.0.1:1/shop: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  });

  it('refuses a site file that does not exist', async () => {
    const run = await vitrine(['import', 'nope/site.json'], { DATABASE_URL: join(tmp, 'missing.db') });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('vitrine: nope/site.json was refused: file not found\n');
  });
});

forEachEngine(
  (_engine, getDb, getFresh) => {
    const env = () => ({ DATABASE_URL: getFresh().url });

    it('migrates, then finds nothing to do', async () => {
      const first = await vitrine(['migrate'], env());
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/: applied 001_initial, 002_checkout, 003_cart_claims(, \d{3}_\w+)*\n$/);
      const second = await vitrine(['migrate'], env());
      expect(second.stdout).toMatch(/ is up to date\n$/);
    });

    it('has no site to export yet', async () => {
      const run = await vitrine(['export'], env());
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('vitrine: the database holds no site yet; import one first: vitrine import FILE\n');
    });

    it('serves, importing the demo site into an empty database, and keeps the data on the next start', async () => {
      const first = await serve(env());
      try {
        expect(first.output()).toContain(
          "Imported site 'demo' (Vitrine Demo Store), version 1: 18 products, 42 variants",
        );
        const response = await fetch(`${first.url}/shop/p/speckled-mug`);
        expect(response.status).toBe(200);
      } finally {
        expect(await first.stop()).toBe(0);
      }
      const second = await serve(env());
      try {
        expect(second.output()).not.toContain('importing the demo site');
      } finally {
        await second.stop();
      }
      expect((await getSite(getDb(), 'demo'))?.version).toBe(1);
    });

    it('refuses an invalid site file, listing its problems, and keeps the stored site', async () => {
      const bad = JSON.parse(readFileSync(DEMO, 'utf8')) as {
        website: { title: string };
        products: { slug: string }[];
      };
      bad.website.title = '';
      bad.products[1]!.slug = 'Not A Slug';
      const file = join(tmp, `bad-${_engine}.json`);
      writeFileSync(file, JSON.stringify(bad));
      const run = await vitrine(['import', file], env());
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `vitrine: ${file} was refused, 2 problems:\n` +
          '  website.title: must not be empty\n' +
          `  products[1] (id 'stoneware-bowl', "Everyday Stoneware Bowl").slug: must be 1-64 lower-case letters, digits or dashes, starting with a letter or digit\n`,
      );
      expect(await getSite(getDb(), 'demo')).toMatchObject({ title: 'Vitrine Demo Store', version: 1 });
    });

    it("tells a large import's progress, each tenth of the products and variants, then the steps after", async () => {
      const file = join(tmp, `large-${_engine}.json`);
      const site = generatedSite(1_200, { host: `large-${_engine}.test`, id: `large-${_engine}` });
      // Not the default site: the export below still finds the demo.
      writeFileSync(file, JSON.stringify({ ...site, website: { ...site.website, default: false } }));
      const imported = await vitrine(['import', file], env());
      expect(imported.code).toBe(0);
      const lines = imported.stdout.split('\n');
      const products = lines.filter((l) => l.startsWith('  products: '));
      expect(products[0]).toBe('  products: 200 of 1,200');
      expect(products.at(-1)).toBe('  products: 1,200 of 1,200');
      expect(lines.filter((l) => l.startsWith('  variants: ')).at(-1)).toBe('  variants: 10,800 of 10,800');
      expect(lines).toContain('  search index…');
      expect(imported.stdout).toContain(
        `Imported site 'large-${_engine}' (Big Shop), version 1: 1200 products, 10800 variants`,
      );
    });

    it('imports and exports a site', async () => {
      const imported = await vitrine(['import', DEMO], env());
      expect(imported.code).toBe(0);
      // A small import tells no progress.
      expect(imported.stdout).not.toContain('  products: ');
      expect(imported.stdout).toContain(
        "Imported site 'demo' (Vitrine Demo Store), version 2: 18 products, 42 variants, 2 collections, 5 pages, 3 posts, 5 forms, 24 images\n",
      );
      const out = join(tmp, `export-${_engine}`, 'site.json');
      const exported = await vitrine(['export', '--out', out], env());
      expect(exported.code).toBe(0);
      expect(exported.stdout).toContain(`Exported site 'demo' to ${out} with 24 images\n`);
      expect(existsSync(join(tmp, `export-${_engine}`, 'images/hero.jpg'))).toBe(true);
      const unknown = await vitrine(['export', '--site=nope', '--out', out], env());
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe("vitrine: there is no site 'nope' in the database\n");
    });
  },
  { migrate: false },
);
