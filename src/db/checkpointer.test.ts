import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { catchUpWhenLarge } from './checkpointer';

describe('catchUpWhenLarge', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const LIMIT = 64 * 1024;

  /** A WAL database that never checkpoints by itself, written to for `ms` without pause but for the event loop's turns. */
  async function writeFor(ms: number, withCatchUp: boolean): Promise<number> {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-wal-'));
    dirs.push(dir);
    const file = join(dir, 'db.sqlite');
    const db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${LIMIT}`);
    db.exec('create table t (id integer primary key, body text)');
    const catchUp = withCatchUp ? catchUpWhenLarge(`${file}-wal`, LIMIT, async () => void db.pragma('wal_checkpoint(PASSIVE)'), 10) : undefined;
    const insert = db.prepare('insert into t (body) values (?)');
    const until = performance.now() + ms;
    while (performance.now() < until) {
      insert.run('x'.repeat(2000));
      await new Promise((resolve) => setImmediate(resolve));
    }
    catchUp?.stop();
    const size = statSync(`${file}-wal`).size;
    db.close();
    return size;
  }

  it('keeps the -wal file near its limit under writes that never pause (without it, the file only grows)', async () => {
    const without = await writeFor(400, false);
    const withCatchUp = await writeFor(400, true);
    expect(without).toBeGreaterThan(20 * LIMIT);
    // The limit, plus what was written since the last look (every 10 ms here): a small part of the 400 ms' worth.
    expect(withCatchUp).toBeLessThan(without / 3);
  });
});
