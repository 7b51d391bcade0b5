import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StatementCache } from './statementCache';

describe('StatementCache', () => {
  const open = (capacity?: number) => {
    const database = new SQLite(':memory:');
    database.exec('create table t (id integer primary key); insert into t values (1), (2), (3)');
    return { database, cache: new StatementCache(database, capacity) };
  };

  it('hands out the kept statement for the same SQL text', () => {
    const { cache } = open();
    const first = cache.prepare('select id from t where id = ?');
    expect(cache.prepare('select id from t where id = ?')).toBe(first);
    expect(cache.stats).toEqual({ size: 1, hits: 1, misses: 1 });
    expect(first.all([2])).toEqual([{ id: 2 }]);
  });

  it('prepares another while the kept one is still being read (a streamed query)', () => {
    const { cache } = open();
    const sql = 'select id from t order by id';
    const kept = cache.prepare(sql);
    const ids: number[][] = [];
    for (const row of kept.iterate() as IterableIterator<{ id: number }>) {
      const other = cache.prepare(sql);
      expect(other).not.toBe(kept);
      ids.push([row.id, (other.all() as unknown[]).length]);
    }
    expect(ids).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    // Once read, the kept one is handed out again.
    expect(cache.prepare(sql)).toBe(kept);
  });

  it('keeps at most its capacity, the oldest going first', () => {
    const { cache } = open(2);
    const a = cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 3');
    expect(cache.stats.size).toBe(2);
    expect(cache.prepare('select 1')).not.toBe(a);
  });

  it('closes the database', () => {
    const { database, cache } = open();
    cache.prepare('select 1');
    cache.close();
    expect(database.open).toBe(false);
    expect(cache.stats.size).toBe(0);
  });
});
