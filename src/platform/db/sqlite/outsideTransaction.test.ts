import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../../../test/support/engines';
import { insertBareSite } from '../../../../test/support/bareSite';
import { ok } from '../../../core/result';
import { compiledQuery } from './compiledQuery';
import { connect } from '../connect';
import { migrateToLatest } from '../migrations';
import { inTransaction } from '../transaction';

const insertCart = compiledQuery((db, v: { id: string }) =>
  db.insertInto('carts').values({
    id: v.id,
    site_id: 'outside',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    is_purchased: 0,
    order_id: null,
    claim: null,
  }),
);
const selectCart = compiledQuery((db, v: { id: string }) => db.selectFrom('carts').select('id').where('id', '=', v.id));

forEachEngine((engine, getDb, getFresh) => {
  describe('prepared statements outside a transaction', () => {
    beforeAll(async () => {
      await insertBareSite(getDb(), 'outside', 'Outside');
    });
    beforeEach(async () => {
      await getDb().deleteFrom('carts').where('site_id', '=', 'outside').execute();
    });

    it('read only what is committed, without waiting for a transaction in progress', async () => {
      let finish!: () => void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      let written!: () => void;
      const inserted = new Promise<void>((resolve) => (written = resolve));
      const transaction = inTransaction(getDb(), async (trx) => {
        await insertCart.execute(trx, { id: 'in-progress' });
        written();
        await held;
        return ok(undefined);
      });
      await inserted;
      // Through the one connection this read would wait for the transaction, which waits for the test: it never ends.
      const during = await selectCart.execute(getDb(), { id: 'in-progress' });
      expect(during.rows).toEqual([]);
      finish();
      await transaction;
      expect((await selectCart.execute(getDb(), { id: 'in-progress' })).rows).toEqual([{ id: 'in-progress' }]);
    });

    it('answer a write once it is committed, and fail only the write that failed', async () => {
      const other = connect(getFresh().url);
      try {
        const committedNow = async (id: string) =>
          (await other.db.selectFrom('carts').select('id').where('id', '=', id).execute()).length === 1;
        const ids = Array.from({ length: 20 }, (_, i) => `w-${String(i).padStart(2, '0')}`);
        const writes = ids.map((id) => insertCart.execute(getDb(), { id }).then(() => committedNow(id)));
        // Its own id again: refused by the primary key, as an autocommitted statement would be.
        const duplicate = insertCart.execute(getDb(), { id: 'w-00' });
        const settled = await Promise.allSettled([...writes, duplicate]);
        expect(settled.slice(0, -1)).toEqual(ids.map(() => ({ status: 'fulfilled', value: true })));
        expect(settled.at(-1)).toMatchObject({
          status: 'rejected',
          reason: { message: expect.stringMatching(/unique|duplicate/i) },
        });
        const stored = await getDb()
          .selectFrom('carts')
          .select('id')
          .where('site_id', '=', 'outside')
          .orderBy('id')
          .execute();
        expect(stored.map((r) => r.id)).toEqual(ids);
      } finally {
        await other.close();
      }
    });

    it('report what a write changed', async () => {
      await insertCart.execute(getDb(), { id: 'counted' });
      const touch = compiledQuery((db, v: { siteId: string; at: string }) =>
        db.updateTable('carts').set({ updated_at: v.at }).where('site_id', '=', v.siteId),
      );
      const changed = await touch.execute(getDb(), { siteId: 'outside', at: '2026-02-02T00:00:00.000Z' });
      expect(Number(changed.numAffectedRows)).toBe(1);
      const none = await touch.execute(getDb(), { siteId: 'no-such-site', at: '2026-02-02T00:00:00.000Z' });
      expect(Number(none.numAffectedRows)).toBe(0);
    });
  });

  if (engine === 'sqlite') {
    it('an in-memory database has one connection: its reads and writes go through Kysely and still work', async () => {
      const memory = connect('sqlite::memory:');
      try {
        await migrateToLatest(memory.db);
        await insertBareSite(memory.db, 'outside', 'Outside');
        await Promise.all([insertCart.execute(memory.db, { id: 'm-1' }), insertCart.execute(memory.db, { id: 'm-2' })]);
        expect((await selectCart.execute(memory.db, { id: 'm-2' })).rows).toEqual([{ id: 'm-2' }]);
      } finally {
        await memory.close();
      }
    });
  }
});
