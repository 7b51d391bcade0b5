import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointInBackground } from './checkpointer';

describe('checkpointInBackground', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const LIMIT = 64 * 1024;

  /**
   * A WAL database that never checkpoints by itself, written to for `ms` without pause but for the event loop's turns,
   * with the worker's checkpoints asked to catch up past `limitBytes`: the -wal file's size at the end, and how many
   * times the app's connection was asked for the last checkpoint of a catch-up.
   */
  async function writeFor(ms: number, limitBytes: number): Promise<{ size: number; caughtUp: number }> {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-wal-'));
    dirs.push(dir);
    const file = join(dir, 'db.sqlite');
    const db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${LIMIT}`);
    db.exec('create table t (id integer primary key, body text)');
    let caughtUp = 0;
    const checkpoints = checkpointInBackground(file, {
      limitBytes,
      onCaughtUp: async () => {
        caughtUp++;
        db.pragma('wal_checkpoint(PASSIVE)');
      },
      onFailure: (reason) => {
        throw new Error(reason);
      },
    });
    const insert = db.prepare('insert into t (body) values (?)');
    const until = performance.now() + ms;
    while (performance.now() < until) {
      insert.run('x'.repeat(2000));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await checkpoints.release();
    const size = statSync(`${file}-wal`).size;
    db.close();
    return { size, caughtUp };
  }

  it('keeps the -wal file near its limit under writes that never pause (without the catch-up, the file only grows)', async () => {
    const without = await writeFor(1500, Number.MAX_SAFE_INTEGER);
    const withCatchUp = await writeFor(1500, LIMIT);
    expect(without.caughtUp).toBe(0);
    expect(without.size).toBeGreaterThan(20 * LIMIT);
    expect(withCatchUp.caughtUp).toBeGreaterThan(1);
    // The limit, plus what was written since the worker's last look (every 200 ms): a small part of the 1.5 s' worth.
    expect(withCatchUp.size).toBeLessThan(without.size / 3);
  });
});
