/**
 * `vitrine versions` (list, diff, restore) on SQLite and PostgreSQL: two saves of the test shop, then the commands run
 * in this process against the same database, their printed lines and exit codes checked.
 */
import { beforeAll, expect, it } from 'vitest';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { readSite, replaceSite } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { checkoutSite } from '../support/checkoutSite';
import { vitrine } from '../support/cli';
import { forEachEngine } from '../support/engines';

forEachEngine((_engine, getDb, getFresh) => {
  const run = (...args: string[]) => vitrine(['versions', ...args], getFresh().url);
  const save = async (edit: (site: SiteFileInput) => void) => {
    const input = structuredClone(checkoutSite);
    edit(input);
    const validation = validateSite(input);
    if (!validation.ok) throw new Error(validation.problems.join('\n'));
    await replaceSite(getDb(), validation.site, [], { stock: 'file' });
  };

  beforeAll(async () => {
    await save(() => {});
    await save((site) => {
      site.products!.find((p) => p.id === 'kit')!.variants[0]!.price = 8900;
    });
  });

  it('lists the versions newest first', async () => {
    const listed = await run();
    expect(listed.code).toBe(0);
    expect(listed.out[0]).toMatch(/^VERSION +SAVED \(UTC\) +BY +SOURCE +SUMMARY$/);
    expect(listed.out[1]).toMatch(
      /^ +2 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +vitrine import +import +Product “Kit”: price$/,
    );
    expect(listed.out[2]).toMatch(/^ +1 .* First version: 8 products, 1 collection, 0 pages, 0 posts, 1 form$/);
    const one = await run('--limit', '1');
    expect(one.out).toHaveLength(3);
    expect(one.out[2]).toBe('(the newest 1; --limit N shows more)');
  });

  it('prints what changed between two versions', async () => {
    const diff = await run('diff', '1', '2');
    expect(diff.code).toBe(0);
    expect(diff.out).toEqual(['From version 1 to version 2:', '  Product “Kit” (kit): price changed']);
    expect((await run('diff', '2', '2')).out).toEqual([
      'From version 2 to version 2:',
      '  No changes (live stock is not part of a version).',
    ]);
    const unknown = await run('diff', '1', '9');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual(["vitrine: site 'shop' has no version 9"]);
    const bad = await run('diff', '1', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toContain("the version number must be a positive whole number, not 'abc'");
    expect((await run('--site', 'nowhere')).err).toEqual(["vitrine: there is no site 'nowhere' in the database"]);
  });

  it('restores only with --yes off a terminal, as a new version, keeping what it changes', async () => {
    const refused = await run('restore', '1');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('  Product “Kit” (kit): price changed');
    expect(refused.err).toEqual(['vitrine: nothing restored: run it again with --yes to restore version 1']);
    const restored = await run('restore', '1', '--yes');
    expect(restored.code).toBe(0);
    expect(restored.out.at(-1)).toBe('Restored version 1 as version 3; live stock kept.');
    const kit = (await readSite(getDb(), 'shop'))!.site.products.find((p) => p.id === 'kit')!;
    expect(kit.variants[0]!.price).toBe(9900);
    expect((await run()).out[1]).toMatch(
      /^ +3 .* vitrine versions restore +restore +Restored version 1: product “Kit”: price$/,
    );
    expect((await run('restore', '7', '--yes')).err).toEqual(["vitrine: site 'shop' has no version 7"]);
  });
});
