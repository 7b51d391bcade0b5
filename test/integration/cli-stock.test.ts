/**
 * `vitrine stock set|adjust|history` on SQLite and PostgreSQL: the change as /admin makes it (history row, audit entry
 * by 'vitrine command'), below 0 refused with exit 1, wrong usage exit 2 before the database is touched.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/modules/admin';
import { checkoutSite, seedSite } from '../support/checkoutSite';
import { vitrine } from '../support/cli';
import { forEachEngine } from '../support/engines';

describe('vitrine stock: usage', () => {
  it('refuses wrong usage with exit code 2', async () => {
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    for (const args of [
      ['stock', 'set', 'ooak-1', 'x'],
      ['stock', 'adjust', 'ooak-1', '3'],
      ['stock', 'set', 'ooak-1'],
    ]) {
      const run = await vitrine(args, unreachable);
      expect(run.code, args.join(' ')).toBe(2);
    }
  });
});

forEachEngine((_engine, getDb, getFresh) => {
  const run = (...args: string[]) => vitrine(['stock', ...args], getFresh().url);
  let siteId: string;

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    siteId = (await getDb().selectFrom('sites').select('id').executeTakeFirstOrThrow()).id;
  });

  it('sets, adjusts, refuses below 0 and prints the history', async () => {
    expect(await run('set', 'ooak-1', '8', '--site', siteId, '--reason', 'Recount')).toEqual({
      code: 0,
      out: ['The stock of ooak-1 is now 8 (was 1).'],
      err: [],
    });
    expect((await run('adjust', 'ooak-1', '-3', '--site', siteId)).out).toEqual([
      'The stock of ooak-1 is now 5 (was 8).',
    ]);
    expect((await run('adjust', 'ooak-1', '+2', '--site', siteId)).out).toEqual([
      'The stock of ooak-1 is now 7 (was 5).',
    ]);
    const below = await run('adjust', 'ooak-1', '-9', '--site', siteId);
    expect(below.code).toBe(1);
    expect(below.err.join('\n')).toContain('Stock cannot go below 0: ooak-1 has 7 in stock');
    const history = await run('history', 'ooak-1', '--site', siteId);
    expect(history.code).toBe(0);
    expect(history.out[0]).toMatch(/^WHEN \(UTC\)\s+WHAT\s+CHANGE\s+AFTER\s+WHO\s+NOTE$/);
    expect(history.out[1]).toMatch(/edit\s+\+2\s+7\s+vitrine command/);
    expect(history.out.at(-1)).toMatch(/import\s+\+1\s+1/);
    const audit = await listAudit(getDb(), siteId, { subject: { type: 'variant', id: 'ooak-1' } });
    expect(audit.records.map((r) => r.actor)).toEqual(['vitrine command', 'vitrine command', 'vitrine command']);
  });
});
