import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../../../test/support/engines';
import { insertBareSite } from '../../../../test/support/bareSite';
import { err, ok } from '../../../core/result';
import { GROUP_LIMIT } from './commitGroup';
import { compiledQuery } from './compiledQuery';
import { connect } from '../connect';
import { inTransaction } from '../transaction';

forEachEngine((engine, getDb, getFresh) => {
  describe('transactions committed together', () => {
    beforeAll(async () => {
      await insertBareSite(getDb(), 'grouped', 'Grouped');
    });
    beforeEach(async () => {
      await getDb().deleteFrom('carts').where('site_id', '=', 'grouped').execute();
    });

    const insertCart = compiledQuery((db, v: { id: string }) =>
      db.insertInto('carts').values({
        id: v.id,
        site_id: 'grouped',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        is_purchased: 0,
        order_id: null,
        claim: null,
      }),
    );
    const storedIds = async () =>
      (await getDb().selectFrom('carts').select('id').where('site_id', '=', 'grouped').orderBy('id').execute()).map(
        (r) => r.id,
      );
    const adding = (id: string) =>
      inTransaction(getDb(), async (trx) => {
        await insertCart.execute(trx, { id });
        return ok(id);
      });

    it('answer each only once it is committed: another connection sees its row at that moment', async () => {
      // Another connection to the same database: it reads what is committed, and never waits for this one's lock.
      const other = connect(getFresh().url);
      try {
        const committedNow = async (id: string) =>
          (await other.db.selectFrom('carts').select('id').where('id', '=', id).execute()).length === 1;
        const ids = Array.from({ length: GROUP_LIMIT * 2 + 3 }, (_, i) => `g-${String(i).padStart(2, '0')}`);
        const seenAtAnswer = await Promise.all(ids.map((id) => adding(id).then(() => committedNow(id))));
        expect(seenAtAnswer).toEqual(ids.map(() => true));
        expect(await storedIds()).toEqual(ids);
      } finally {
        await other.close();
      }
    });

    it('undo only the writes of the one that failed or threw', async () => {
      const results = await Promise.allSettled([
        adding('a-kept'),
        inTransaction(getDb(), async (trx) => {
          await insertCart.execute(trx, { id: 'a-refused' });
          return err('refused');
        }),
        adding('b-kept'),
        inTransaction(getDb(), async (trx) => {
          await insertCart.execute(trx, { id: 'a-thrown' });
          throw new Error('broken');
        }),
        // A statement that fails (its own id twice) is undone with the rest of its transaction only.
        inTransaction(getDb(), async (trx) => {
          await insertCart.execute(trx, { id: 'a-duplicate' });
          await insertCart.execute(trx, { id: 'a-duplicate' });
          return ok(undefined);
        }),
        adding('c-kept'),
      ]);
      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'rejected',
        'fulfilled',
      ]);
      expect(results[1]).toEqual({ status: 'fulfilled', value: { ok: false, error: 'refused' } });
      expect(await storedIds()).toEqual(['a-kept', 'b-kept', 'c-kept']);
    });

    if (engine === 'sqlite') {
      it('fail every transaction of a group whose commit fails, storing none of them, and go on after', async () => {
        const results = await Promise.allSettled([
          adding('d-first'),
          inTransaction(getDb(), async (trx) => {
            // A foreign key checked at COMMIT, which then fails for the whole group.
            await sql`pragma defer_foreign_keys = on`.execute(trx);
            await trx
              .insertInto('cart_entries')
              .values({
                id: 'orphan',
                cart_id: 'no-such-cart',
                item_id: 'x',
                sku: 'x',
                quantity: 1,
                additional_fields: '',
                unit_price: 100,
                created_at: '2026-01-01T00:00:00.000Z',
              })
              .execute();
            return ok(undefined);
          }),
          adding('d-last'),
        ]);
        expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
        expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
        expect(await storedIds()).toEqual([]);
        expect(await getDb().selectFrom('cart_entries').select('id').where('id', '=', 'orphan').execute()).toEqual([]);
        expect(await adding('e-after')).toEqual({ ok: true, value: 'e-after' });
        expect(await storedIds()).toEqual(['e-after']);
      });
    }
  });
});
