/**
 * Prepared statements kept by SQL text (src/platform/db/sqlite/statementCache.ts, SQLite; PostgreSQL plans per query): the same
 * queries give the current rows and columns after the schema changes under them (a migration adding a column, a
 * table made again), a streamed query reads its rows, and parameters are bound anew on every run (the cache itself:
 * src/platform/db/sqlite/statementCache.test.ts). Both engines: PostgreSQL must answer the same.
 */
import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/platform/db/migrations';
import type { Database } from '../../src/platform/db/tables';
import { forEachEngine } from '../support/engines';

/** Untyped access for tables this test makes. */
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

forEachEngine((engine, getDb, getFresh) => {
  const db = () => getDb() as unknown as AnyDb;
  const hits = () => getFresh().handle.statements?.hits ?? 0;
  /** On SQLite, the second run of a query must come from the cache: else this file tests nothing there. */
  const expectReused = (before: number) => {
    if (engine === 'sqlite') expect(hits()).toBeGreaterThan(before);
  };

  it('gives the new column to a kept SELECT * after a migration adds one, and the old rows their default', async () => {
    await migrateToLatest(getDb());
    await sql`create table kept_a (id integer primary key, name text not null)`.execute(getDb());
    await db().insertInto('kept_a').values({ id: 1, name: 'mug' }).execute();
    const all = () => db().selectFrom('kept_a').selectAll().orderBy('id').execute();
    expect(await all()).toEqual([{ id: 1, name: 'mug' }]);
    const before = hits();
    expect(await all()).toEqual([{ id: 1, name: 'mug' }]);
    expectReused(before);

    await sql`alter table kept_a add column colour text not null default 'blue'`.execute(getDb());
    await db().insertInto('kept_a').values({ id: 2, name: 'vase', colour: 'green' }).execute();
    expect(await all()).toEqual([
      { id: 1, name: 'mug', colour: 'blue' },
      { id: 2, name: 'vase', colour: 'green' },
    ]);
  });

  it('reads a table made again with other columns, and says so clearly while it is gone', async () => {
    await sql`create table kept_b (id integer primary key, price integer not null)`.execute(getDb());
    await db().insertInto('kept_b').values({ id: 1, price: 100 }).execute();
    const all = () => db().selectFrom('kept_b').selectAll().execute();
    expect(await all()).toEqual([{ id: 1, price: 100 }]);
    await sql`drop table kept_b`.execute(getDb());
    await expect(all()).rejects.toThrow(/kept_b/);
    await sql`create table kept_b (sku text primary key, stock integer not null)`.execute(getDb());
    await db().insertInto('kept_b').values({ sku: 'MUG', stock: 7 }).execute();
    expect(await all()).toEqual([{ sku: 'MUG', stock: 7 }]);
  });

  it("binds each run's own parameters, in and out of transactions", async () => {
    await sql`create table kept_c (id integer primary key, qty integer not null)`.execute(getDb());
    for (let id = 1; id <= 5; id++)
      await db()
        .insertInto('kept_c')
        .values({ id, qty: id * 10 })
        .execute();
    const qtyOf = (id: number, on: AnyDb = db()) =>
      on.selectFrom('kept_c').select('qty').where('id', '=', id).executeTakeFirst();
    const before = hits();
    for (let id = 1; id <= 5; id++) expect(await qtyOf(id)).toEqual({ qty: id * 10 });
    expectReused(before);
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('kept_c').set({ qty: 99 }).where('id', '=', 3).execute();
        expect(await qtyOf(3, trx)).toEqual({ qty: 99 });
      });
    expect(await qtyOf(3)).toEqual({ qty: 99 });
    expect(await qtyOf(6)).toBeUndefined();
  });

  it('streams a query whose statement is kept, and runs it again after', async () => {
    await sql`create table kept_d (id integer primary key)`.execute(getDb());
    for (let id = 1; id <= 3; id++) await db().insertInto('kept_d').values({ id }).execute();
    const query = () => db().selectFrom('kept_d').select('id').orderBy('id');
    expect(await query().execute()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    // (Streaming on PostgreSQL needs pg-cursor, which the app does not use.)
    const streamed: unknown[] = [];
    if (engine === 'sqlite') for await (const row of query().stream()) streamed.push(row);
    else streamed.push(...(await query().execute()));
    expect(streamed).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(await query().execute()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it("leaves the app's own tables as the migrations made them", async () => {
    const db: Kysely<Database> = getDb();
    await db
      .insertInto('sites')
      .values({
        id: 'kept',
        title: 'Kept',
        domains: '[]',
        is_default: 0,
        currency: 'USD',
        settings: '{}',
        version: 1,
        updated_at: new Date(0).toISOString(),
      })
      .execute();
    const site = () =>
      db.selectFrom('sites').select(['id', 'title', 'version']).where('id', '=', 'kept').executeTakeFirst();
    expect(await site()).toEqual({ id: 'kept', title: 'Kept', version: 1 });
    await db.updateTable('sites').set({ title: 'Kept again', version: 2 }).where('id', '=', 'kept').execute();
    expect(await site()).toEqual({ id: 'kept', title: 'Kept again', version: 2 });
  });
});
